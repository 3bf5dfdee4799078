#pragma once

#include <cstddef>
#include <string>

// A human list cut after the rows a person reads (`--limit`, 20 on a terminal; 0 lists every
// row), ended by a line that says how many were left out and how to see them. At 10,000
// memories a merge dry run would otherwise print a table row per pair; `--json` always has
// every row (doc/architecture.md, "Output").
namespace gv::util {

class RowLimit {
 public:
  explicit RowLimit(std::size_t limit) : m_limit(limit) {}

  // Counts one more row; true when it is shown.
  bool next() {
    ++m_rows;
    return m_limit == 0 || m_rows <= m_limit;
  }

  // `... and N more …` when rows were left out, else empty.
  [[nodiscard]] std::string rest_line() const;

 private:
  std::size_t m_limit = 0;
  std::size_t m_rows = 0;
};

}  // namespace gv::util
