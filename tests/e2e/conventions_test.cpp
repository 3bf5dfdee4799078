// The conventions every command shares: the command list, typo suggestions, --version, -q, the
// error prefix, one JSON printer, the pager and colour (doc/architecture.md, "Output").
#include <catch2/catch.hpp>
#include <filesystem>
#include <string>

#include "tests/e2e/sandbox.hpp"

using gv::test::Sandbox;

namespace {

[[maybe_unused]] bool contains(const std::string& haystack, std::string_view needle) {
  return haystack.find(needle) != std::string::npos;
}

std::size_t count_lines(const std::string& text) {
  return static_cast<std::size_t>(std::count(text.begin(), text.end(), '\n'));
}

}  // namespace

TEST_CASE("a command that needs a repository fails at once outside one, with one line",
          "[e2e][conventions]") {
  Sandbox sandbox;
  std::filesystem::remove_all(sandbox.path(".git"));
  for (const char* command : {"distill", "index", "log", "check", "search", "init"}) {
    INFO(command);
    const auto result = command == std::string("search") ? sandbox.vault({command, "retry"})
                                                         : sandbox.vault({command});
    CHECK(result.code == 128);
    CHECK(result.out.empty());
    CHECK(result.err.starts_with("git-vault: error: not a git repository"));
    CHECK(count_lines(result.err) == 1);
  }
}
