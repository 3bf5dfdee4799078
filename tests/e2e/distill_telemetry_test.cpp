#include <fmt/format.h>

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "tests/e2e/sandbox.hpp"

namespace distill_telemetry_test {

using gv::test::Sandbox;
using nlohmann::json;

namespace {

std::string memory(std::string_view title, std::string_view keywords, std::string_view source) {
  return fmt::format(
      "---\ntitle: \"{}\"\ncreated: 2026-10-01\ntags: [PATTERN]\ntopic: \"tests\"\n"
      "source: \"{}\"\nmodified: 2026-10-01\nkeywords: [{}]\nsummary: \"{}\"\n"
      "retrieval_count: 1\nlast_retrieved: 2026-11-01\n---\n\n# {}\n\nThe old guidance.\n\n"
      "## Connections\n",
      title, source, keywords, title, title);
}

// Two memories: MEM-retry came from task 259, MEM-cache from user input.
void write_vault(Sandbox& sandbox) {
  sandbox.write(".memory/10-Memories/MEM-retry.md",
                memory("Retry hooks twice", "retry, hooks", "specs/259_retry_hooks/summary.md"));
  sandbox.write(".memory/10-Memories/MEM-cache.md",
                memory("Cache invalidation", "cache, invalidation", "user input"));
  REQUIRE(sandbox.vault({"index"}).code == 0);
  sandbox.commit_all("vault");
}

std::string event(std::string_view id, std::string_view session, std::string_view message,
                  std::string_view extra = R"(,"task":259,"checkpoint":"phase_2")",
                  std::string_view category = "deviation") {
  return fmt::format(
      R"({{"event_id":"{}","event_type":"{}","category":"{}","timestamp":"2026-11-2{}T10:00:00Z",)"
      R"("session_id":"{}","message":"{}"{}}})"
      "\n",
      id, category, category, id.back(), session, message, extra);
}

// `sessions` deviations of task 259 at phase_2, one per session name.
std::string strikes(const std::vector<std::string>& sessions) {
  std::string out;
  for (std::size_t i = 0; i < sessions.size(); ++i) {
    out += event(fmt::format("evt_{}", i + 1), sessions[i], "Skipped the retry step");
  }
  return out;
}

std::string head(const Sandbox& sandbox) { return sandbox.git({"rev-parse", "HEAD"}).out; }

std::string prompt(std::string_view display, std::string_view project, std::string_view session,
                   long long ms) {
  return fmt::format(R"({{"display":"{}","timestamp":{},"project":"{}","sessionId":"{}"}})"
                     "\n",
                     display, ms, project, session);
}

}  // namespace

TEST_CASE("revise contradicts a memory on three strikes and updates it as one commit",
          "[telemetry][revise]") {
  Sandbox sandbox;
  write_vault(sandbox);
  sandbox.write("specs/events.jsonl", strikes({"sess_1_a", "sess_2_b", "sess_3_c"}));
  sandbox.commit_all("events");

  const auto dry = sandbox.vault({"distill", "--revise", "--dry-run", "--json"});
  INFO(dry.err);
  REQUIRE(dry.code == 0);
  const json plan = json::parse(dry.out);
  CHECK(plan["classification"]["contradicted"] == 1);
  REQUIRE(plan["candidates"].size() == 2);
  CHECK(plan["candidates"][0]["key"] == "MEM-retry");
  CHECK(plan["candidates"][0]["rule"] == "three-strikes");
  CHECK(plan["candidates"][0]["evidence_event_ids"] == json({"evt_1", "evt_2", "evt_3"}));
  CHECK(plan["candidates"][1]["key"] == "MEM-retry:tombstone");
  const auto text = sandbox.vault({"distill", "--revise", "--dry-run"});
  CHECK_THAT(text.out, Catch::Contains("Contradicted: 1 memories"));
  CHECK_THAT(text.out, Catch::Contains("OTel not enabled for this session"));
  CHECK_THAT(text.out, Catch::Contains("No changes made."));

  const auto none = sandbox.vault({"distill", "--revise"});
  CHECK(none.code == 1);
  CHECK_THAT(none.err, Catch::Contains("needs a selection"));

  const auto run = sandbox.vault({"distill", "--revise", "--select", "MEM-retry", "--json"});
  INFO(run.err);
  REQUIRE(run.code == 0);
  const std::string memory_text = sandbox.read(".memory/10-Memories/MEM-retry.md");
  CHECK_THAT(memory_text, Catch::Contains("Revised 2026-11-30 from recorded events"));
  CHECK_THAT(memory_text,
             Catch::Contains("- \"Skipped the retry step\" (3 times: evt_1, evt_2, evt_3)\n\n"
                             "## History\n\n### Previous Version (2026-10-01)\n\n"
                             "The old guidance.\n"));
  CHECK_THAT(memory_text, Catch::Contains("modified: 2026-11-30"));
  const json log = json::parse(sandbox.read(".memory/revise-log.json"));
  REQUIRE(log["operations"].size() == 1);
  CHECK(log["operations"][0]["classification"]["contradicted"] == 1);
  CHECK(log["operations"][0]["otel_joins"]["otel_enabled"] == false);
  CHECK(log["operations"][0]["affected_memories"][0]["action"] == "updated");
  CHECK(log["summary"]["total_revised"] == 1);
  const json state = json::parse(sandbox.read("specs/state.json"));
  CHECK(state["memory_health"]["last_revise"] == "2026-11-30T12:00:00Z");
  CHECK(state["memory_health"]["revise_count"] == 1);
  CHECK(state["memory_health"]["distill_count"] == 1);
  const std::string message = sandbox.git({"log", "-1", "--format=%B"}).out;
  CHECK_THAT(message, Catch::StartsWith("vault(revise): update 1, tombstone 0, create 0"));
  CHECK_THAT(message, Catch::Contains("Vault-Action: revise"));
  CHECK(sandbox.git({"status", "--porcelain"}).out.empty());
  CHECK(sandbox.vault({"check"}).code == 0);

  // The cursor: a second run sees only events after last_revise.
  const auto again = sandbox.vault({"distill", "--revise", "--dry-run"});
  CHECK(again.out ==
        "No new events in specs/events.jsonl since the last revise, 2026-11-30T12:00:00Z: the 3 "
        "events it holds are all from before it, and only later ones count.\nRun `git vault "
        "distill` for the scores, or --purge/--merge/--compress to act on them.\nTo revise over "
        "them again, revert that revise run (`git vault log` lists it).\n");

  const auto revert = sandbox.vault({"revert", json::parse(run.out)["log_id"]});
  INFO(revert.err);
  REQUIRE(revert.code == 0);
  CHECK_THAT(sandbox.read(".memory/10-Memories/MEM-retry.md"),
             !Catch::Contains("Revised 2026-11-30"));
  CHECK_FALSE(sandbox.exists(".memory/revise-log.json"));
  // The cursor goes back with the run, so the same events are offered again.
  CHECK_THAT(revert.out, Catch::Contains("The revise cursor is back to before any run: `git vault "
                                         "distill --revise` offers what that run saw again."));
  const json reverted = json::parse(sandbox.read("specs/state.json"));
  CHECK_FALSE(reverted["memory_health"].contains("last_revise"));
  CHECK_FALSE(reverted["memory_health"].contains("revise_count"));
  const auto offered = sandbox.vault({"distill", "--revise", "--dry-run"});
  CHECK_THAT(offered.out, Catch::Contains("Contradicted: 1 memories"));
  CHECK(sandbox.vault({"check"}).code == 0);
}

TEST_CASE("revise tombstones as revise_superseded when asked", "[telemetry][revise]") {
  Sandbox sandbox;
  write_vault(sandbox);
  sandbox.write("specs/events.jsonl", strikes({"a", "b", "c"}));
  const auto run =
      sandbox.vault({"distill", "--revise", "--select", "MEM-retry:tombstone", "--allow-dirty"});
  INFO(run.err);
  REQUIRE(run.code == 0);
  const std::string text = sandbox.read(".memory/10-Memories/MEM-retry.md");
  CHECK_THAT(text, Catch::Contains("status: tombstoned\n"));
  CHECK_THAT(text, Catch::Contains("tombstone_reason: \"revise_superseded\"\n"));
}

TEST_CASE("revise: two strikes or repeats in one session change no memory, and are logged",
          "[telemetry][revise]") {
  for (const std::vector<std::string>& sessions :
       {std::vector<std::string>{"a", "b"}, std::vector<std::string>{"a", "a", "a"}}) {
    Sandbox sandbox;
    write_vault(sandbox);
    sandbox.write("specs/events.jsonl", strikes(sessions));
    sandbox.commit_all("events");
    const std::string memory_before = sandbox.read(".memory/10-Memories/MEM-retry.md");
    // The dry run has the frame every dry run has.
    const auto dry = sandbox.vault({"distill", "--revise", "--dry-run"});
    INFO(dry.err);
    CHECK_THAT(dry.out, Catch::Contains("[DRY RUN] Revise classification") &&
                            Catch::Contains("Corroborated: 1 memories (no action)") &&
                            Catch::EndsWith("No changes made.\n"));
    // Without a selection: corroborated needs none, and the run is recorded.
    const auto run = sandbox.vault({"distill", "--revise"});
    INFO(run.err);
    CHECK(run.code == 0);
    CHECK_THAT(run.out, Catch::Contains("1 corroborated, 0 contradicted"));
    CHECK_THAT(run.out, Catch::Contains("below-three-strikes"));
    CHECK(sandbox.read(".memory/10-Memories/MEM-retry.md") == memory_before);
    CHECK_THAT(sandbox.git({"log", "-1", "--format=%s"}).out,
               Catch::StartsWith("vault(revise): 1 corroborated, no memory changed"));
    const json log = json::parse(sandbox.read(".memory/revise-log.json"));
    CHECK(log["operations"][0]["classification"]["corroborated"] == 1);
    CHECK(log["operations"][0]["affected_memories"][0]["action"] == "none");
    const json state = json::parse(sandbox.read("specs/state.json"));
    CHECK(state["memory_health"]["revise_count"] == 1);
    CHECK(state["memory_health"]["distill_count"] == 0);
    CHECK(sandbox.vault({"check"}).code == 0);
  }
}

TEST_CASE("revise: an event id written twice counts once, so it cannot make a strike",
          "[telemetry][revise]") {
  Sandbox sandbox;
  write_vault(sandbox);
  // evt_2 appended twice, the second time under another session: still two sessions.
  sandbox.write("specs/events.jsonl", event("evt_1", "sess_1_a", "Skipped the retry step") +
                                          event("evt_2", "sess_2_b", "Skipped the retry step") +
                                          event("evt_2", "sess_3_c", "Skipped the retry step"));
  sandbox.commit_all("events");
  const json plan = json::parse(sandbox.vault({"distill", "--revise", "--dry-run", "--json"}).out);
  CHECK(plan["events_ingested"]["total_events"] == 2);
  CHECK(plan["classification"]["contradicted"] == 0);
  CHECK(plan["classification"]["corroborated"] == 1);
  CHECK(plan["memories"][0]["evidence_event_ids"] == json({"evt_1", "evt_2"}));
}

TEST_CASE("revise and learn keep the source of a memory they update", "[telemetry][revise]") {
  Sandbox sandbox;
  write_vault(sandbox);
  sandbox.write("specs/events.jsonl", strikes({"sess_1_a", "sess_2_b", "sess_3_c"}));
  sandbox.commit_all("events");
  REQUIRE(sandbox.vault({"distill", "--revise", "--select", "MEM-retry"}).code == 0);
  const std::string revised = sandbox.read(".memory/10-Memories/MEM-retry.md");
  CHECK_THAT(revised, Catch::Contains("source: \"specs/259_retry_hooks/summary.md\""));
  CHECK_THAT(revised, Catch::Contains("Revised 2026-11-30 from recorded events"));
  // Later events of task 259 still find the memory through its source.
  sandbox.set_env("GIT_VAULT_NOW", "2026-11-30T13:00:00Z");
  sandbox.write("specs/events.jsonl",
                sandbox.read("specs/events.jsonl") +
                    R"({"event_id":"evt_9","event_type":"deviation","category":"deviation",)"
                    R"("timestamp":"2026-11-30T12:30:00Z","session_id":"sess_9_z",)"
                    R"("message":"Skipped it once more","task":259,"checkpoint":"phase_2"})"
                    "\n");
  sandbox.commit_all("more events");
  const json plan = json::parse(sandbox.vault({"distill", "--revise", "--dry-run", "--json"}).out);
  REQUIRE(plan["memories"].size() == 1);
  CHECK(plan["memories"][0]["id"] == "MEM-retry");
  CHECK(plan["gaps"].empty());
}

TEST_CASE("revise over 200,000 events prints bounded lines and writes a bounded memory",
          "[telemetry][revise]") {
  Sandbox sandbox;
  write_vault(sandbox);
  std::string store;
  store.reserve(200000 * 180);
  for (int i = 0; i < 200000; ++i) {
    // Half tied to task 259 (MEM-retry), half at a checkpoint no memory covers (a gap).
    const bool task = i % 2 == 0;
    store += fmt::format(
        R"({{"event_id":"evt_{}","event_type":"deviation","category":"deviation",)"
        R"("timestamp":"2026-11-20T10:00:00Z","session_id":"sess_{}_a","message":"{}"{}}})"
        "\n",
        i, i % 97,
        task ? fmt::format("Skipped the retry step, attempt {}", i % 7)
             : fmt::format("Lockfile drift broke the nightly build on runner {}", i % 5),
        task ? R"(,"task":259,"checkpoint":"phase_2")" : R"(,"checkpoint":"verification")");
  }
  sandbox.write("specs/events.jsonl", store);
  sandbox.git({"add", "-A"});
  sandbox.git({"commit", "-q", "-m", "events"});
  const auto dry = sandbox.vault({"distill", "--revise", "--dry-run", "--limit", "20"});
  INFO(dry.err);
  REQUIRE(dry.code == 0);
  std::size_t longest = 0;
  std::size_t at = 0;
  while (at < dry.out.size()) {
    const std::size_t end = std::min(dry.out.find('\n', at), dry.out.size());
    longest = std::max(longest, end - at);
    at = end + 1;
  }
  CHECK(longest < 800);
  CHECK(dry.out.size() < 20000);
  CHECK_THAT(dry.out, Catch::Contains(" and 99995 more"));

  const auto run = sandbox.vault({"distill", "--revise", "--all", "--json"});
  INFO(run.err);
  REQUIRE(run.code == 0);
  // Every memory written is a digest far below the size compress rewrites (900 tokens).
  const json index = json::parse(sandbox.read(".memory/memory-index.json"));
  std::size_t written = 0;
  for (const json& entry : index["entries"]) {
    if (entry["id"] != "MEM-cache") {
      ++written;
      INFO(entry["id"]);
      CHECK(entry["token_count"].get<int>() < 900);
    }
  }
  CHECK(written == 2);  // MEM-retry updated, one memory for the gap
  CHECK_THAT(sandbox.read(".memory/10-Memories/MEM-retry.md"),
             Catch::Contains("(100000 in all; every id is in .memory/revise-log.json)"));
}

TEST_CASE("meta accepts --local, which names the repository it reads anyway", "[telemetry][meta]") {
  Sandbox sandbox;
  write_vault(sandbox);
  sandbox.write("specs/events.jsonl", strikes({"a", "b", "c"}));
  sandbox.commit_all("events");
  const auto local = sandbox.vault({"distill", "--meta", "--local", "--dry-run"});
  INFO(local.err);
  CHECK(local.code == 0);
  CHECK(local.out == sandbox.vault({"distill", "--meta", "--dry-run"}).out);
  const auto elsewhere = sandbox.vault({"distill", "--revise", "--local", "--dry-run"});
  CHECK(elsewhere.code == 129);
  CHECK_THAT(elsewhere.err, Catch::Contains("--local goes with --meta"));
}

TEST_CASE("revise without events takes the degraded path", "[telemetry][revise]") {
  Sandbox sandbox;
  write_vault(sandbox);
  const auto run = sandbox.vault({"distill", "--revise", "--dry-run"});
  CHECK(run.code == 0);
  CHECK_THAT(run.out, Catch::Contains("No events captured yet in specs/events.jsonl -- revise "
                                      "proceeds using vault scoring alone"));
}

TEST_CASE("revise offers a gap no memory covers as a new memory, with malformed lines skipped",
          "[telemetry][revise]") {
  Sandbox sandbox;
  write_vault(sandbox);
  std::string events = "{broken\n";
  for (int i = 1; i <= 3; ++i) {
    events += event(fmt::format("gap_{}", i), fmt::format("s{}", i),
                    "Lockfile drift broke the nightly build", R"(,"checkpoint":"verification")");
  }
  events += R"({"event_id":"cut","event_ty)";
  sandbox.write("specs/events.jsonl", events);
  const auto dry = sandbox.vault({"distill", "--revise", "--dry-run", "--json"});
  INFO(dry.err);
  REQUIRE(dry.code == 0);
  CHECK_THAT(dry.err, Catch::Contains("specs/events.jsonl:1: not valid JSON; line skipped"));
  CHECK_THAT(dry.err,
             Catch::Contains("specs/events.jsonl:5: not valid JSON (truncated last line)"));
  const json plan = json::parse(dry.out);
  REQUIRE(plan["candidates"].size() == 1);
  CHECK(plan["candidates"][0]["key"] == "gap-verification-deviation");
  CHECK(plan["candidates"][0]["rule"] == "three-strikes-uncovered");

  const auto run = sandbox.vault({"distill", "--revise", "--all", "--allow-dirty", "--json"});
  INFO(run.err);
  REQUIRE(run.code == 0);
  const json log = json::parse(sandbox.read(".memory/revise-log.json"));
  const std::string id = log["operations"][0]["affected_memories"][0]["id"];
  CHECK(log["operations"][0]["affected_memories"][0]["action"] == "created");
  // Named as the vault names its memories, titled in whole words, written as guidance.
  CHECK(id == "MEM-lockfile-drift-broke-nightly");
  const std::string created = sandbox.read(".memory/10-Memories/" + id + ".md");
  CHECK_THAT(created, Catch::Contains("title: \"Lockfile drift broke the nightly build\""));
  CHECK_THAT(created, Catch::Contains("topic: \"tests\""));
  CHECK_THAT(created, Catch::Contains("This keeps happening at checkpoint `verification`"));
  CHECK_THAT(created,
             Catch::Contains("- \"Lockfile drift broke the nightly build\" (3 times: gap_1, gap_2, "
                             "gap_3)"));
  CHECK(sandbox.vault({"check"}).code == 0);
}

TEST_CASE("meta proposes from recurring deviations and notes the selected ones",
          "[telemetry][meta]") {
  Sandbox sandbox;
  write_vault(sandbox);
  const std::string state_before = "{\n  \"other\": 1\n}\n";
  sandbox.write("specs/state.json", state_before);
  sandbox.write("specs/events.jsonl", strikes({"a", "b", "c"}));
  sandbox.commit_all("events");
  const auto dry = sandbox.vault({"distill", "--meta", "--dry-run"});
  INFO(dry.err);
  REQUIRE(dry.code == 0);
  CHECK_THAT(dry.out, Catch::Contains("[DRY RUN] Improvement proposal candidates (1):"));
  CHECK_THAT(dry.out, Catch::Contains("evidence: evt_1, evt_2, evt_3"));
  CHECK_THAT(dry.out, Catch::Contains("[rule three-strikes-at-checkpoint]"));
  CHECK_THAT(dry.out, Catch::Contains("this repository's specs/events.jsonl only"));

  const auto run = sandbox.vault({"distill", "--meta", "--all"});
  INFO(run.err);
  REQUIRE(run.code == 0);
  CHECK_THAT(run.out, Catch::Contains("## Improvement proposals noted"));
  const json log = json::parse(sandbox.read(".memory/meta-log.json"));
  CHECK(log["operations"][0]["proposals"]["noted_only"] == 1);
  CHECK(log["operations"][0]["proposals"]["created_as_task"] == 0);
  CHECK(sandbox.read("specs/state.json") == state_before);  // D8: meta touches nothing there
  CHECK_THAT(sandbox.git({"log", "-1", "--format=%B"}).out, Catch::Contains("Vault-Action: meta"));
}

TEST_CASE("meta without any signal says so", "[telemetry][meta]") {
  Sandbox sandbox;
  write_vault(sandbox);
  const auto run = sandbox.vault({"distill", "--meta"});
  CHECK(run.code == 0);
  CHECK_THAT(run.out, Catch::Contains("No agent-system improvement signal found"));
}

TEST_CASE("review answers with a citation for every record and writes nothing",
          "[telemetry][review]") {
  Sandbox sandbox;
  write_vault(sandbox);
  sandbox.write("specs/events.jsonl", strikes({"a"}) + event("evt_9", "b", "Cache warmed"));
  sandbox.write(".home/.claude/history.jsonl",
                prompt("why does retry fail", sandbox.root().string(), "s1", 1764000000000) +
                    prompt("retry elsewhere", "/other/repo", "s2", 1764000000000));
  sandbox.commit_all("events");
  const std::string before = head(sandbox);
  const auto run = sandbox.vault({"distill", "--review", "Why is the retry step skipped?"});
  INFO(run.err);
  REQUIRE(run.code == 0);
  CHECK_THAT(run.out, Catch::Contains("[Vault / memory] MEM-retry: Retry hooks twice"));
  CHECK_THAT(run.out, Catch::Contains("[Tier 2 / events.jsonl] evt_1: Skipped the retry step"));
  CHECK_THAT(run.out, Catch::Contains("[Tier 3 / history.jsonl] 2025-11-24T16:00:00Z: \"why does "
                                      "retry fail\""));
  CHECK_THAT(run.out, !Catch::Contains("retry elsewhere"));
  CHECK_THAT(run.out, Catch::Contains("OTel not enabled for this session/repo"));
  CHECK(head(sandbox) == before);
  CHECK(sandbox.git({"status", "--porcelain"}).out.empty());

  const json doc = json::parse(sandbox.vault({"distill", "--review", "retry", "--json"}).out);
  CHECK(doc["schema"] == 1);
  CHECK(doc["sub_mode"] == "review");
  CHECK(doc["evidence"][0]["tier"] == "Vault / memory");
}

TEST_CASE("review without a store or history gives the degraded messages", "[telemetry][review]") {
  Sandbox sandbox;
  write_vault(sandbox);
  const auto run = sandbox.vault({"distill", "--review", "anything about caches"});
  REQUIRE(run.code == 0);
  CHECK_THAT(run.out,
             Catch::Contains("No events captured yet in specs/events.jsonl for this query."));
  CHECK_THAT(run.out, Catch::Contains("history.jsonl not found or empty for this repo/session."));
  const auto empty = sandbox.vault({"distill", "--review", " "});
  CHECK(empty.code == 129);
  CHECK_THAT(empty.err, Catch::Contains("Usage: git vault distill --review \"<question>\""));
}

TEST_CASE("learn harvests archived candidates and marks them harvested", "[telemetry][learn]") {
  Sandbox sandbox;
  write_vault(sandbox);
  sandbox.write("specs/archive/state.json", R"({
  "completed_projects": [
    {
      "project_number": 259,
      "project_name": "retry_hooks",
      "archived_at": "2026-11-25T00:00:00Z",
      "memory_candidates": [
        {"content": "Hooks should retry with backoff", "category": "PATTERN",
         "source_artifact": "summary.md", "confidence": 0.9,
         "suggested_keywords": ["retry", "hooks"]},
        {"content": "Profiling the parser needs a warm cache", "category": "TECHNIQUE",
         "source_artifact": "report.md", "confidence": 0.8,
         "suggested_keywords": ["parser", "profiling"]}
      ]
    }
  ]
}
)");
  sandbox.write("specs/archive/259_retry_hooks/summaries/01.md", "# Summary\n");
  sandbox.commit_all("archive");
  const auto dry = sandbox.vault({"distill", "--learn", "--dry-run", "--json"});
  INFO(dry.err);
  REQUIRE(dry.code == 0);
  const json plan = json::parse(dry.out);
  REQUIRE(plan["candidates"].size() == 2);
  CHECK(plan["candidates"][0]["operation"] == "UPDATE");
  CHECK(plan["candidates"][0]["target"] == "MEM-retry");
  CHECK(plan["candidates"][1]["operation"] == "CREATE");
  CHECK(plan["candidates"][1]["rule"] == "overlap<30%:create");

  const auto run = sandbox.vault({"distill", "--learn", "--select", "T259-2"});
  INFO(run.err);
  REQUIRE(run.code == 0);
  CHECK(sandbox.exists(".memory/10-Memories/MEM-profiling-parser-needs-warm.md"));
  const json archive = json::parse(sandbox.read("specs/archive/state.json"));
  const json& candidates = archive["completed_projects"][0]["memory_candidates"];
  CHECK(candidates[1]["harvested_as"] == "MEM-profiling-parser-needs-warm");
  CHECK(candidates[1]["harvested_at"] == "2026-11-30T12:00:00Z");
  CHECK_FALSE(candidates[0].contains("harvested_at"));
  const json log = json::parse(sandbox.read(".memory/learn-harvest-log.json"));
  CHECK(log["summary"]["total_memories_created"] == 1);
  CHECK(sandbox.vault({"check"}).code == 0);

  const json after = json::parse(sandbox.vault({"distill", "--learn", "--dry-run", "--json"}).out);
  REQUIRE(after["candidates"].size() == 1);
  CHECK(after["candidates"][0]["key"] == "T259-1");
  REQUIRE(sandbox.vault({"distill", "--learn", "--all"}).code == 0);
  CHECK_THAT(sandbox.read(".memory/10-Memories/MEM-retry.md"),
             Catch::Contains("Hooks should retry with backoff"));
  CHECK_THAT(sandbox.vault({"distill", "--learn"}).out,
             Catch::Contains("No archived tasks with unharvested memory candidates found."));
}

TEST_CASE("learn refuses an archive record with uncommitted changes, so a revert cannot lose it",
          "[telemetry][learn][revert]") {
  Sandbox sandbox;
  write_vault(sandbox);
  const std::string record = R"({"completed_projects": [{"project_number": 7,
  "project_name": "x", "memory_candidates": [
    {"content": "Profiling the parser needs a warm cache", "category": "TECHNIQUE",
     "suggested_keywords": ["parser", "profiling"]},
    {"content": "Nextcord needs python312 on nixos", "category": "CONFIG",
     "suggested_keywords": ["nextcord", "nixos"]}]}]}
)";
  sandbox.write("specs/archive/state.json", record);  // never committed
  const std::string head = sandbox.git({"rev-parse", "HEAD"}).out;
  const auto refused = sandbox.vault({"distill", "--learn", "--select", "T7-1"});
  CHECK(refused.code == 128);
  CHECK_THAT(refused.err,
             Catch::Contains("uncommitted changes in specs/archive/state.json, which this action "
                             "rewrites: commit it first") &&
                 Catch::Contains("--allow-dirty"));
  CHECK(sandbox.git({"rev-parse", "HEAD"}).out == head);
  CHECK(sandbox.read("specs/archive/state.json") == record);
  CHECK_FALSE(sandbox.exists(".memory/10-Memories/MEM-profiling-parser-needs-warm.md"));

  // Committed first, the harvest is one commit of the marks, and its revert gives the record
  // back as it was, the candidate not chosen included.
  sandbox.commit_all("archive");
  REQUIRE(sandbox.vault({"distill", "--learn", "--select", "T7-1"}).code == 0);
  CHECK(sandbox.read("specs/archive/state.json") != record);
  const auto reverted = sandbox.vault({"revert", "HEAD"});
  INFO(reverted.err);
  REQUIRE(reverted.code == 0);
  CHECK(sandbox.read("specs/archive/state.json") == record);
}

TEST_CASE("dream surfaces themes of three distinct sessions and keeps its cursor",
          "[telemetry][dream]") {
  Sandbox sandbox;
  write_vault(sandbox);
  // A repository that keeps specs/state.json: dream counts its runs there too (D8).
  sandbox.write("specs/state.json", "{}\n");
  sandbox.commit_all("state");
  const std::string root = sandbox.root().string();
  sandbox.write("history.jsonl",
                prompt("speed up the parser benchmark", root, "s1", 1764000000000) +
                    prompt("parser benchmark regressed again", root, "s2", 1764100000000) +
                    prompt("profile the parser benchmark", root, "s3", 1764200000000) +
                    prompt("deploy the website", root, "s4", 1764200000000) +
                    prompt("deploy the website", root, "s4", 1764300000000) +
                    prompt("deploy the website", root, "s4", 1764400000000) +
                    prompt("parser benchmark", "/some/other/repo", "x1", 1764000000000) +
                    "not json\n");
  sandbox.write(".git/info/exclude", ".home/\nhistory.jsonl\n");
  const std::string history = (sandbox.root() / "history.jsonl").string();
  const auto dry = sandbox.vault({"distill", "--dream", "--dry-run", "--history", history});
  INFO(dry.err);
  REQUIRE(dry.code == 0);
  CHECK_THAT(dry.out, Catch::Contains("[DRY RUN] --dream: 1 recurring theme with"));
  CHECK_THAT(dry.out, Catch::Contains("seen 3 times across 3 session(s)"));
  CHECK_THAT(dry.out, !Catch::Contains("deploy"));
  CHECK_THAT(dry.out, Catch::Contains("prompts (history.jsonl): 2025-11-26T23:33:20Z, "
                                      "2025-11-25T19:46:40Z, 2025-11-24T16:00:00Z"));
  CHECK_THAT(dry.err, Catch::Contains("history.jsonl:8: not valid JSON; line skipped"));

  sandbox.git({"config", "vault.history", history});
  const auto run = sandbox.vault({"distill", "--dream"});
  INFO(run.err);
  REQUIRE(run.code == 0);
  CHECK_THAT(run.out, Catch::Contains("recurring interest, no existing memory or task found."));
  CHECK_THAT(run.out, Catch::Contains("Sample prompts: \"profile the parser benchmark\""));
  const json state = json::parse(sandbox.read("specs/state.json"));
  CHECK(state["memory_health"]["last_dream"] == "2026-11-30T12:00:00Z");
  CHECK(state["memory_health"]["dream_count"] == 1);
  CHECK(state["memory_health"]["distill_count"] == 0);
  const json log = json::parse(sandbox.read(".memory/dream-log.json"));
  CHECK(log["operations"][0]["themes_surfaced"] == 1);
  CHECK(log["operations"][0]["prompts_scanned"] == 6);

  const auto again = sandbox.vault({"distill", "--dream", "--dry-run"});
  CHECK_THAT(again.out, Catch::Contains("No new prompts for this repo in history.jsonl since "
                                        "2026-11-30T12:00:00Z"));

  // A second run over a newer prompt; reverting it puts the cursor back to the first run's.
  sandbox.write("history.jsonl", sandbox.read("history.jsonl") + prompt("tune the parser benchmark",
                                                                        root, "s5", 1796043600000));
  sandbox.set_env("GIT_VAULT_NOW", "2026-11-30T13:00:00Z");
  const auto second = sandbox.vault({"distill", "--dream"});
  INFO(second.err);
  REQUIRE(second.code == 0);
  const auto undo_second = sandbox.vault({"revert", "HEAD"});
  INFO(undo_second.err);
  REQUIRE(undo_second.code == 0);
  CHECK_THAT(undo_second.out, Catch::Contains("The dream cursor is back at 2026-11-30T12:00:00Z"));
  const json back = json::parse(sandbox.read("specs/state.json"));
  CHECK(back["memory_health"]["last_dream"] == "2026-11-30T12:00:00Z");
  CHECK(back["memory_health"]["dream_count"] == 1);

  // Run again, then force a revert of the first run: the cursor the later run moved stays, and
  // the output says why.
  sandbox.set_env("GIT_VAULT_NOW", "2026-11-30T14:00:00Z");
  REQUIRE(sandbox.vault({"distill", "--dream"}).code == 0);
  const auto forced = sandbox.vault({"revert", "HEAD~3", "--force"});
  INFO(forced.err);
  REQUIRE(forced.code == 0);
  CHECK_THAT(forced.out,
             Catch::Contains("The dream cursor stays where a later dream run moved it"));
  const json kept = json::parse(sandbox.read("specs/state.json"));
  CHECK(kept["memory_health"]["last_dream"] == "2026-11-30T14:00:00Z");
  CHECK(kept["memory_health"]["dream_count"] == 2);
}

TEST_CASE("dream over a history of another repository only has nothing to dream over",
          "[telemetry][dream]") {
  Sandbox sandbox;
  write_vault(sandbox);
  sandbox.write(".home/.claude/history.jsonl",
                prompt("parser benchmark", "/some/other/repo", "a", 1) +
                    prompt("parser benchmark", "/some/other/repo", "b", 2) +
                    prompt("parser benchmark", "/some/other/repo", "c", 3));
  const auto run = sandbox.vault({"distill", "--dream"});
  CHECK(run.code == 0);
  CHECK_THAT(run.out, Catch::Contains("No prompt history found for this repo in history.jsonl. "
                                      "Nothing to dream over yet."));
  CHECK_FALSE(sandbox.exists(".memory/dream-log.json"));
}

TEST_CASE("dream names the history file it did not find, and refuses a --history that is not there",
          "[telemetry][dream]") {
  Sandbox sandbox;
  write_vault(sandbox);
  const std::string before = head(sandbox);
  const auto absent = sandbox.vault({"distill", "--dream"});
  INFO(absent.err);
  CHECK(absent.code == 0);
  CHECK(absent.out == "No prompt history at " + (sandbox.root() / ".home").string() +
                          "/.claude/history.jsonl: nothing to dream over yet. Point --history or "
                          "`git config vault.history` at the agent's history.jsonl.\n");

  const std::string missing = (sandbox.root() / "typo.jsonl").string();
  const auto named = sandbox.vault({"distill", "--dream", "--history", missing});
  CHECK(named.code == 129);
  CHECK(named.err == "git-vault: error: --history " + missing + ": no such file\n");
  CHECK(head(sandbox) == before);
  CHECK_FALSE(sandbox.exists(".memory/dream-log.json"));
}

}  // namespace distill_telemetry_test
