#include "core/util/suggest.hpp"

#include <catch2/catch.hpp>
#include <string>
#include <vector>

namespace suggest_test {

using gv::util::closest_names;
using gv::util::edit_distance;

TEST_CASE("edit distance counts an adjacent swap as one edit", "[suggest]") {
  CHECK(edit_distance("search", "search") == 0);
  CHECK(edit_distance("serach", "search") == 1);
  CHECK(edit_distance("distil", "distill") == 1);
  CHECK(edit_distance("", "log") == 3);
  CHECK(edit_distance("maintian", "maintain") == 1);
}

TEST_CASE("closest names: a typo or a prefix, never a stretch", "[suggest]") {
  const std::vector<std::string> commands{"init", "check",  "index",  "distill", "recall",
                                          "log",  "revert", "review", "search",  "hooks"};
  CHECK(closest_names("distil", commands) == std::vector<std::string>{"distill"});
  CHECK(closest_names("serach", commands) == std::vector<std::string>{"search"});
  CHECK(closest_names("re", commands) ==
        std::vector<std::string>{"recall", "revert", "review"});  // a prefix lists them all
  CHECK(closest_names("xyzzy", commands).empty());
  CHECK(closest_names("hook", commands) == std::vector<std::string>{"hooks"});
}

}  // namespace suggest_test
