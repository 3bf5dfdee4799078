#pragma once

#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "core/dates.hpp"

namespace gv {

// One memory file (`.memory/10-Memories/MEM-*.md`) as the scoring engine and the index see it,
// after validation (D2). Values are normalised: defaults applied, quotes removed. The file's
// bytes are not kept; editors re-read them.
struct Memory {
  std::string id;        // file name without `.md`
  std::string path;      // repo-relative
  std::string blob_oid;  // git blob id of the bytes this was parsed from

  std::string title;
  Date created;
  Date modified;  // defaults to created
  std::vector<std::string> tags;
  std::string topic;
  std::vector<std::string> keywords;  // as written (trimmed); compare via keyword_key()
  std::string summary;
  std::string source;
  std::string category;  // `category:` if non-empty, else first tag, as written
  std::int64_t retrieval_count = 0;
  std::optional<Date> last_retrieved;

  bool tombstoned = false;
  std::optional<Date> tombstoned_at;
  std::string tombstone_reason;

  std::int64_t token_count = 0;    // D3: computed from the body, never read from frontmatter
  std::vector<std::string> links;  // `[[target]]` wiki-link targets in the body, in order
  // The file line (1-based) of each of `links`, so a finding about a link needs no second read
  // of the file. Empty for a memory not read from a file.
  std::vector<int> link_lines;

  [[nodiscard]] bool active() const { return !tombstoned; }
};

// The category compared the way D2 says: upper-cased.
[[nodiscard]] std::string category_key(const Memory& memory);
[[nodiscard]] std::string category_key(std::string_view category);

// A keyword compared the way D2 says: trimmed, lower-cased.
[[nodiscard]] std::string keyword_key(std::string_view keyword);
// The memory's keyword keys as a set, empty keys dropped: K of the duplicate score and of a
// merge's keyword union.
[[nodiscard]] std::set<std::string> keyword_keys(const Memory& memory);

}  // namespace gv
