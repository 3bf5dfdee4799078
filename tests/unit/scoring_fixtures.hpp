#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "core/dates.hpp"
#include "core/memory/memory.hpp"

// Small builders for scoring and report tests. Dates are built here from the calendar (days since
// 1970-01-01, Howard Hinnant's days_from_civil) so the tests do not depend on the date parser.
namespace gv::scoring_test {

inline Date ymd(int year, unsigned month, unsigned day) {
  const int y = year - (month <= 2 ? 1 : 0);
  const int era = (y >= 0 ? y : y - 399) / 400;
  const auto yoe = static_cast<unsigned>(y - era * 400);
  const unsigned doy = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1;
  const unsigned doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
  return Date{static_cast<std::int64_t>(era) * 146097 + static_cast<std::int64_t>(doe) - 719468};
}

inline Date days_before(Date today, std::int64_t days) { return Date{today.days - days}; }

// The pinned e2e date, used as "today" throughout.
inline const Date k_today = ymd(2026, 11, 30);

// An active memory created `age_days` before k_today, never retrieved, 100 tokens.
inline Memory memory(std::string id, std::int64_t age_days = 0,
                     std::vector<std::string> keywords = {}) {
  Memory m;
  m.id = std::move(id);
  m.path = ".memory/10-Memories/" + m.id + ".md";
  m.title = m.id;
  m.created = days_before(k_today, age_days);
  m.modified = m.created;
  m.keywords = std::move(keywords);
  m.token_count = 100;
  return m;
}

inline Memory tombstoned(std::string id, std::int64_t tombstoned_days_ago,
                         std::string reason = "purge") {
  Memory m = memory(std::move(id), 100);
  m.tombstoned = true;
  m.tombstoned_at = days_before(k_today, tombstoned_days_ago);
  m.tombstone_reason = std::move(reason);
  return m;
}

}  // namespace gv::scoring_test
