// GIT_VAULT_TRACE_PERFORMANCE: the timing line the benchmark reads (bench/run), written to
// stderr or appended to a file, and never a change to what the command itself prints.
#include <catch2/catch.hpp>
#include <regex>
#include <string>

#include "tests/e2e/sandbox.hpp"
#include "tests/e2e/vault_fixture.hpp"

namespace trace_performance_test {

using gv::test::Sandbox;

namespace {

const std::regex k_scoring_line(
    R"(git-vault: performance: [0-9]+\.[0-9]{6} s: duplicate scoring of 4 memories\n)");

}  // namespace

TEST_CASE("GIT_VAULT_TRACE_PERFORMANCE times duplicate scoring and changes nothing else",
          "[trace]") {
  Sandbox sandbox;
  gv::test::write_scored_vault(sandbox);  // four active memories and one tombstone
  const auto plain = sandbox.vault({"distill", "--json"});
  REQUIRE(plain.code == 0);
  CHECK(plain.err.find("performance:") == std::string::npos);

  SECTION("to a file named by an absolute path, appended run after run") {
    const std::string trace = (sandbox.root() / "trace.txt").string();
    sandbox.set_env("GIT_VAULT_TRACE_PERFORMANCE", trace);
    const auto first = sandbox.vault({"distill", "--json"});
    REQUIRE(first.code == 0);
    CHECK(first.out == plain.out);
    CHECK(first.err == plain.err);
    CHECK(std::regex_match(sandbox.read("trace.txt"), k_scoring_line));
    REQUIRE(sandbox.vault({"distill", "--json"}).code == 0);
    const std::string both = sandbox.read("trace.txt");
    const std::size_t cut = both.find('\n') + 1;
    CHECK(std::regex_match(both.substr(0, cut), k_scoring_line));
    CHECK(std::regex_match(both.substr(cut), k_scoring_line));
  }
  SECTION("to stderr for 1, after what the command itself says") {
    sandbox.set_env("GIT_VAULT_TRACE_PERFORMANCE", "1");
    const auto traced = sandbox.vault({"distill", "--json"});
    REQUIRE(traced.code == 0);
    CHECK(traced.out == plain.out);
    REQUIRE(traced.err.size() > plain.err.size());
    CHECK(traced.err.find(plain.err) != std::string::npos);
    CHECK(std::regex_search(traced.err, k_scoring_line));
  }
  SECTION("off for 0, false and the empty value") {
    for (const char* off : {"0", "false", ""}) {
      sandbox.set_env("GIT_VAULT_TRACE_PERFORMANCE", off);
      const auto quiet = sandbox.vault({"distill", "--json"});
      INFO("GIT_VAULT_TRACE_PERFORMANCE=" << off);
      CHECK(quiet.code == 0);
      CHECK(quiet.err == plain.err);
    }
  }
  SECTION("a file that cannot be opened leaves the command as it was") {
    sandbox.set_env("GIT_VAULT_TRACE_PERFORMANCE",
                    (sandbox.root() / "no-such-folder" / "trace.txt").string());
    const auto unopened = sandbox.vault({"distill", "--json"});
    CHECK(unopened.code == 0);
    CHECK(unopened.out == plain.out);
    CHECK(unopened.err == plain.err);
  }
}

}  // namespace trace_performance_test
