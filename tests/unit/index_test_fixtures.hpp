#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/memory/memory.hpp"

namespace gv::test {

// Days since 1970-01-01 for a calendar date, worked out independently of the code under test
// (Howard Hinnant's days_from_civil), so fixtures can be written as dates.
inline Date ymd(int year, int month, int day) {
  const std::int64_t y = year - (month <= 2 ? 1 : 0);
  const std::int64_t era = (y >= 0 ? y : y - 399) / 400;
  const std::int64_t yoe = y - era * 400;
  const std::int64_t doy = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1;
  const std::int64_t doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
  return Date{era * 146097 + doe - 719468};
}

inline Memory memory(const std::string& id, const std::string& title, Date created) {
  Memory m;
  m.id = id;
  m.path = ".memory/10-Memories/" + id + ".md";
  m.title = title;
  m.created = created;
  m.modified = created;
  return m;
}

// A small vault: two active memories with categories and topics, one tombstoned, one with
// neither category nor topic. Titles carry quotes, a backslash and non-ASCII text.
inline std::vector<Memory> small_vault() {
  Memory pattern = memory("MEM-b-retry", "Retry with \"backoff\" \\ slash", ymd(2026, 4, 13));
  pattern.category = "PATTERN";
  pattern.tags = {"PATTERN"};
  pattern.topic = "python/libs";
  pattern.keywords = {"retry", "backoff"};
  pattern.summary = "Retry failed calls";
  pattern.token_count = 120;
  pattern.retrieval_count = 3;
  pattern.last_retrieved = ymd(2026, 5, 1);

  Memory config = memory("MEM-a-editor", "Éditeur café ✓", ymd(2026, 5, 1));
  config.modified = ymd(2026, 5, 2);
  config.category = "config";
  config.topic = "editor";
  config.token_count = 40;

  Memory old = memory("MEM-c-old", "Old insight", ymd(2026, 4, 13));
  old.category = "INSIGHT";
  old.topic = "python/libs";
  old.keywords = {"legacy"};
  old.token_count = 10;
  old.tombstoned = true;
  old.tombstoned_at = ymd(2026, 11, 20);
  old.tombstone_reason = "purge";

  Memory bare = memory("MEM-d-bare", "Bare note", ymd(2026, 4, 13));
  bare.token_count = 5;

  // Deliberately not in id order.
  return {old, pattern, bare, config};
}

}  // namespace gv::test
