#include "core/dates.hpp"

#include <catch2/catch.hpp>
#include <cstdlib>
#include <optional>
#include <string>

#include "core/error.hpp"

namespace dates_test {

using gv::Date;
using gv::parse_date;
using gv::parse_instant;

TEST_CASE("dates convert to days since the epoch and back", "[dates]") {
  CHECK(parse_date("1970-01-01")->days == 0);
  CHECK(parse_date("1970-01-02")->days == 1);
  CHECK(parse_date("1969-12-31")->days == -1);
  CHECK(parse_date("2000-03-01")->days == 11017);
  CHECK(gv::format_date(Date{11017}) == "2000-03-01");
  CHECK(gv::format_date(Date{-1}) == "1969-12-31");
  CHECK(gv::format_date(*parse_date("2026-11-30")) == "2026-11-30");
}

TEST_CASE("days_between counts calendar days across a leap day", "[dates]") {
  CHECK(gv::days_between(*parse_date("2024-03-01"), *parse_date("2024-02-28")) == 2);
  CHECK(gv::days_between(*parse_date("2023-03-01"), *parse_date("2023-02-28")) == 1);
  CHECK(gv::days_between(*parse_date("2027-01-01"), *parse_date("2026-01-01")) == 365);
}

TEST_CASE("impossible calendar dates are rejected", "[dates]") {
  CHECK_FALSE(parse_date("2026-02-30"));
  CHECK_FALSE(parse_date("2026-02-29"));
  CHECK(parse_date("2024-02-29"));
  CHECK_FALSE(parse_date("1900-02-29"));
  CHECK(parse_date("2000-02-29"));
  CHECK_FALSE(parse_date("2026-13-01"));
  CHECK_FALSE(parse_date("2026-00-10"));
  CHECK_FALSE(parse_date("2026-04-31"));
  CHECK_FALSE(parse_date("2026-4-1"));
  CHECK_FALSE(parse_date("2026/04/01"));
  CHECK_FALSE(parse_date(""));
  CHECK_FALSE(parse_date("2026-04-01x"));
  CHECK_FALSE(parse_date("today"));
}

TEST_CASE("a timestamp counts as its date part", "[dates]") {
  CHECK(parse_date("2026-04-15T00:00:00Z") == parse_date("2026-04-15"));
  CHECK(parse_date("2026-04-15T23:59:59+05:00") == parse_date("2026-04-15"));
  CHECK(parse_date("2026-04-15 10:00") == parse_date("2026-04-15"));
  CHECK(parse_date("2026-04-15T10:00:00.123Z") == parse_date("2026-04-15"));
  CHECK_FALSE(parse_date("2026-04-15T25:00:00Z"));
  CHECK_FALSE(parse_date("2026-04-15T10:00:00Q"));
}

TEST_CASE("instants apply their offset and format as UTC", "[dates]") {
  CHECK(parse_instant("1970-01-01T00:00:10Z")->seconds == 10);
  CHECK(parse_instant("1970-01-01")->seconds == 0);
  CHECK(parse_instant("1970-01-01T01:00:00+01:00")->seconds == 0);
  CHECK(parse_instant("1970-01-01T00:00:00-0130")->seconds == 5400);
  CHECK(gv::format_instant(*parse_instant("2026-11-30T12:34:56Z")) == "2026-11-30T12:34:56Z");
  CHECK(gv::format_instant(*parse_instant("2026-11-30T00:30:00+01:00")) == "2026-11-29T23:30:00Z");
  CHECK(gv::date_of(gv::Instant{-1}) == *parse_date("1969-12-31"));
  CHECK_FALSE(parse_instant("2026-11-30T12:34:56Zjunk"));
}

namespace {

// Sets or clears an environment variable for one test and restores it afterwards.
class EnvGuard {
 public:
  EnvGuard(const char* name, const char* value) : m_name(name) {
    if (const char* old = std::getenv(name)) {
      m_old = old;
    }
    if (value != nullptr) {
      ::setenv(name, value, 1);
    } else {
      ::unsetenv(name);
    }
  }
  ~EnvGuard() {
    if (m_old) {
      ::setenv(m_name, m_old->c_str(), 1);
    } else {
      ::unsetenv(m_name);
    }
  }
  EnvGuard(const EnvGuard&) = delete;
  EnvGuard& operator=(const EnvGuard&) = delete;

 private:
  const char* m_name;
  std::optional<std::string> m_old;
};

}  // namespace

TEST_CASE("the clock prefers flags, then the environment", "[dates]") {
  const EnvGuard today("GIT_VAULT_TODAY", "2026-11-30");
  const EnvGuard now("GIT_VAULT_NOW", "2026-11-30T08:00:00Z");

  gv::Clock clock = gv::resolve_clock(std::nullopt, std::nullopt);
  CHECK(gv::format_date(clock.today) == "2026-11-30");
  CHECK(gv::format_instant(clock.now) == "2026-11-30T08:00:00Z");

  clock = gv::resolve_clock(std::string("2026-01-02"), std::string("2026-01-02T03:04:05Z"));
  CHECK(gv::format_date(clock.today) == "2026-01-02");
  CHECK(gv::format_instant(clock.now) == "2026-01-02T03:04:05Z");
}

TEST_CASE("a fixed now without a fixed today sets today to its date", "[dates]") {
  const EnvGuard today("GIT_VAULT_TODAY", nullptr);
  const EnvGuard now("GIT_VAULT_NOW", "2026-05-06T23:00:00Z");
  CHECK(gv::format_date(gv::resolve_clock(std::nullopt, std::nullopt).today) == "2026-05-06");
}

TEST_CASE("a malformed clock override is a usage error", "[dates]") {
  const EnvGuard today("GIT_VAULT_TODAY", "2026-02-30");
  const EnvGuard now("GIT_VAULT_NOW", nullptr);
  CHECK_THROWS_AS(gv::resolve_clock(std::nullopt, std::nullopt), gv::UsageError);
  CHECK_THROWS_AS(gv::resolve_clock(std::string("2026-01-01T00:00:00Z"), std::nullopt),
                  gv::UsageError);
  CHECK_THROWS_AS(gv::resolve_clock(std::string("2026-01-01"), std::string("noon")),
                  gv::UsageError);
  CHECK_NOTHROW(gv::resolve_clock(std::string("2026-01-01"), std::nullopt));
}

}  // namespace dates_test
