#include "core/vault/index_row.hpp"

namespace gv {

IndexRow index_row(const Memory& memory) {
  IndexRow row;
  row.id = memory.id;
  row.path = memory.path;
  row.title = memory.title;
  row.topic = memory.topic;
  row.category = memory.category;
  row.created = memory.created;
  row.tombstoned = memory.tombstoned;
  row.token_count = memory.token_count;
  row.links.assign(memory.links.begin(), memory.links.end());
  row.link_lines = memory.link_lines;
  return row;
}

std::vector<IndexRow> index_rows(const std::vector<Memory>& memories) {
  std::vector<IndexRow> rows;
  rows.reserve(memories.size());
  for (const Memory& memory : memories) {
    rows.push_back(index_row(memory));
  }
  return rows;
}

}  // namespace gv
