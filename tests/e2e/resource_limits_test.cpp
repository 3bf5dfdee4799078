// What a command does when the machine runs out: out of memory and a full disk each end it with
// one `git-vault: error:` line that says so, exit 128, and the repository as it was
// (doc/architecture.md, "Output").
#include <fmt/format.h>

#include <catch2/catch.hpp>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

#include "core/util/shell_word.hpp"
#include "tests/e2e/kill_support.hpp"
#include "tests/e2e/sandbox.hpp"

namespace resource_limits_test {

using gv::test::Result;
using gv::test::Sandbox;

namespace {

// AddressSanitizer reserves terabytes of address space for its shadow memory at start-up: no
// address-space limit leaves it room to start, so a sanitized build runs the limit's test with
// the release build of the same sources that tests/run.sh names in GIT_VAULT_UNSANITIZED_BIN.
#if defined(GIT_VAULT_SANITIZED)
constexpr bool k_sanitized = true;
#else
constexpr bool k_sanitized = false;
#endif

// The `git-vault: error:` lines of a command's stderr (a note may come before them).
std::vector<std::string> error_lines(std::string_view err) {
  std::vector<std::string> lines;
  std::size_t begin = 0;
  while (begin < err.size()) {
    std::size_t end = err.find('\n', begin);
    if (end == std::string_view::npos) {
      end = err.size();
    }
    const std::string_view line = err.substr(begin, end - begin);
    if (line.starts_with("git-vault: error:")) {
      lines.emplace_back(line);
    }
    begin = end + 1;
  }
  return lines;
}

// A memory-index.json of about `megabytes` MB that no regeneration gives (its entries name
// memories the vault does not have): a check or a regeneration parses it whole to say how it
// differs.
std::string big_index_json(std::size_t megabytes) {
  const std::size_t entries = megabytes * 1024 * 1024 / 500;  // an entry is about 500 bytes
  std::string out;
  out.reserve(megabytes * 1024 * 1024 + 4096);
  out += fmt::format(
      "{{\n  \"version\": \"1.0.0\",\n  \"generated_at\": \"2026-11-30\",\n  \"entry_count\": "
      "{},\n  \"total_tokens\": {},\n  \"entries\": [\n",
      entries, entries * 120);
  for (std::size_t i = 0; i < entries; ++i) {
    out += fmt::format(
        "    {{\n      \"id\": \"MEM-filler-{0:07}\",\n      \"path\": "
        "\".memory/10-Memories/MEM-filler-{0:07}.md\",\n      \"title\": \"Filler note {0}\",\n"
        "      \"summary\": \"A note that only takes room in the index, number {0}\",\n"
        "      \"topic\": \"testing/limits\",\n      \"category\": \"INSIGHT\",\n"
        "      \"keywords\": [\"filler\", \"limits\"],\n      \"token_count\": 120,\n"
        "      \"created\": \"2026-11-01\",\n      \"modified\": \"2026-11-01\",\n"
        "      \"last_retrieved\": null,\n      \"retrieval_count\": 0,\n"
        "      \"status\": \"active\"\n    }}{1}\n",
        i, i + 1 < entries ? "," : "");
  }
  out += "  ]\n}\n";
  return out;
}

}  // namespace

// Under a small address-space limit (`ulimit -v`), with a memory-index.json whose parse needs
// more than the limit: the allocation that fails ends the command with the one line, never with
// "terminate called" (SIGABRT) or a message blaming the files.
TEST_CASE("out of memory ends a command with one line and exit 128, the repository unchanged",
          "[limits]") {
  std::string program = "git vault";
  if (k_sanitized) {
    const char* const release = std::getenv("GIT_VAULT_UNSANITIZED_BIN");
    if (release == nullptr || *release == '\0') {
      WARN(
          "built with AddressSanitizer, which cannot start under an address-space limit, and "
          "GIT_VAULT_UNSANITIZED_BIN names no release build; skipped");
      return;
    }
    program = gv::util::shell_word(release);
  }
  Sandbox sandbox;
  gv::test::write_kill_fixture(sandbox);
  sandbox.write(".memory/memory-index.json", big_index_json(80));
  sandbox.commit_all("an index of 80 MB");
  const std::string before = gv::test::repository_state(sandbox);

  // The check reads, `index` and a purge would land a commit.
  for (const std::string_view args : {"check --worktree", "index", "distill --purge --all"}) {
    INFO("git vault " << args);
    // 200 MiB: room to start and read the vault, not to parse the index.
    const Result limited = sandbox.sh(
        fmt::format("ulimit -v 204800 || exit 77; exec {} {} </dev/null", program, args));
    REQUIRE(limited.code != 77);
    INFO(limited.err);
    CHECK(limited.code == 128);
    const std::string_view command = args.substr(0, args.find(' '));
    const std::vector<std::string> errors = error_lines(limited.err);
    REQUIRE(errors.size() == 1);
    CHECK_THAT(errors.front(),
               Catch::StartsWith(fmt::format(
                   "git-vault: error: out of memory while running git vault {}", command)));
    CHECK_THAT(limited.err, !Catch::Contains("terminate called"));
    CHECK(gv::test::repository_state(sandbox) == before);
    CHECK(gv::test::leftovers(sandbox).empty());
  }
}

// A full disk, made with strace: every write to one file fails with ENOSPC, as on a file system
// with no room left. Our own write (the copy of the git index a landing edits, which
// std::filesystem::copy_file reported as "Input/output error") and libgit2's (the new index it
// writes) both end the command with one line that names the full disk, and the landing is put
// back.
TEST_CASE("a full disk ends a landing with one line that says so, the repository unchanged",
          "[limits]") {
  Sandbox sandbox;
  if (sandbox.sh("command -v strace >/dev/null 2>&1").code != 0) {
    WARN("strace is not installed; skipped");
    return;
  }
  gv::test::write_kill_fixture(sandbox);
  const std::string before = gv::test::repository_state(sandbox);
  for (const char* file : {"index-before", "index.lock"}) {
    INFO("every write to .git/vault-tmp/" << file << " fails");
    // LeakSanitizer cannot run under ptrace and would end a sanitized build with exit 1.
    const Result full = sandbox.sh(
        fmt::format("ASAN_OPTIONS=\"${{ASAN_OPTIONS:+$ASAN_OPTIONS:}}detect_leaks=0\" "
                    "strace -f -qq -o /dev/null -P \"$(pwd -P)/.git/vault-tmp/{}\" -e trace=write "
                    "-e inject=write:error=ENOSPC git vault distill --purge --all </dev/null",
                    file));
    INFO(full.err);
    CHECK(full.code == 128);
    const std::vector<std::string> errors = error_lines(full.err);
    REQUIRE(errors.size() == 1);
    CHECK_THAT(errors.front(),
               Catch::StartsWith(
                   "git-vault: error: no space left on device while running git vault distill: "));
    CHECK_THAT(errors.front(), Catch::EndsWith("No space left on device"));
    CHECK(gv::test::repository_state(sandbox) == before);
    CHECK(gv::test::leftovers(sandbox).empty());
  }

  // With room again, the same run lands.
  const Result again = sandbox.vault({"distill", "--purge", "--all"});
  INFO(again.err);
  CHECK(again.code == 0);
  CHECK(gv::test::repository_state(sandbox) != before);
}

}  // namespace resource_limits_test
