#include <fmt/format.h>

#include <catch2/catch.hpp>
#include <map>

#include "core/recall/maintain.hpp"
#include "core/recall/maintain_render.hpp"

namespace recall_maintain_test {

namespace {

using gv::recall::Action;
using gv::recall::Analysis;
using gv::recall::CandidateKind;
using gv::recall::Decision;
using gv::recall::MaintainInput;
using gv::recall::ParsedFile;

// 2026-11-30T12:00:00Z, the instant every case runs at.
constexpr std::int64_t k_now = 1796040000;

ParsedFile parse(const std::string& path, std::string bytes) {
  gv::recall::ManagedFile file{path, gv::recall::display_path(path), *gv::recall::tier_of(path)};
  return gv::recall::parse_file(std::move(file), std::move(bytes));
}

// `count` distinct words: w1 w2 ...
std::string words(int count) {
  std::string out;
  for (int i = 1; i <= count; ++i) {
    out += (i == 1 ? "w" : " w") + std::to_string(i);
  }
  return out;
}

MaintainInput make_input(std::vector<ParsedFile> files, std::string metadata_json = "{}",
                         int budget = 1500) {
  MaintainInput input;
  input.files = std::move(files);
  input.metadata = gv::recall::parse_metadata(metadata_json, "m").records;
  input.metadata_bytes = metadata_json;
  input.now = gv::Instant{k_now};
  input.today = gv::date_of(input.now);
  input.budget = budget;
  return input;
}

std::string record(std::string_view reviewed, std::string_view extra = "") {
  return fmt::format(R"({{"last_reviewed_at": "{}", "pinned": false, "snoozed_until": null, )"
                     R"("status": "active"{}}})",
                     reviewed, extra);
}

std::vector<std::string> ids_of(const std::vector<gv::recall::Candidate>& candidates) {
  std::vector<std::string> out;
  for (const auto& candidate : candidates) {
    out.push_back(candidate.id);
  }
  return out;
}

class FakeSnapshot : public gv::Snapshot {
 public:
  explicit FakeSnapshot(std::map<std::string, std::string> files) : m_files(std::move(files)) {}
  std::vector<gv::SnapshotEntry> list(std::string_view) const override { return {}; }
  std::optional<std::string> read(std::string_view path) const override {
    const auto it = m_files.find(std::string{path});
    return it == m_files.end() ? std::nullopt : std::optional<std::string>{it->second};
  }
  std::string describe() const override { return "fake"; }

 private:
  std::map<std::string, std::string> m_files;
};

}  // namespace

TEST_CASE("words are runs of ASCII non-whitespace; Markdown and NBSP count as written",
          "[recall][maintain][edge-26]") {
  CHECK(gv::recall::count_words("**Note**: a — b") == 4);
  CHECK(gv::recall::count_words("a\u00A0b") == 1);
  CHECK(gv::recall::count_words("  a\tb\vc\fd\re  ") == 5);
  CHECK(gv::recall::count_words("") == 0);
  // The whole entry line: `- ` and the id are not counted.
  const auto input = make_input({parse("CLAUDE.local.md", "- **Note**: a — b ^tr0000000001\n")});
  CHECK(gv::recall::analyze(input).working_words == 4);
}

TEST_CASE("only working entries count, bare ids count zero, non-entries not at all",
          "[recall][maintain][edge-1][edge-11]") {
  const auto input = make_input({
      parse("CLAUDE.local.md",
            "- one two ^tr0000000001\n- ^tr0000000002\n- - -\n```\n- x y z ^tr0000000009\n```\n"
            "<!-- - a b c -->\n- [None yet]\n"),
      parse("memory/registers/people.md", "- three four five ^tr0000000003\n"),
  });
  const Analysis analysis = gv::recall::analyze(input);
  CHECK(analysis.working_words == 2);
}

TEST_CASE("reconciling adds missing records, takes tiers from files and keeps orphans",
          "[recall][maintain][edge-18]") {
  const auto input = make_input(
      {parse("CLAUDE.local.md", "- a ^tr0000000001\n- b ^tr0000000002\n")},
      R"({"tr0000000002": {"created_at": "2026-01-01T00:00:00Z", "last_reviewed_at": "2026-01-01T00:00:00Z", "pinned": false, "snoozed_until": null, "status": "active", "tier": "register"},
          "tr00000000ff": {"status": "active", "tier": "working", "pinned": false, "snoozed_until": null}})");
  const Analysis analysis = gv::recall::analyze(input);
  CHECK(analysis.records_added == 1);
  CHECK(analysis.tiers_fixed == 1);
  CHECK(analysis.orphans == std::vector<std::string>{"tr00000000ff"});
  const auto& added = analysis.metadata.at("tr0000000001");
  CHECK(added.created_at == "2026-11-30T12:00:00Z");
  CHECK(added.last_reviewed_at == "2026-11-30T12:00:00Z");
  CHECK(added.tier == "working");
  CHECK(analysis.metadata.at("tr0000000002").tier == "working");
  CHECK(analysis.metadata.at("tr00000000ff").tier == "working");

  // The orphan is still written, and counted in the summary.
  const auto result = gv::recall::plan_maintain(input, analysis, {});
  CHECK(result.metadata.contains("tr00000000ff"));
  CHECK(result.summary.find("Metadata: 3 entries in memory/.recall/metadata.json\n"
                            "Orphaned metadata entries: 1\n") != std::string::npos);
}

TEST_CASE("reconciling walks past keys that are not ids, in byte order",
          "[recall][maintain][edge-18]") {
  // Keys that are not ids sort before, between and after the entries' ids; each is an orphan,
  // listed in byte order, and none is taken for an entry's record. (The reader would normalise
  // `^tr…`; a map built by hand keeps it, as a key repeating an id is kept.)
  auto input =
      make_input({parse("CLAUDE.local.md", "- a ^tr00000000aa\n- b ^tr0000000001\n"),
                  parse("memory/registers/people.md", "- c ^tr00000000aa\n- d ^trf000000000\n")});
  for (const char* key : {"^tr0000000001", "hello", "tr0000000001x", "tr00000000aa", "zz"}) {
    input.metadata[key].tier = "archive";
  }
  input.metadata["tr00000000aa"].status = "superseded";
  const Analysis analysis = gv::recall::analyze(input);
  CHECK(analysis.orphans ==
        std::vector<std::string>{"^tr0000000001", "hello", "tr0000000001x", "zz"});
  CHECK(analysis.records_added == 2);  // tr0000000001 and trf000000000
  CHECK(analysis.tiers_fixed == 1);    // tr00000000aa: its first line is in working memory
  CHECK(analysis.metadata.at("tr0000000001").tier == "working");
  CHECK(analysis.metadata.at("trf000000000").tier == "register");
  CHECK(analysis.metadata.at("tr00000000aa").tier == "working");
  CHECK(analysis.metadata.at("^tr0000000001").tier == "archive");
  // Both lines of the repeated id are superseded; it is listed once, at its first line.
  REQUIRE(analysis.superseded.size() == 1);
  CHECK(analysis.superseded[0].path == "CLAUDE.local.md");
}

TEST_CASE("missing metadata becomes an empty object plus new records",
          "[recall][maintain][edge-18]") {
  auto input = make_input({parse("CLAUDE.local.md", "# Working Memory\n")});
  input.metadata_bytes.reset();
  const auto analysis = gv::recall::analyze(input);
  const auto result = gv::recall::plan_maintain(input, analysis, {});
  REQUIRE(result.writes.size() == 1);
  CHECK(result.writes.at("memory/.recall/metadata.json") == "{}\n");
  CHECK(gv::recall::describe_run(result) == "reconcile metadata");
}

TEST_CASE("at the budget there is no pressure; one word over selects only the top entry",
          "[recall][maintain][edge-20]") {
  const std::string reviewed = record("2026-11-30T12:00:00Z");
  const std::string metadata =
      fmt::format(R"({{"tr0000000001": {0}, "tr0000000002": {0}, "tr0000000003": {0}}})", reviewed);
  SECTION("1500 words") {
    const auto input =
        make_input({parse("CLAUDE.local.md", "- " + words(1000) + " ^tr0000000001\n- " +
                                                 words(500) + " ^tr0000000002\n")},
                   metadata);
    const Analysis analysis = gv::recall::analyze(input);
    CHECK(analysis.working_words == 1500);
    CHECK_FALSE(analysis.over_budget());
    CHECK(analysis.pressure.empty());
    CHECK(gv::recall::render_presentation(analysis).starts_with("recall-maintain — all clear\n"));
  }
  SECTION("1501 words") {
    const auto input = make_input(
        {parse("CLAUDE.local.md", "- w ^tr0000000003\n- " + words(500) + " ^tr0000000002\n- " +
                                      words(1000) + " ^tr0000000001\n")},
        metadata);
    const Analysis analysis = gv::recall::analyze(input);
    CHECK(analysis.working_words == 1501);
    CHECK(analysis.needed() == 1);
    CHECK(ids_of(analysis.pressure) == std::vector<std::string>{"tr0000000001"});
    CHECK(analysis.pressure[0].score == 1000.0);
    CHECK(analysis.pressure[0].line == 3);
  }
}

TEST_CASE("pressure takes the highest scores until enough words are freed", "[recall][maintain]") {
  // Scores: a = 2 + 0.1 * 100 = 12, b = 6 + 0.1 * 10 = 7, c = 4 + 0.1 * 365 = 40.5 (never).
  const auto input = make_input(
      {parse("CLAUDE.local.md", "- a1 a2 ^tr000000000a\n- " + words(6) + " ^tr000000000b\n- " +
                                    words(4) + " ^tr000000000c\n")},
      fmt::format(
          R"({{"tr000000000a": {}, "tr000000000b": {}, "tr000000000c": {{"status": "active"}}}})",
          record("2026-08-22T12:00:00Z"), record("2026-11-20T12:00:00Z")),
      /*budget=*/6);
  const Analysis analysis = gv::recall::analyze(input);
  REQUIRE(analysis.needed() == 6);
  // c (4 words) then a (2 words) reach 6: b is not needed.
  CHECK(ids_of(analysis.pressure) == std::vector<std::string>{"tr000000000c", "tr000000000a"});
  CHECK(analysis.pressure[0].score == Approx(4 + 36.5));
  CHECK(analysis.pressure[1].score == Approx(12.0));
}

TEST_CASE("tied scores keep scan order", "[recall][maintain][edge-21]") {
  const std::string reviewed = record("2026-11-30T12:00:00Z");
  const auto input =
      make_input({parse("CLAUDE.local.md", "- x y z ^tr0000000002\n- p q r ^tr0000000001\n")},
                 fmt::format(R"({{"tr0000000001": {0}, "tr0000000002": {0}}})", reviewed), 3);
  const Analysis analysis = gv::recall::analyze(input);
  CHECK(ids_of(analysis.pressure) == std::vector<std::string>{"tr0000000002"});
}

TEST_CASE("all working entries pinned or snoozed leaves no eligible candidate",
          "[recall][maintain][edge-21]") {
  auto pinned = make_input(
      {parse("CLAUDE.local.md", "- x y z ^tr0000000001\n- p q r ^tr0000000002\n")}, "{}", 3);
  pinned.metadata["tr0000000001"].pinned = true;
  pinned.metadata["tr0000000002"].snoozed_until = "2026-12-01T00:00:00Z";
  const Analysis analysis = gv::recall::analyze(pinned);
  CHECK(analysis.over_budget());
  CHECK(analysis.pool_size == 0);
  CHECK(analysis.pressure.empty());
  CHECK(gv::recall::render_presentation(analysis) ==
        "recall-maintain — 0 candidates\n"
        "━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━\n"
        "\n"
        "Working memory: 6 words (target: 3, over by 3)\n"
        "\n"
        "Pressure candidates: none eligible (all working entries are pinned or snoozed).\n");
}

TEST_CASE("a snooze ending exactly now is over; one second later it still holds",
          "[recall][maintain][edge-22]") {
  const auto input_with = [](std::string_view until) {
    return make_input(
        {parse("CLAUDE.local.md", "- a b ^tr0000000001\n")},
        fmt::format(R"({{"tr0000000001": {{"last_reviewed_at": "2026-11-30T12:00:00Z", )"
                    R"("pinned": false, "snoozed_until": "{}", "status": "active"}}}})",
                    until),
        1);
  };
  CHECK(gv::recall::analyze(input_with("2026-11-30T12:00:00Z")).pressure.size() == 1);
  CHECK(gv::recall::analyze(input_with("2026-11-30T12:00:01Z")).pressure.empty());
  CHECK(gv::recall::analyze(input_with("2026-11-30T11:59:59Z")).pressure.size() == 1);
  // Unreadable: not snoozed. Not shaped as a time, it was warned about where metadata.json was
  // read, at its line; shaped as one but no real time, the analysis warns.
  const Analysis garbage = gv::recall::analyze(input_with("soon"));
  CHECK(garbage.pressure.size() == 1);
  CHECK(garbage.warnings.empty());
  const Analysis impossible = gv::recall::analyze(input_with("2026-13-45T00:00:00Z"));
  CHECK(impossible.pressure.size() == 1);
  REQUIRE(impossible.warnings.size() == 1);
  CHECK(impossible.warnings[0].message.find("snoozed_until `2026-13-45T00:00:00Z`") !=
        std::string::npos);
}

TEST_CASE("review age: future is 0 days, missing and garbage are 365",
          "[recall][maintain][edge-23]") {
  const auto input = make_input(
      {parse("CLAUDE.local.md", "- a ^tr0000000001\n- b ^tr0000000002\n- c ^tr0000000003\n")},
      R"({"tr0000000001": {"last_reviewed_at": "2027-01-01T00:00:00Z", "status": "active", "pinned": false, "snoozed_until": null},
          "tr0000000002": {"status": "active", "pinned": false, "snoozed_until": null},
          "tr0000000003": {"last_reviewed_at": "2026-02-30T00:00:00Z", "status": "active", "pinned": false, "snoozed_until": null}})",
      0);
  const Analysis analysis = gv::recall::analyze(input);
  REQUIRE(analysis.pressure.size() == 3);
  // Missing and garbage tie at 1 + 36.5 and keep scan order; the future one scores 1.
  CHECK(ids_of(analysis.pressure) ==
        std::vector<std::string>{"tr0000000002", "tr0000000003", "tr0000000001"});
  CHECK(analysis.pressure[0].score == Approx(37.5));
  CHECK_FALSE(analysis.pressure[0].days_since_review);
  CHECK(analysis.pressure[2].score == 1.0);
  CHECK(*analysis.pressure[2].days_since_review == 0.0);
  REQUIRE(analysis.warnings.size() == 1);
  CHECK(analysis.warnings[0].message ==
        "^tr0000000003: last_reviewed_at `2026-02-30T00:00:00Z` is not a timestamp; scored as 365 "
        "days");
  CHECK(analysis.warnings[0].path == "memory/.recall/metadata.json");
}

TEST_CASE("a review time not shaped as one is warned about once, by the metadata reader",
          "[recall][maintain][edge-23]") {
  const std::string metadata =
      R"({"tr0000000001": {"last_reviewed_at": "yesterday", "status": "active", "pinned": false, "snoozed_until": null}})";
  const gv::recall::MetadataRead read =
      gv::recall::parse_metadata(metadata, "memory/.recall/metadata.json");
  REQUIRE(read.findings.size() == 1);
  CHECK(read.findings[0].message ==
        "`last_reviewed_at` is not a timestamp (`yesterday`); treated "
        "as missing");
  CHECK(read.findings[0].line == 1);
  const Analysis analysis = gv::recall::analyze(
      make_input({parse("CLAUDE.local.md", "- a ^tr0000000001\n")}, metadata, 0));
  REQUIRE(analysis.pressure.size() == 1);
  CHECK_FALSE(analysis.pressure[0].days_since_review);  // scored as never reviewed
  CHECK(analysis.warnings.empty());
}

TEST_CASE("superseded cleanup skips the archive and lists a pressure candidate once",
          "[recall][maintain][edge-24]") {
  auto input = make_input(
      {parse("CLAUDE.local.md", "- " + words(10) + " ^tr0000000001\n- a b ^tr0000000002\n"),
       parse("memory/registers/tech.md", "- Node 16 ^tr0000000003\n"),
       parse("memory/archive/ARCHIVE.md", "- old ^tr0000000004\n")},
      "{}", 2);
  for (const char* id : {"tr0000000001", "tr0000000002", "tr0000000003", "tr0000000004"}) {
    input.metadata[id].status = "superseded";
  }
  input.metadata["tr0000000002"].pinned = true;
  const Analysis analysis = gv::recall::analyze(input);
  // 12 words, budget 2: the 10-word superseded entry alone frees enough.
  CHECK(ids_of(analysis.pressure) == std::vector<std::string>{"tr0000000001"});
  // The pinned superseded working entry is still cleaned up; the archived one is not listed.
  CHECK(ids_of(analysis.superseded) == std::vector<std::string>{"tr0000000002", "tr0000000003"});
  CHECK(analysis.candidate_count() == 3);
}

TEST_CASE("a 10,000-word entry is selected alone and shown unwrapped",
          "[recall][maintain][edge-25]") {
  const std::string long_text = words(10000);
  const auto input = make_input(
      {parse("CLAUDE.local.md", "- tiny ^tr0000000001\n- " + long_text + " ^tr0000000002\n")},
      fmt::format(R"({{"tr0000000001": {0}, "tr0000000002": {0}}})",
                  record("2026-11-30T12:00:00Z")));
  const Analysis analysis = gv::recall::analyze(input);
  CHECK(ids_of(analysis.pressure) == std::vector<std::string>{"tr0000000002"});
  CHECK(gv::recall::render_presentation(analysis).find("\n   \"" + long_text +
                                                       "\" ^tr0000000002\n") != std::string::npos);
}

TEST_CASE("the candidate layout follows the original text", "[recall][maintain][render]") {
  const auto input = make_input(
      {parse("CLAUDE.local.md",
             "- Dave prefers concise error messages ^tr8f2a1c3d7e\n- Deploy to us-east-1 "
             "^tr0000000002\n"),
       parse("memory/registers/tech-stack.md", "- Using Node 16 in production ^tra4b2c1d9e0\n")},
      R"({"tr8f2a1c3d7e": {"last_reviewed_at": "2026-10-16T06:00:00Z", "pinned": false, "snoozed_until": null, "status": "active"},
          "tr0000000002": {"pinned": false, "snoozed_until": null, "status": "active"},
          "tra4b2c1d9e0": {"last_reviewed_at": "2026-11-30T12:00:00Z", "pinned": false, "snoozed_until": null, "status": "superseded"}})",
      1);
  const Analysis analysis = gv::recall::analyze(input);
  // Dave: 5 + 0.1 * 45.25 = 9.525; deploy: 3 + 36.5 = 39.5. Needed 7: deploy (3), then Dave (5).
  CHECK(gv::recall::render_presentation(analysis) ==
        "recall-maintain — 3 candidates\n"
        "━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━\n"
        "\n"
        "Working memory: 8 words (target: 1, over by 7)\n"
        "\n"
        "Pressure candidates (need to free 7 words):\n"
        "\n"
        "1. [CLAUDE.local.md] 3 words, last reviewed: never (scored as 365 days)\n"
        "   \"Deploy to us-east-1\" ^tr0000000002\n"
        "   → [k]eep / [p]in / [s]nooze / [d]emote / [a]rchive / [m]ark superseded\n"
        "\n"
        "2. [CLAUDE.local.md] 5 words, last reviewed 45 days ago\n"
        "   \"Dave prefers concise error messages\" ^tr8f2a1c3d7e\n"
        "   → [k]eep / [p]in / [s]nooze / [d]emote / [a]rchive / [m]ark superseded\n"
        "\n"
        "Superseded cleanup:\n"
        "\n"
        "3. [registers/tech-stack.md] status: superseded\n"
        "   \"Using Node 16 in production\" ^tra4b2c1d9e0\n"
        "   → [a]rchive (recommended) / [k]eep\n");
  CHECK(
      gv::recall::analysis_json(analysis).dump() ==
      R"({"budget":1,"pressure_candidates":[{"id":"tr0000000002","line":2,"path":"CLAUDE.local.md","score":39.5,"words":3},)"
      R"({"id":"tr8f2a1c3d7e","line":1,"path":"CLAUDE.local.md","score":9.525,"words":5}],"schema":1,)"
      R"("superseded":[{"id":"tra4b2c1d9e0","line":1,"path":"memory/registers/tech-stack.md"}],"working_words":8})");
}

TEST_CASE("the all-clear block, and superseded cleanup under budget",
          "[recall][maintain][render]") {
  const auto clear = make_input({parse("CLAUDE.local.md", "- a b c ^tr0000000001\n")});
  CHECK(gv::recall::render_presentation(gv::recall::analyze(clear)) ==
        "recall-maintain — all clear\n"
        "━━━━━━━━━━━━━━━━━━━━━━━━━━━\n"
        "\n"
        "Working memory: 3 words (target: 1500) - under budget\n"
        "No superseded entries pending cleanup.\n"
        "No action needed.\n");
  const auto superseded = make_input(
      {parse("CLAUDE.local.md", "- a b c ^tr0000000001\n")},
      R"({"tr0000000001": {"pinned": false, "snoozed_until": null, "status": "superseded"}})");
  CHECK(gv::recall::render_presentation(gv::recall::analyze(superseded)) ==
        "recall-maintain — 1 candidate\n"
        "━━━━━━━━━━━━━━━━━━━━━━━━━━━━━\n"
        "\n"
        "Working memory: 3 words (target: 1500) - under budget\n"
        "\n"
        "Superseded cleanup:\n"
        "\n"
        "1. [CLAUDE.local.md] status: superseded\n"
        "   \"a b c\" ^tr0000000001\n"
        "   → [a]rchive (recommended) / [k]eep\n");
}

TEST_CASE("a pool too small to reach the budget says how much it can free",
          "[recall][maintain][render]") {
  auto input = make_input(
      {parse("CLAUDE.local.md", "- a b c ^tr0000000001\n- d e ^tr0000000002\n")}, "{}", 1);
  input.metadata["tr0000000001"].pinned = true;
  const Analysis analysis = gv::recall::analyze(input);
  CHECK(gv::recall::render_presentation(analysis).find(
            "Pressure candidates (need to free 4 words):\n"
            "   (eligible entries free only 2 of 4 words)\n"
            "\n"
            "1. [CLAUDE.local.md] 2 words, last reviewed 0 days ago\n") != std::string::npos);
}

TEST_CASE("numbering continues past nine with a wider indent", "[recall][maintain][render]") {
  std::string working;
  for (int i = 0; i < 10; ++i) {
    working += fmt::format("- e{} ^tr00000000{:02}\n", i, i);
  }
  const Analysis analysis =
      gv::recall::analyze(make_input({parse("CLAUDE.local.md", working)}, "{}", 0));
  CHECK(gv::recall::render_presentation(analysis).find(
            "\n10. [CLAUDE.local.md] 1 word, last reviewed 0 days ago\n"
            "    \"e9\" ^tr0000000009\n"
            "    → [k]eep") != std::string::npos);
}

TEST_CASE("demote and archive move whole lines and change nothing else",
          "[recall][maintain][edge-6][edge-27]") {
  const std::string working =
      "# Working Memory\n"
      "- short ^tr0000000001\n"
      "keep this line\n"
      "- a much longer entry ^tr0000000002   \n"
      "- third ^tr0000000003\n";
  const auto input = make_input({parse("CLAUDE.local.md", working)}, "{}", 0);
  const Analysis analysis = gv::recall::analyze(input);
  // Scores 1, 4, 1: entry 2 first, then entry 1 (scan order wins the tie with 3).
  REQUIRE(ids_of(analysis.pressure) ==
          std::vector<std::string>{"tr0000000002", "tr0000000001", "tr0000000003"});
  const gv::recall::Decisions decisions{{"tr0000000002", {Action::demote, 30}},
                                        {"tr0000000001", {Action::demote, 30}},
                                        {"tr0000000003", {Action::archive, 30}}};
  const auto result = gv::recall::plan_maintain(input, analysis, decisions);
  CHECK(result.writes.at("CLAUDE.local.md") == "# Working Memory\nkeep this line\n");
  CHECK(result.writes.at("memory/registers/_inbox.md") ==
        "# Inbox\n"
        "> Entries demoted from working memory. Review and file into appropriate registers.\n"
        "\n"
        "- a much longer entry ^tr0000000002   \n"
        "- short ^tr0000000001\n");
  CHECK(result.writes.at("memory/archive/ARCHIVE.md") ==
        "# Archive\n"
        "> Archived memory entries. Searchable but never auto-loaded.\n"
        "\n"
        "- third ^tr0000000003\n");
  CHECK(result.words_before == 6);
  CHECK(result.words_after == 0);
  CHECK(result.counts.demoted == 2);
  CHECK(result.counts.archived == 1);
  CHECK(result.affected_ids ==
        std::vector<std::string>{"tr0000000001", "tr0000000002", "tr0000000003"});
  CHECK(result.metadata.at("tr0000000002").tier == "register");
  CHECK(result.metadata.at("tr0000000002").status == "active");
  CHECK(result.metadata.at("tr0000000003").tier == "archive");
  CHECK(result.metadata.at("tr0000000003").status == "archived");
  CHECK(gv::recall::describe_run(result) == "demote 2, archive 1");
}

TEST_CASE("CRLF sources lose the line cleanly and LF destinations stay LF",
          "[recall][maintain][edge-13]") {
  const auto input = make_input(
      {parse("CLAUDE.local.md", "# W\r\n- a ^tr0000000001\r\n- b ^tr0000000002\nlast\r\n"),
       parse("memory/registers/_inbox.md", "# Inbox\n"),
       parse("memory/archive/ARCHIVE.md", "# Archive\r\n")},
      "{}", 0);
  const Analysis analysis = gv::recall::analyze(input);
  const auto result = gv::recall::plan_maintain(
      input, analysis,
      {{"tr0000000001", {Action::demote, 30}}, {"tr0000000002", {Action::archive, 30}}});
  CHECK(result.writes.at("CLAUDE.local.md") == "# W\r\nlast\r\n");
  CHECK(result.writes.at("memory/registers/_inbox.md") == "# Inbox\n- a ^tr0000000001\n");
  CHECK(result.writes.at("memory/archive/ARCHIVE.md") == "# Archive\r\n- b ^tr0000000002\r\n");
}

TEST_CASE("a missing final newline never merges two lines", "[recall][maintain][edge-14]") {
  SECTION("removing the unterminated last line keeps the previous terminator") {
    const auto input =
        make_input({parse("CLAUDE.local.md", "- a ^tr0000000001\n- b ^tr0000000002")}, "{}", 0);
    const auto result = gv::recall::plan_maintain(input, gv::recall::analyze(input),
                                                  {{"tr0000000002", {Action::demote, 30}}});
    CHECK(result.writes.at("CLAUDE.local.md") == "- a ^tr0000000001\n");
    CHECK(result.writes.at("memory/registers/_inbox.md").ends_with("\n\n- b ^tr0000000002\n"));
  }
  SECTION("appending to a destination without a final newline adds one first") {
    const auto input =
        make_input({parse("CLAUDE.local.md", "- a ^tr0000000001\n"),
                    parse("memory/registers/_inbox.md", "# Inbox\n- z ^tr0000000009")},
                   "{}", 0);
    const auto result = gv::recall::plan_maintain(input, gv::recall::analyze(input),
                                                  {{"tr0000000001", {Action::demote, 30}}});
    CHECK(result.writes.at("CLAUDE.local.md") == "");
    CHECK(result.writes.at("memory/registers/_inbox.md") ==
          "# Inbox\n- z ^tr0000000009\n- a ^tr0000000001\n");
  }
  CHECK(gv::recall::append_line("", "- x") == "- x\n");
  CHECK(gv::recall::append_line("a\r\nb", "- x") == "a\r\nb\r\n- x\r\n");
}

TEST_CASE("a BOM survives removing the first line", "[recall][maintain][edge-15]") {
  const auto input = make_input(
      {parse("CLAUDE.local.md", "\xEF\xBB\xBF- x ^tr0000000001\n- y ^tr0000000002\n")}, "{}", 0);
  const auto result = gv::recall::plan_maintain(input, gv::recall::analyze(input),
                                                {{"tr0000000001", {Action::demote, 30}}});
  CHECK(result.writes.at("CLAUDE.local.md") == "\xEF\xBB\xBF- y ^tr0000000002\n");
}

TEST_CASE("an inbox entry can be archived in the same run that demotes into the inbox",
          "[recall][maintain]") {
  const auto input = make_input(
      {parse("CLAUDE.local.md", "- a b ^tr0000000001\n"),
       parse("memory/registers/_inbox.md", "# Inbox\n- old ^tr0000000002\n")},
      R"({"tr0000000002": {"pinned": false, "snoozed_until": null, "status": "superseded"}})", 0);
  const Analysis analysis = gv::recall::analyze(input);
  const auto result = gv::recall::plan_maintain(
      input, analysis,
      {{"tr0000000001", {Action::demote, 30}}, {"tr0000000002", {Action::archive, 30}}});
  CHECK(result.writes.at("memory/registers/_inbox.md") == "# Inbox\n- a b ^tr0000000001\n");
  CHECK(result.writes.at("memory/archive/ARCHIVE.md").ends_with("\n\n- old ^tr0000000002\n"));
  CHECK(result.writes.at("CLAUDE.local.md") == "");
}

TEST_CASE("keep, pin, snooze and mark superseded change metadata only",
          "[recall][maintain][edge-19]") {
  const std::string metadata =
      R"({"tr0000000001": {"created_at": "2026-01-01T00:00:00Z", "last_reviewed_at": "2026-01-01T00:00:00Z", "pinned": false, "snoozed_until": null, "status": "active", "tier": "working"},
          "tr0000000002": {"created_at": "2026-01-01T00:00:00Z", "last_reviewed_at": "2026-01-01T00:00:00Z", "pinned": false, "snoozed_until": null, "status": "active", "tier": "working"},
          "tr0000000003": {"created_at": "2026-01-01T00:00:00Z", "last_reviewed_at": "2026-01-01T00:00:00Z", "pinned": false, "snoozed_until": null, "status": "active", "tier": "working"},
          "tr0000000004": {"created_at": "2026-01-01T00:00:00Z", "last_reviewed_at": "2026-01-01T00:00:00Z", "pinned": false, "snoozed_until": null, "status": "active", "tier": "working", "note": "kept"}})";
  const auto input = make_input(
      {parse("CLAUDE.local.md",
             "- a ^tr0000000001\n- b ^tr0000000002\n- c ^tr0000000003\n- d ^tr0000000004\n")},
      metadata, 0);
  const Analysis analysis = gv::recall::analyze(input);
  const gv::recall::Decisions decisions{{"tr0000000001", {Action::keep, 30}},
                                        {"tr0000000002", {Action::pin, 30}},
                                        {"tr0000000003", {Action::snooze, 14}},
                                        {"tr0000000004", {Action::mark_superseded, 30}}};
  const auto result = gv::recall::plan_maintain(input, analysis, decisions);
  REQUIRE(result.writes.size() == 1);
  CHECK(result.writes.at("memory/.recall/metadata.json") ==
        R"({
  "tr0000000001": {
    "created_at": "2026-01-01T00:00:00Z",
    "last_reviewed_at": "2026-11-30T12:00:00Z",
    "pinned": false,
    "snoozed_until": null,
    "status": "active",
    "tier": "working"
  },
  "tr0000000002": {
    "created_at": "2026-01-01T00:00:00Z",
    "last_reviewed_at": "2026-11-30T12:00:00Z",
    "pinned": true,
    "snoozed_until": null,
    "status": "active",
    "tier": "working"
  },
  "tr0000000003": {
    "created_at": "2026-01-01T00:00:00Z",
    "last_reviewed_at": "2026-11-30T12:00:00Z",
    "pinned": false,
    "snoozed_until": "2026-12-14T12:00:00Z",
    "status": "active",
    "tier": "working"
  },
  "tr0000000004": {
    "created_at": "2026-01-01T00:00:00Z",
    "last_reviewed_at": "2026-11-30T12:00:00Z",
    "note": "kept",
    "pinned": false,
    "snoozed_until": null,
    "status": "superseded",
    "tier": "working"
  }
}
)");
  CHECK(gv::recall::describe_run(result) == "pin 1, snooze 1, keep 1, mark superseded 1");
  CHECK(result.summary ==
        "recall-maintain — complete\n"
        "━━━━━━━━━━━━━━━━━━━━━━━━━━\n"
        "\n"
        "Working memory: 4 -> 4 words (target: 0)\n"
        "\n"
        "Actions taken:\n"
        "  Kept (reviewed): 1\n"
        "  Pinned: 1\n"
        "  Snoozed: 1 (until 2026-12-14)\n"
        "  Demoted to _inbox.md: 0\n"
        "  Archived: 0\n"
        "  Marked superseded: 1\n"
        "\n"
        "Secondary checks:\n"
        "  Stale entries found: 0\n"
        "  Contradictions found: 0\n"
        "  Open loops reviewed: 0\n"
        "  Daily logs to archive: 0\n"
        "\n"
        "Metadata: 4 entries in memory/.recall/metadata.json\n");

  // Same input, same decisions: the same bytes.
  const auto again = gv::recall::plan_maintain(input, gv::recall::analyze(input), decisions);
  CHECK(again.writes == result.writes);
}

TEST_CASE("a run that changes nothing writes nothing", "[recall][maintain]") {
  const std::string metadata =
      "{\n  \"tr0000000001\": {\n    \"created_at\": \"2026-01-01T00:00:00Z\",\n"
      "    \"last_reviewed_at\": \"2026-11-30T12:00:00Z\",\n    \"pinned\": false,\n"
      "    \"snoozed_until\": null,\n    \"status\": \"active\",\n    \"tier\": \"working\"\n  "
      "}\n}\n";
  const auto input = make_input({parse("CLAUDE.local.md", "- a ^tr0000000001\n")}, metadata);
  const auto result = gv::recall::plan_maintain(input, gv::recall::analyze(input), {});
  CHECK(result.empty());
}

TEST_CASE("a file edited after the scan is named before anything is written",
          "[recall][maintain][edge-28]") {
  const std::string working = "- a ^tr0000000001\n- b ^tr0000000002\n";
  const auto input = make_input({parse("CLAUDE.local.md", working)}, "{}", 0);
  const auto result = gv::recall::plan_maintain(input, gv::recall::analyze(input),
                                                {{"tr0000000001", {Action::demote, 30}}});
  const FakeSnapshot same{{{"CLAUDE.local.md", working}, {"memory/.recall/metadata.json", "{}"}}};
  CHECK_FALSE(gv::recall::changed_since_scan(input, result, same));
  const FakeSnapshot edited{
      {{"CLAUDE.local.md", working + "- c\n"}, {"memory/.recall/metadata.json", "{}"}}};
  CHECK(gv::recall::changed_since_scan(input, result, edited) == "CLAUDE.local.md");
  const FakeSnapshot inbox_appeared{{{"CLAUDE.local.md", working},
                                     {"memory/.recall/metadata.json", "{}"},
                                     {"memory/registers/_inbox.md", "# mine\n"}}};
  CHECK(gv::recall::changed_since_scan(input, result, inbox_appeared) == "registers/_inbox.md");
}

TEST_CASE("an archived entry moved back by hand keeps its status and warns", "[recall][maintain]") {
  const auto input = make_input(
      {parse("CLAUDE.local.md", "- a ^tr0000000001\n")},
      R"({"tr0000000001": {"pinned": false, "snoozed_until": null, "status": "archived", "tier": "archive"}})");
  const Analysis analysis = gv::recall::analyze(input);
  CHECK(analysis.metadata.at("tr0000000001").status == "archived");
  CHECK(analysis.metadata.at("tr0000000001").tier == "working");
  REQUIRE(analysis.warnings.size() == 1);
  CHECK(analysis.warnings[0].message ==
        "^tr0000000001 is marked archived but sits in CLAUDE.local.md line 1; status kept");
}

TEST_CASE("an id's first line is the one that counts, and warnings come in id order",
          "[recall][maintain]") {
  // Scan order is not id order: tr...3 comes first. tr...2 is repeated (the gate refuses that,
  // but maintain must not count it twice); both its lines are in the working tier.
  const auto input = make_input(
      {parse("CLAUDE.local.md",
             "- c c c ^tr0000000003\n- b ^tr0000000002\n- a ^tr0000000001\n- b b ^tr0000000002\n"),
       parse("memory/registers/tech-stack.md", "- s ^tr0000000004\n- s ^tr0000000004\n")},
      R"({"tr0000000001": {"pinned": false, "snoozed_until": null, "status": "archived"},)"
      R"( "tr0000000003": {"pinned": false, "snoozed_until": null, "status": "archived"},)"
      R"( "tr0000000004": {"pinned": false, "snoozed_until": null, "status": "superseded"}})",
      0);
  const Analysis analysis = gv::recall::analyze(input);
  REQUIRE(analysis.warnings.size() == 2);
  CHECK(analysis.warnings[0].message ==
        "^tr0000000001 is marked archived but sits in CLAUDE.local.md line 3; status kept");
  CHECK(analysis.warnings[1].message ==
        "^tr0000000003 is marked archived but sits in CLAUDE.local.md line 1; status kept");
  // Each id's words once, at its first line: 3 + 1 + 1.
  CHECK(analysis.working_words == 5);
  CHECK(analysis.pool_size == 3);
  // tr...2 gets its record now (reviewed today); the others were never reviewed and score more.
  CHECK(ids_of(analysis.pressure) ==
        std::vector<std::string>{"tr0000000003", "tr0000000001", "tr0000000002"});
  CHECK(ids_of(analysis.superseded) == std::vector<std::string>{"tr0000000004"});
}

TEST_CASE("archiving a claim block moves every line of it", "[recall][maintain]") {
  const std::string register_bytes =
      "# Decisions\r\n"
      "- **Decision**: one pool ^tr0000000001\r\n"
      "- **Rationale**: faster\r\n"
      "  - measured twice\r\n"
      "- **Status**: superseded\r\n"
      "\r\n"
      "- kept ^tr0000000002\r\n";
  auto input = make_input(
      {parse("memory/registers/decisions.md", register_bytes)},
      R"({"tr0000000001": {"pinned": false, "snoozed_until": null, "status": "superseded"}})");
  const Analysis analysis = gv::recall::analyze(input);
  REQUIRE(ids_of(analysis.superseded) == std::vector<std::string>{"tr0000000001"});
  const auto result =
      gv::recall::plan_maintain(input, analysis, {{"tr0000000001", {Action::archive, 30}}});
  CHECK(result.writes.at("memory/registers/decisions.md") ==
        "# Decisions\r\n\r\n- kept ^tr0000000002\r\n");
  CHECK(result.writes.at("memory/archive/ARCHIVE.md") ==
        "# Archive\n"
        "> Archived memory entries. Searchable but never auto-loaded.\n"
        "\n"
        "- **Decision**: one pool ^tr0000000001\n"
        "- **Rationale**: faster\n"
        "  - measured twice\n"
        "- **Status**: superseded\n");
}

}  // namespace recall_maintain_test
