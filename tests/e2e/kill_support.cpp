#include "tests/e2e/kill_support.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <catch2/catch.hpp>
#include <cstdio>
#include <cstdlib>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string_view>

#include "tests/e2e/refine_fixture.hpp"
#include "tests/e2e/vault_fixture.hpp"

namespace gv::test {
namespace {

constexpr const char* k_pair_primary =
    "---\ntitle: \"Retry policy\"\ncreated: 2026-03-01\ntags: [PATTERN]\ntopic: \"net/retry\"\n"
    "modified: 2026-03-01\nkeywords: [retry, backoff, jitter]\nsummary: \"How to retry\"\n"
    "retrieval_count: 3\nlast_retrieved: 2026-10-01\n---\n\n# Retry policy\n\n"
    "Retry with exponential backoff.\n\n## Connections\n- [[MEM-s]]\n";
constexpr const char* k_pair_secondary =
    "---\ntitle: \"Backoff\"\ncreated: 2026-01-15\ntags: [TECHNIQUE]\ntopic: \"net/backoff\"\n"
    "modified: 2026-01-15\nkeywords: [backoff, jitter, timeout]\nsummary: \"Backoff basics\"\n"
    "retrieval_count: 1\nlast_retrieved: 2026-11-01\n---\n\n# Backoff\n\n"
    "Add jitter to backoff.\n\n## Connections\n- [[MEM-r]]\n";
constexpr const char* k_working =
    "# Working Memory\n> Last updated: 2026-11-01\n\n## Critical Preferences\n"
    "- Dave prefers concise error messages and no unnecessary logging ^tr0000000001\n"
    "- Deploy target is AWS us-east-1 with fallback to us-west-2 ^tr0000000002\n"
    "- Short note ^tr0000000003\n"
    "- Another fact here ^tr0000000004\n";
constexpr const char* k_register =
    "# Tech Stack\n\n- Using Node 16 in production ^tr00000000aa\n- Using Postgres 15 "
    "^tr00000000bb\n";
constexpr const char* k_metadata = R"({
  "tr0000000001": {"created_at": "2026-01-01T00:00:00Z", "last_reviewed_at": "2026-10-16T12:00:00Z", "pinned": false, "snoozed_until": null, "status": "active", "tier": "working"},
  "tr0000000002": {"created_at": "2026-01-01T00:00:00Z", "last_reviewed_at": "2026-10-31T12:00:00Z", "pinned": false, "snoozed_until": null, "status": "active", "tier": "working"},
  "tr0000000003": {"created_at": "2026-01-01T00:00:00Z", "last_reviewed_at": "2026-11-30T12:00:00Z", "pinned": false, "snoozed_until": null, "status": "active", "tier": "working"},
  "tr0000000004": {"created_at": "2026-01-01T00:00:00Z", "last_reviewed_at": "2026-11-20T12:00:00Z", "pinned": false, "snoozed_until": null, "status": "active", "tier": "working"},
  "tr00000000aa": {"created_at": "2026-01-01T00:00:00Z", "last_reviewed_at": "2026-11-01T00:00:00Z", "pinned": false, "snoozed_until": null, "status": "superseded", "tier": "register"},
  "tr00000000bb": {"created_at": "2026-01-01T00:00:00Z", "last_reviewed_at": "2026-11-01T00:00:00Z", "pinned": false, "snoozed_until": null, "status": "active", "tier": "register"}
}
)";

constexpr const char* k_state_script =
    "git rev-parse HEAD; echo '-- index'; git ls-files -s; echo '-- files';"
    " find . -path ./.git -prune -o -type f -print | LC_ALL=C sort > .git/kill-files;"
    " git hash-object --stdin-paths < .git/kill-files | paste -d ' ' - .git/kill-files;"
    " echo '-- status'; git status --porcelain --untracked-files=all";

// For a command that draws random ids: every file as its sorted lines with the ids masked, so two
// runs that tagged the same entries compare equal.
constexpr const char* k_masked_state_script =
    "git rev-parse HEAD; echo '-- index'; git ls-files -s; echo '-- files';"
    " find . -path ./.git -prune -o -type f -print | LC_ALL=C sort | while IFS= read -r f; do"
    " printf '%s %s\\n' \"$(sed -E 's/tr[0-9a-f]{10}/trID/g' \"$f\" | LC_ALL=C sort |"
    " git hash-object --stdin)\" \"$f\"; done;"
    " echo '-- status'; git status --porcelain --untracked-files=all";

constexpr const char* k_leftovers_script =
    "for f in .git/vault-journal .git/vault-journal.new .git/vault-tmp .git/index.lock "
    ".git/vault.lock .git/HEAD.lock .git/refs/heads/main.lock; do [ -e \"$f\" ] && echo \"$f\";"
    " done;"
    " find . -path ./.git -prune -o -name '*vault-tmp*' -print;";

bool long_mode() {
  const char* value = std::getenv("GIT_VAULT_KILL_LONG");
  return value != nullptr && std::string_view(value) == "1";
}

// Up to `limit` points from 1..total, evenly spread, always the first and the last.
std::vector<int> spread(int total, int limit) {
  std::vector<int> points;
  if (total <= limit) {
    for (int i = 1; i <= total; ++i) {
      points.push_back(i);
    }
    return points;
  }
  for (int i = 0; i < limit; ++i) {
    const int point = 1 + static_cast<int>(static_cast<long>(i) * (total - 1) / (limit - 1));
    if (points.empty() || points.back() != point) {
      points.push_back(point);
    }
  }
  return points;
}

}  // namespace

std::vector<std::string> fault_point_names(const std::string& err) {
  std::vector<std::string> names;
  std::istringstream lines(err);
  std::string line;
  while (std::getline(lines, line)) {
    constexpr std::string_view k_prefix = "git-vault: fault ";
    if (!line.starts_with(k_prefix)) {
      continue;
    }
    const std::size_t space = line.find(' ', k_prefix.size());
    names.push_back(space == std::string::npos ? std::string{} : line.substr(space + 1));
  }
  return names;
}

std::vector<int> points_to_kill(const std::vector<std::string>& names, bool every) {
  const int total = static_cast<int>(names.size());
  std::vector<int> points = spread(total, every ? total : 24);
  // The windows where a kill once wedged the repository are killed in every run, whatever the
  // spread picks: git's lock on the branch, and the retrieval journal a fold consumes.
  for (int i = 0; i < total; ++i) {
    const std::string& name = names[static_cast<std::size_t>(i)];
    if (name == "ref-lock" || name.starts_with("fold")) {
      points.push_back(i + 1);
    }
  }
  std::sort(points.begin(), points.end());
  points.erase(std::unique(points.begin(), points.end()), points.end());
  return points;
}

namespace {

void record_figures(const std::string& name, int runs, int before, int after,
                    int recoveries_killed) {
  const char* file = std::getenv("GIT_VAULT_KILL_REPORT");
  if (file == nullptr) {
    return;
  }
  if (std::FILE* out = std::fopen(file, "a")) {
    std::fputs(fmt::format("{} runs={} before={} after={} recoveries_killed={}\n", name, runs,
                           before, after, recoveries_killed)
                   .c_str(),
               out);
    std::fclose(out);
  }
}

}  // namespace

void write_kill_fixture(Sandbox& sandbox) {
  sandbox.write(".memory/10-Memories/MEM-r.md", k_pair_primary);
  sandbox.write(".memory/10-Memories/MEM-s.md", k_pair_secondary);
  sandbox.write("CLAUDE.local.md", k_working);
  sandbox.write("memory/registers/tech-stack.md", k_register);
  sandbox.write("memory/.recall/metadata.json", k_metadata);
  sandbox.write(".memory/10-Memories/MEM-retry.md", k_refine_retry);  // Tier 1 refine fixes
  sandbox.write("src/app.c", "int main(void) { return 0; }\n");
  write_scored_vault(sandbox);  // regenerates the index files and commits everything
}

std::string repository_state(const Sandbox& sandbox, bool mask_ids) {
  const Result state = sandbox.sh(mask_ids ? k_masked_state_script : k_state_script);
  REQUIRE(state.code == 0);
  return state.out;
}

bool reflogs_agree(const Sandbox& sandbox) {
  const Result ids = sandbox.sh("git rev-parse HEAD main@{0} HEAD@{0}");
  INFO(ids.err);
  std::istringstream lines(ids.out);
  std::string head;
  std::string branch_log;
  std::string head_log;
  lines >> head >> branch_log >> head_log;
  INFO("HEAD " << head << ", main@{0} " << branch_log << ", HEAD@{0} " << head_log);
  return ids.code == 0 && head.size() == 40 && branch_log == head && head_log == head;
}

std::string fixture_retrievals() {
  std::string lines;
  for (const char* id : {"MEM-r", "MEM-s", "MEM-r", "MEM-s", "MEM-r"}) {
    lines += fmt::format("{{\"id\":\"{}\",\"date\":\"2026-11-20\",\"via\":\"show\"}}\n", id);
  }
  return lines;
}

std::map<std::string, std::int64_t> visible_retrievals(const Sandbox& sandbox) {
  const std::string session =
      R"({"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"test","version":"1"}}})"
      "\n"
      R"({"jsonrpc":"2.0","method":"notifications/initialized"})"
      "\n"
      R"({"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"list_memories","arguments":{"status":"all","limit":100}}})"
      "\n";
  const Result served = sandbox.vault({"mcp"}, session);
  INFO(served.err);
  REQUIRE(served.code == 0);
  std::map<std::string, std::int64_t> counts;
  std::istringstream lines(served.out);
  std::string line;
  while (std::getline(lines, line)) {
    const nlohmann::json message = nlohmann::json::parse(line);
    if (message.value("id", 0) != 2) {
      continue;
    }
    for (const nlohmann::json& memory : message["result"]["structuredContent"]["memories"]) {
      counts[memory["id"].get<std::string>()] = memory["retrieval_count"].get<std::int64_t>();
    }
  }
  REQUIRE_FALSE(counts.empty());
  return counts;
}

std::map<std::string, std::int64_t> frontmatter_retrievals(const Sandbox& sandbox) {
  const Result found = sandbox.sh(
      "for f in .memory/10-Memories/MEM-*.md; do id=$(basename \"$f\" .md);"
      " n=$(sed -n 's/^retrieval_count: //p' \"$f\" | head -1); echo \"$id ${n:-0}\"; done");
  REQUIRE(found.code == 0);
  std::map<std::string, std::int64_t> counts;
  std::istringstream lines(found.out);
  std::string id;
  std::int64_t count = 0;
  while (lines >> id >> count) {
    counts[id] = count;
  }
  return counts;
}

std::string leftovers(const Sandbox& sandbox) {
  return sandbox.sh(std::string(k_leftovers_script) + " true").out;
}

void run_kill_scenario(const KillScenario& scenario) {
  Sandbox sandbox;
  write_kill_fixture(sandbox);
  const std::string base = sandbox.git({"rev-parse", "HEAD"}).out.substr(0, 40);
  const auto reset = [&] {
    const Result restored = sandbox.sh(
        fmt::format("rm -rf .git/vault-journal .git/vault-tmp .git/index.lock .git/vault.lock &&"
                    " git reset -q --hard {} && git clean -qfdx",
                    base));
    REQUIRE(restored.code == 0);
    if (!scenario.prepare.empty()) {
      const Result prepared = sandbox.sh(scenario.prepare);
      INFO(prepared.err);
      REQUIRE(prepared.code == 0);
    }
  };
  const auto gate = [&] { return sandbox.vault({"check"}).code; };

  reset();
  const std::string before = repository_state(sandbox, scenario.random_ids);
  const int gate_before = gate();
  reset();
  sandbox.set_env("GIT_VAULT_FAULT", "count");
  const Result reference = sandbox.vault(scenario.args);
  sandbox.set_env("GIT_VAULT_FAULT", "");
  INFO(scenario.name << ": " << reference.err);
  REQUIRE(reference.code == 0);
  const std::string after = repository_state(sandbox, scenario.random_ids);
  REQUIRE(after != before);  // the command changes something, or the harness proves nothing
  const int gate_after = gate();
  const std::vector<std::string> names = fault_point_names(reference.err);
  const int total = static_cast<int>(names.size());
  REQUIRE(total > 0);

  const bool thorough = long_mode();
  const std::vector<int> points = points_to_kill(names, thorough);
  int landed_before = 0;
  int landed_after = 0;
  int recoveries_killed = 0;
  for (const int point : points) {
    INFO(scenario.name << ": killed at fault point " << point << " of " << total);
    reset();
    sandbox.set_env("GIT_VAULT_FAULT", std::to_string(point));
    const Result killed = sandbox.vault(scenario.args);
    INFO(killed.err);
    REQUIRE(killed.code == 128 + 9);
    CHECK(sandbox.sh("find . -path ./.git -prune -o -name '*vault-tmp*' -print").out.empty());
    // Every third recovery (each one in the long mode) is itself killed once.
    if (thorough || point % 3 == 0) {
      sandbox.set_env("GIT_VAULT_FAULT", "settle:1");
      const Result interrupted = sandbox.vault({"check"});
      if (interrupted.code == 128 + 9) {
        ++recoveries_killed;
      }
    }
    sandbox.set_env("GIT_VAULT_FAULT", "");
    const Result settled = sandbox.vault({"check"});
    INFO(settled.err);
    const std::string state = repository_state(sandbox, scenario.random_ids);
    const bool is_before = state == before;
    const bool is_after = state == after;
    if (!is_before && !is_after) {
      FAIL_CHECK("neither before nor after:\n"
                 << state << "\nbefore:\n"
                 << before << "\nafter:\n"
                 << after);
      continue;
    }
    (is_before ? landed_before : landed_after) += 1;
    CHECK(reflogs_agree(sandbox));
    CHECK(settled.code == (is_before ? gate_before : gate_after));
    CHECK(sandbox.sh(k_leftovers_script + std::string(" git fsck --no-dangling --no-progress 2>&1"))
              .out.empty());
    if (is_before) {
      const Result again = sandbox.vault(scenario.args);
      INFO(again.err);
      CHECK(again.code == 0);
      CHECK(repository_state(sandbox, scenario.random_ids) == after);
      CHECK(leftovers(sandbox).empty());
    }
    // The user's next ordinary commit keeps the vault as it is.
    const Result unrelated = sandbox.sh(
        "echo unrelated > unrelated.txt && git add unrelated.txt && git commit -qm unrelated &&"
        " git diff --name-only HEAD~1 HEAD");
    INFO(unrelated.err);
    CHECK(unrelated.out == "unrelated.txt\n");
  }
  record_figures(scenario.name, static_cast<int>(points.size()), landed_before, landed_after,
                 recoveries_killed);
}

}  // namespace gv::test
