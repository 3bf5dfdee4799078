#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/dates.hpp"
#include "core/memory/memory.hpp"

namespace gv {

// What the generated index.md and README.md, and the gate's checks across memories, need of
// one memory: views into a Memory, or straight into the bytes of the parse cache. The gate
// renders a 10,000-memory vault from rows without building 10,000 Memory values.
struct IndexRow {
  std::string_view id;
  std::string_view path;
  std::string_view title;
  std::string_view topic;
  std::string_view category;  // as written; compare with category_key()
  Date created;
  bool tombstoned = false;
  std::int64_t token_count = 0;
  std::vector<std::string_view> links;  // `[[target]]` targets in the body, in order
  std::vector<int> link_lines;          // the file line of each link; empty when not known

  [[nodiscard]] bool active() const { return !tombstoned; }
};

// The row of `memory`; it views the memory, which must outlive it.
[[nodiscard]] IndexRow index_row(const Memory& memory);
[[nodiscard]] std::vector<IndexRow> index_rows(const std::vector<Memory>& memories);

}  // namespace gv
