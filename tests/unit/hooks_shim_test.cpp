#include <catch2/catch.hpp>
#include <string>

#include "core/hooks/shim.hpp"

namespace hooks_shim_test {

using gv::hooks::is_our_shim;
using gv::hooks::render_shim;

TEST_CASE("a shim is a LF-only sh script carrying the marker and exec'ing the handler", "[hooks]") {
  const std::string shim = render_shim("pre-commit", false);
  CHECK(shim.starts_with("#!/bin/sh\n# git-vault hook shim v1\n"));
  CHECK(shim.find('\r') == std::string::npos);
  CHECK(shim.ends_with("exec git-vault hook pre-commit \"$@\"\n"));
  CHECK(shim.find("pre-git-vault") == std::string::npos);
}

TEST_CASE("a chained shim runs the kept hook first and stops on its failure for pre-commit",
          "[hooks]") {
  const std::string shim = render_shim("pre-commit", true);
  const auto prior = shim.find("prior=\"$(dirname -- \"$0\")/pre-commit.pre-git-vault\"");
  REQUIRE(prior != std::string::npos);
  const auto runs = shim.find("\"$prior\" \"$@\" || exit $?");
  REQUIRE(runs != std::string::npos);
  CHECK(prior < runs);
  CHECK(runs < shim.find("exec git-vault hook pre-commit"));
}

TEST_CASE("post-merge ignores a failing chained hook and never fails when git-vault is missing",
          "[hooks]") {
  const std::string shim = render_shim("post-merge", true);
  CHECK(shim.find("|| exit") == std::string::npos);
  CHECK(shim.find("exit 1") == std::string::npos);
  CHECK(shim.find("exit 0") != std::string::npos);
  CHECK(shim.find("post-merge.pre-git-vault") != std::string::npos);
}

TEST_CASE("the pre-commit shim fails closed and says how to install or remove it", "[hooks]") {
  const std::string shim = render_shim("pre-commit", false);
  CHECK(shim.find("command -v git-vault") != std::string::npos);
  CHECK(shim.find("exit 1") != std::string::npos);
  CHECK(shim.find("not on PATH") != std::string::npos);
  CHECK(shim.find("rm \\\"$0\\\"") != std::string::npos);
}

TEST_CASE("our shims are recognised by their marker line, foreign hooks are not", "[hooks]") {
  CHECK(is_our_shim(render_shim("pre-commit", false)));
  CHECK(is_our_shim(render_shim("post-merge", true)));
  CHECK(is_our_shim("#!/bin/sh\r\n# git-vault hook shim v1\r\nexec true\r\n"));
  CHECK_FALSE(is_our_shim("#!/bin/sh\nexec pre-commit run\n"));
  CHECK_FALSE(is_our_shim(""));
  // A mention deep in a foreign script is not the marker.
  CHECK_FALSE(is_our_shim("#!/bin/sh\n# one\n# two\n# git-vault hook shim v1\n"));
  CHECK_FALSE(is_our_shim("#!/bin/sh\necho '# git-vault hook shim v1'\n"));
}

}  // namespace hooks_shim_test
