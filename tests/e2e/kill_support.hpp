#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "tests/e2e/sandbox.hpp"

namespace gv::test {

// The vault every kill and lock test starts from, committed: the five scored memories, a merge
// pair (MEM-r, MEM-s), and working memory with a register and recall metadata.
void write_kill_fixture(Sandbox& sandbox);

// Everything "before" and "after" compare: HEAD, the index (`git ls-files -s`), every work tree
// file with its hash, and `git status`. `mask_ids` compares files by their sorted lines with
// recall ids masked, for commands that draw random ids.
[[nodiscard]] std::string repository_state(const Sandbox& sandbox, bool mask_ids = false);

// Files and locks git-vault must never leave behind once a run has been settled.
[[nodiscard]] std::string leftovers(const Sandbox& sandbox);

// True when the newest entries of the branch's and HEAD's reflogs both name HEAD: a landing that
// was undone left no line for a commit the branch never reached.
[[nodiscard]] bool reflogs_agree(const Sandbox& sandbox);

// The names of the fault points a `GIT_VAULT_FAULT=count` run passed, from its stderr, in order.
[[nodiscard]] std::vector<std::string> fault_point_names(const std::string& err);

// The points (1-based) a kill harness run kills at: spread over at most 24 (all with `every`),
// plus every `ref-lock` and `fold…` point.
[[nodiscard]] std::vector<int> points_to_kill(const std::vector<std::string>& names, bool every);

// Retrievals recorded for the kill fixture's memories before a fold: MEM-r three times, MEM-s
// twice, as `.git/git-vault/retrievals.jsonl` holds them.
[[nodiscard]] std::string fixture_retrievals();
// Each memory's retrieval count as an agent sees it (frontmatter plus the journal's records not
// yet folded), from the MCP server's list_memories.
[[nodiscard]] std::map<std::string, std::int64_t> visible_retrievals(const Sandbox& sandbox);
// Each memory's `retrieval_count` as its file in the work tree says (absent: 0).
[[nodiscard]] std::map<std::string, std::int64_t> frontmatter_retrievals(const Sandbox& sandbox);

struct KillScenario {
  std::string name;
  std::string prepare;  // shell run before each attempt (after the reset to the fixture)
  std::vector<std::string> args;
  bool random_ids = false;  // the command draws random recall ids (see repository_state)
};

// Kills `scenario` at its fault points (see kill_test.cpp) and checks each outcome.
void run_kill_scenario(const KillScenario& scenario);

}  // namespace gv::test
