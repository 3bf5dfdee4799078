#include "core/dates.hpp"

#include <fmt/format.h>

#include <chrono>
#include <cstdlib>

#include "core/error.hpp"

namespace gv {
namespace {

// Howard Hinnant's civil-date algorithms (proleptic Gregorian), so no time zone library and
// no dependence on the process's TZ.
std::int64_t days_from_civil(std::int64_t y, unsigned m, unsigned d) {
  y -= m <= 2 ? 1 : 0;
  const std::int64_t era = (y >= 0 ? y : y - 399) / 400;
  const auto yoe = static_cast<unsigned>(y - era * 400);
  const unsigned doy = (153 * (m > 2 ? m - 3 : m + 9) + 2) / 5 + d - 1;
  const unsigned doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
  return era * 146097 + static_cast<std::int64_t>(doe) - 719468;
}

struct Civil {
  std::int64_t year;
  unsigned month;
  unsigned day;
};

Civil civil_from_days(std::int64_t z) {
  z += 719468;
  const std::int64_t era = (z >= 0 ? z : z - 146096) / 146097;
  const auto doe = static_cast<unsigned>(z - era * 146097);
  const unsigned yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
  const std::int64_t y = static_cast<std::int64_t>(yoe) + era * 400;
  const unsigned doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
  const unsigned mp = (5 * doy + 2) / 153;
  const unsigned d = doy - (153 * mp + 2) / 5 + 1;
  const unsigned m = mp < 10 ? mp + 3 : mp - 9;
  return {y + (m <= 2 ? 1 : 0), m, d};
}

bool is_leap(std::int64_t y) { return (y % 4 == 0 && y % 100 != 0) || y % 400 == 0; }

unsigned days_in_month(std::int64_t y, unsigned m) {
  static constexpr unsigned k_days[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  return m == 2 && is_leap(y) ? 29 : k_days[m - 1];
}

// Reads exactly `count` ASCII digits at `pos`; nullopt otherwise.
std::optional<unsigned> digits(std::string_view text, std::size_t pos, std::size_t count) {
  if (pos + count > text.size()) {
    return std::nullopt;
  }
  unsigned value = 0;
  for (std::size_t i = pos; i < pos + count; ++i) {
    const char c = text[i];
    if (c < '0' || c > '9') {
      return std::nullopt;
    }
    value = value * 10 + static_cast<unsigned>(c - '0');
  }
  return value;
}

std::optional<Date> parse_date_only(std::string_view text) {
  if (text.size() < 10 || text[4] != '-' || text[7] != '-') {
    return std::nullopt;
  }
  const auto y = digits(text, 0, 4);
  const auto m = digits(text, 5, 2);
  const auto d = digits(text, 8, 2);
  if (!y || !m || !d || *m < 1 || *m > 12 || *d < 1 || *d > days_in_month(*y, *m)) {
    return std::nullopt;
  }
  return Date{days_from_civil(*y, *m, *d)};
}

// Parses the part after the date: `THH:MM[:SS[.fff]][Z|±HH:MM|±HHMM]` (`t` or a space also
// separate). Returns the seconds since midnight minus the offset, i.e. the UTC correction.
std::optional<std::int64_t> parse_time_suffix(std::string_view rest) {
  if (rest.empty()) {
    return 0;
  }
  if (rest[0] != 'T' && rest[0] != 't' && rest[0] != ' ') {
    return std::nullopt;
  }
  const auto hh = digits(rest, 1, 2);
  const auto mm = digits(rest, 4, 2);
  if (!hh || !mm || rest.size() < 6 || rest[3] != ':' || *hh > 23 || *mm > 59) {
    return std::nullopt;
  }
  std::size_t pos = 6;
  unsigned ss = 0;
  if (pos < rest.size() && rest[pos] == ':') {
    const auto s = digits(rest, pos + 1, 2);
    if (!s || *s > 60) {  // 60: a leap second is still a valid timestamp
      return std::nullopt;
    }
    ss = *s;
    pos += 3;
    if (pos < rest.size() && (rest[pos] == '.' || rest[pos] == ',')) {
      ++pos;
      const std::size_t start = pos;
      while (pos < rest.size() && rest[pos] >= '0' && rest[pos] <= '9') {
        ++pos;
      }
      if (pos == start) {
        return std::nullopt;
      }
    }
  }
  std::int64_t offset = 0;
  if (pos < rest.size()) {
    const char sign = rest[pos];
    if ((sign == 'Z' || sign == 'z') && pos + 1 == rest.size()) {
      pos += 1;
    } else if (sign == '+' || sign == '-') {
      const auto oh = digits(rest, pos + 1, 2);
      std::optional<unsigned> om;
      if (pos + 3 < rest.size() && rest[pos + 3] == ':') {
        om = digits(rest, pos + 4, 2);
        pos += 6;
      } else {
        om = digits(rest, pos + 3, 2);
        pos += 5;
      }
      if (!oh || !om || *oh > 23 || *om > 59 || pos != rest.size()) {
        return std::nullopt;
      }
      offset = (sign == '+' ? 1 : -1) * static_cast<std::int64_t>(*oh * 3600 + *om * 60);
    } else {
      return std::nullopt;
    }
  }
  if (pos != rest.size()) {
    return std::nullopt;
  }
  return static_cast<std::int64_t>(*hh * 3600 + *mm * 60 + ss) - offset;
}

std::optional<std::string> non_empty_env(const char* name) {
  const char* value = std::getenv(name);
  if (value == nullptr || *value == '\0') {
    return std::nullopt;
  }
  return std::string(value);
}

}  // namespace

std::optional<Date> parse_date(std::string_view text) {
  auto date = parse_date_only(text);
  if (!date || !parse_time_suffix(text.substr(10))) {
    return std::nullopt;
  }
  return date;
}

std::optional<Instant> parse_instant(std::string_view text) {
  const auto date = parse_date_only(text);
  if (!date) {
    return std::nullopt;
  }
  const auto seconds = parse_time_suffix(text.substr(10));
  if (!seconds) {
    return std::nullopt;
  }
  return Instant{date->days * 86400 + *seconds};
}

std::string format_date(Date date) {
  const Civil c = civil_from_days(date.days);
  return fmt::format("{:04}-{:02}-{:02}", c.year, c.month, c.day);
}

std::string format_instant(Instant instant) {
  const Date date = date_of(instant);
  const std::int64_t secs = instant.seconds - date.days * 86400;
  return fmt::format("{}T{:02}:{:02}:{:02}Z", format_date(date), secs / 3600, secs / 60 % 60,
                     secs % 60);
}

Date date_of(Instant instant) {
  // Floor division so instants before 1970 land on the right day.
  std::int64_t days = instant.seconds / 86400;
  if (instant.seconds % 86400 < 0) {
    --days;
  }
  return Date{days};
}

Clock resolve_clock(std::optional<std::string> today_flag, std::optional<std::string> now_flag) {
  std::optional<Instant> now;
  if (now_flag) {
    now = parse_instant(*now_flag);
    if (!now) {
      throw UsageError("invalid --now '{}': expected YYYY-MM-DDTHH:MM:SSZ", *now_flag);
    }
  } else if (const auto env = non_empty_env("GIT_VAULT_NOW")) {
    now = parse_instant(*env);
    if (!now) {
      throw UsageError("invalid GIT_VAULT_NOW '{}': expected YYYY-MM-DDTHH:MM:SSZ", *env);
    }
  }

  std::optional<Date> today;
  if (today_flag) {
    today = parse_date_only(*today_flag);
    if (!today || today_flag->size() != 10) {
      throw UsageError("invalid --today '{}': expected YYYY-MM-DD", *today_flag);
    }
  } else if (const auto env = non_empty_env("GIT_VAULT_TODAY")) {
    today = parse_date_only(*env);
    if (!today || env->size() != 10) {
      throw UsageError("invalid GIT_VAULT_TODAY '{}': expected YYYY-MM-DD", *env);
    }
  }

  const auto system_now = [] {
    const auto since_epoch = std::chrono::system_clock::now().time_since_epoch();
    return Instant{std::chrono::duration_cast<std::chrono::seconds>(since_epoch).count()};
  };
  // A fixed "now" without a fixed "today" implies today's date, so a run pinned by one
  // variable never mixes a pinned instant with the real calendar. A fixed "today" alone leaves
  // "now" on the system clock: timestamps then stay truthful.
  Clock clock;
  clock.now = now ? *now : system_now();
  clock.today = today ? *today : date_of(clock.now);
  return clock;
}

}  // namespace gv
