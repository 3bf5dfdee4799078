#include <catch2/catch.hpp>

#include "core/distill/selection.hpp"

namespace distill_selection_test {

using gv::distill::parse_selection;

TEST_CASE("a selection reads numbers, ranges, names and `a`", "[selection]") {
  const std::vector<std::string> keys{"MEM-a", "MEM-b", "MEM-c", "MEM-d"};
  CHECK(parse_selection("1,3", keys).indexes == std::vector<std::size_t>{0, 2});
  CHECK(parse_selection(" 2-4 ", keys).indexes == std::vector<std::size_t>{1, 2, 3});
  CHECK(parse_selection("MEM-d 1", keys).indexes == std::vector<std::size_t>{0, 3});
  CHECK(parse_selection("a", keys).indexes.size() == 4);
  CHECK(parse_selection("3,3,3", keys).indexes == std::vector<std::size_t>{2});
  CHECK(parse_selection("", keys).indexes.empty());
  CHECK(parse_selection("", keys).error.empty());
}

TEST_CASE("a selection outside the candidates is an error, not a partial choice", "[selection]") {
  const std::vector<std::string> keys{"MEM-a", "MEM-b"};
  for (const char* bad : {"0", "3", "1-3", "2-1", "MEM-z", "x"}) {
    const auto selection = parse_selection(bad, keys);
    INFO(bad);
    CHECK_FALSE(selection.error.empty());
    CHECK(selection.indexes.empty());
  }
}

}  // namespace distill_selection_test
