#include <fmt/format.h>

#include <catch2/catch.hpp>
#include <map>

#include "core/distill/sub_mode.hpp"
#include "core/git/repo.hpp"
#include "core/scoring/score.hpp"
#include "core/snapshot/snapshot.hpp"

namespace distill_gc_test {

using gv::distill::Candidate;
using gv::distill::CandidateSet;

namespace {

class FakeSnapshot final : public gv::Snapshot {
 public:
  explicit FakeSnapshot(std::map<std::string, std::string> files) : m_files(std::move(files)) {}
  [[nodiscard]] std::vector<gv::SnapshotEntry> list(std::string_view prefix) const override {
    std::vector<gv::SnapshotEntry> entries;
    for (const auto& [path, bytes] : m_files) {
      if (path.rfind(prefix, 0) == 0) {
        entries.push_back({path, gv::git::hash_blob(bytes)});
      }
    }
    return entries;
  }
  [[nodiscard]] std::optional<std::string> read(std::string_view path) const override {
    const auto it = m_files.find(std::string(path));
    return it == m_files.end() ? std::nullopt : std::optional<std::string>(it->second);
  }
  [[nodiscard]] std::string describe() const override { return "fake"; }

 private:
  std::map<std::string, std::string> m_files;
};

// A memory created 2026-01-01, never retrieved, with its own keyword; `extra` goes into the
// frontmatter (the tombstone fields).
std::string memory(const std::string& title, const std::string& extra) {
  return "---\ntitle: \"" + title + "\"\ncreated: 2026-01-01\ntags: [PATTERN]\nkeywords: [k" +
         title + "]\nsummary: \"s\"\n" + extra + "---\n\n# " + title + "\n\none two three\n";
}

std::string tombstone(const std::string& at) {
  return "status: tombstoned\n" + (at.empty() ? "" : "tombstoned_at: " + at + "\n") +
         "tombstone_reason: \"purge\"\n";
}

std::string path(const std::string& id) { return ".memory/10-Memories/" + id + ".md"; }

struct Fixture {
  explicit Fixture(std::map<std::string, std::string> files)
      : snapshot(std::move(files)),
        clock{*gv::parse_date("2026-11-30"), *gv::parse_instant("2026-11-30T12:00:00Z")},
        state(gv::distill::read_vault_state(snapshot, clock.today)),
        context{state, snapshot, clock, std::nullopt},
        gc(gv::distill::make_sub_mode("gc")) {
    REQUIRE(gc != nullptr);
  }
  std::vector<std::string> keys() const {
    std::vector<std::string> out;
    for (const Candidate& candidate : gc->candidates(context).candidates) {
      out.push_back(candidate.key);
    }
    return out;
  }

  FakeSnapshot snapshot;
  gv::Clock clock;
  gv::distill::VaultState state;
  gv::distill::SubModeContext context;
  std::unique_ptr<gv::distill::SubMode> gc;
};

}  // namespace

TEST_CASE("gc offers memories tombstoned at least 7 days ago, in id order", "[distill][gc]") {
  const Fixture f({{path("MEM-b"), memory("b", tombstone("2026-11-23"))},  // 7 days
                   {path("MEM-a"), memory("a", tombstone("2026-10-01"))},  // 60 days
                   {path("MEM-c"), memory("c", tombstone("2026-11-24"))},  // 6 days
                   {path("MEM-d"), memory("d", "")},                       // active
                   {path("MEM-e"), memory("e", tombstone(""))}});          // no date
  CHECK(f.keys() == std::vector<std::string>{"MEM-a", "MEM-b"});
  const CandidateSet set = f.gc->candidates(f.context);
  CHECK_FALSE(set.stop_message);
  CHECK(set.candidates[0].json.dump() ==
        R"({"id":"MEM-a","tombstoned_at":"2026-10-01","tombstone_reason":"purge"})");
  CHECK(set.question ==
        "Select tombstoned memories to permanently delete (one commit: `git vault revert` brings "
        "them back).");
  CHECK(set.none_selected_message == "No memories selected for deletion. GC cancelled.");
  // Scored as if active: staleness 1 (333 days) * 0.3 + never retrieved 0.25; 5 words -> 6 tokens.
  CHECK(set.candidates[0].details ==
        "Tombstoned: 2026-10-01 | Reason: purge | Original score: 0.55 | Tokens: 6");
}

TEST_CASE("gc takes the tombstone date from the index entry when the file has none",
          "[distill][gc]") {
  const std::string index = R"({"version": "1.0.0", "entries": [
      {"id": "MEM-e", "status": "tombstoned", "tombstoned_at": "2026-11-01"}]})";
  const Fixture f(
      {{path("MEM-e"), memory("e", tombstone(""))}, {".memory/memory-index.json", index}});
  REQUIRE(f.keys() == std::vector<std::string>{"MEM-e"});
  CHECK(f.gc->candidates(f.context).candidates[0].json["tombstoned_at"] == "2026-11-01");
}

TEST_CASE("gc with nothing past the grace period stops with the count still waiting",
          "[distill][gc]") {
  const Fixture f({{path("MEM-a"), memory("a", tombstone("2026-11-29"))},
                   {path("MEM-b"), memory("b", tombstone("2026-11-24"))},
                   {path("MEM-c"), memory("c", "")}});
  const CandidateSet set = f.gc->candidates(f.context);
  CHECK(set.candidates.empty());
  REQUIRE(set.stop_message);
  CHECK(*set.stop_message ==
        "No tombstoned memories past the 7-day grace period.\n"
        "2 tombstoned memories are still within the grace period.");
}

TEST_CASE("gc execution deletes exactly the selected files and nothing else", "[distill][gc]") {
  const Fixture f({{path("MEM-a"), memory("a", tombstone("2026-10-01"))},
                   {path("MEM-b"), memory("b", tombstone("2026-10-02"))},
                   {path("MEM-c"), memory("c", "")}});
  const CandidateSet set = f.gc->candidates(f.context);
  REQUIRE(set.candidates.size() == 2);
  const gv::distill::Execution done = f.gc->execute(f.context, set.candidates);
  const auto& draft = done.draft;
  CHECK(draft.type == "gc");
  CHECK(draft.changed_memories);
  REQUIRE(draft.plan.changes.size() == 2);
  CHECK_FALSE(draft.plan.changes.at(path("MEM-a")));
  CHECK_FALSE(draft.plan.changes.at(path("MEM-b")));
  CHECK(draft.affected_memories.dump() == R"(["MEM-a","MEM-b"])");
  CHECK(draft.plan.memories == std::vector<std::string>{"MEM-a", "MEM-b"});
  CHECK(draft.notes == "Hard-deleted 2 tombstoned memories");
  CHECK(draft.plan.subject == "vault(gc): delete 2 tombstoned memories");

  // Even a forged selection never deletes an active memory.
  Candidate active;
  active.key = "MEM-c";
  CHECK_THROWS_WITH(f.gc->execute(f.context, {active}), Catch::Contains("not a tombstoned memory"));
}

TEST_CASE("gc scores each candidate as if it alone were active again", "[distill][gc]") {
  const auto with_keywords = [](const std::string& title, const std::string& keywords,
                                const std::string& extra) {
    return "---\ntitle: \"" + title + "\"\ncreated: 2026-01-01\ntags: [PATTERN]\nkeywords: [" +
           keywords + "]\nsummary: \"s\"\n" + extra + "---\n\n# " + title + "\n\none two\n";
  };
  // MEM-t shares x and y with active MEM-p (2 of its 4 keys, after case folding), and three keys
  // with MEM-u, which is tombstoned too: only active memories count, so 0.5, not 0.75.
  const Fixture f({{path("MEM-p"), with_keywords("p", "x, y, z", "")},
                   {path("MEM-q"), with_keywords("q", "x, w", "")},
                   {path("MEM-t"), with_keywords("t", "X, y, v, v2, y", tombstone("2026-10-01"))},
                   {path("MEM-u"), with_keywords("u", "x, y, v", tombstone("2026-10-02"))}});
  const CandidateSet set = f.gc->candidates(f.context);
  REQUIRE(set.candidates.size() == 2);
  for (const Candidate& candidate : set.candidates) {
    // What scoring the whole vault with that one memory revived gives.
    std::vector<gv::Memory> view;
    for (const gv::Memory& memory : f.state.vault.memories) {
      if (memory.active()) {
        view.push_back(memory);
      } else if (memory.id == candidate.key) {
        view.push_back(memory);
        view.back().tombstoned = false;
      }
    }
    double expected = -1;
    for (const gv::scoring::Score& score : gv::scoring::score_memories(view, f.clock.today)) {
      if (score.id == candidate.key) {
        expected = score.composite;
        if (candidate.key == "MEM-t") {
          CHECK(score.duplicate == 0.5);
        }
      }
    }
    INFO(candidate.details);
    CHECK_THAT(candidate.details,
               Catch::Contains(fmt::format("Original score: {:.2f} |", expected)));
  }
}

}  // namespace distill_gc_test
