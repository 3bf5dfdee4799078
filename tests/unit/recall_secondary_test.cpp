#include <catch2/catch.hpp>

#include "core/recall/secondary.hpp"

namespace recall_secondary_test {

namespace {

using gv::recall::ParsedFile;

ParsedFile parse(const std::string& path, std::string bytes) {
  gv::recall::ManagedFile file{path, gv::recall::display_path(path), *gv::recall::tier_of(path)};
  return gv::recall::parse_file(std::move(file), std::move(bytes));
}

gv::recall::Metadata metadata(std::string_view json) {
  return gv::recall::parse_metadata(json, "m").records;
}

gv::Instant at(std::string_view text) { return *gv::parse_instant(text); }
gv::Date day(std::string_view text) { return *gv::parse_date(text); }

}  // namespace

TEST_CASE("stale register entries come oldest first, never-reviewed before all",
          "[recall][secondary]") {
  const std::vector<ParsedFile> files{
      parse("CLAUDE.local.md", "- working is never stale ^tr0000000009\n"),
      parse("memory/registers/_inbox.md", "- inbox entry ^tr0000000001\n"),
      parse("memory/registers/tech-stack.md",
            "- Using Postgres 15 in production ^tra1b2c3d4e5\n- fresh ^tr0000000002\n"
            "- exactly thirty days ^tr0000000003\n- superseded ^tr0000000004\n"
            "- never reviewed ^tr0000000005\n"),
      parse("memory/archive/ARCHIVE.md", "- archived ^tr0000000006\n"),
  };
  const auto records = metadata(R"({
    "tr0000000001": {"last_reviewed_at": "2026-10-01T00:00:00Z"},
    "tra1b2c3d4e5": {"last_reviewed_at": "2025-12-01T08:00:00Z"},
    "tr0000000002": {"last_reviewed_at": "2026-11-29T00:00:00Z"},
    "tr0000000003": {"last_reviewed_at": "2026-10-31T12:00:00Z"},
    "tr0000000004": {"last_reviewed_at": "2020-01-01T00:00:00Z", "status": "superseded"},
    "tr0000000006": {"last_reviewed_at": "2020-01-01T00:00:00Z"},
    "tr0000000009": {"last_reviewed_at": "2020-01-01T00:00:00Z"}})");
  const auto report = gv::recall::run_secondary_checks(files, records, at("2026-11-30T12:00:00Z"),
                                                       day("2026-11-30"), {});
  REQUIRE(report.stale.size() == 3);
  CHECK(report.stale[0].id == "tr0000000005");
  CHECK(report.stale[1].id == "tra1b2c3d4e5");
  CHECK(report.stale[2].id == "tr0000000001");
  const std::string text = gv::recall::render_secondary(report);
  CHECK(
      text.starts_with("Stale entries (not reviewed in 30+ days):\n"
                       "  1. [registers/tech-stack.md] Last reviewed: never\n"
                       "     \"never reviewed\" ^tr0000000005\n"
                       "  2. [registers/tech-stack.md] Last reviewed: 2025-12-01\n"
                       "     \"Using Postgres 15 in production\" ^tra1b2c3d4e5\n"
                       "  3. [registers/_inbox.md] Last reviewed: 2026-10-01\n"
                       "     \"inbox entry\" ^tr0000000001\n\n"));
}

TEST_CASE("same topic with different values in two files is a possible contradiction",
          "[recall][secondary]") {
  const std::vector<ParsedFile> files{
      parse("CLAUDE.local.md",
            "- Deadline is March 1 ^tr0000000001\n- Use Node 16 ^tr0000000002\n"),
      parse(
          "memory/registers/decisions.md",
          "- deadline moved to **March 15** ^tr0000000003\n- deadline is March 1 ^tr0000000004\n"),
      parse("memory/registers/tech-stack.md", "- Use node 16 ^tr0000000005\n"),
  };
  const auto records = metadata(R"({"tr0000000002": {"status": "superseded"}})");
  const auto report = gv::recall::run_secondary_checks(files, records, at("2026-11-30T12:00:00Z"),
                                                       day("2026-11-30"), {});
  // Same values (deadline/1 twice) are agreement, not a contradiction.
  REQUIRE(report.contradictions.size() == 2);
  CHECK(report.contradictions[0].first.id == "tr0000000001");
  CHECK(report.contradictions[0].second.id == "tr0000000003");
  CHECK(report.contradictions[1].first.id == "tr0000000002");
  CHECK(report.contradictions[1].second.id == "tr0000000005");
  CHECK(gv::recall::render_secondary(report).find(
            "Potential contradictions:\n"
            "\n"
            "1. CLAUDE.local.md says \"Deadline is March 1\"\n"
            "   registers/decisions.md says \"deadline moved to **March 15**\"\n"
            "   → Which is current?\n"
            "\n"
            "2. CLAUDE.local.md says \"Use Node 16\" (superseded)\n"
            "   registers/tech-stack.md says \"Use node 16\"\n"
            "   → Which is current?\n") != std::string::npos);
}

TEST_CASE("no contradictions says so", "[recall][secondary]") {
  const auto report =
      gv::recall::run_secondary_checks({parse("CLAUDE.local.md", "- a ^tr0000000001\n")}, {},
                                       at("2026-11-30T12:00:00Z"), day("2026-11-30"), {});
  CHECK(gv::recall::render_secondary(report) ==
        "Stale entries: none.\n"
        "\n"
        "Potential contradictions: none found.\n"
        "\n"
        "Open loops: 0 active, 0 closed\n"
        "\n"
        "Daily logs older than 30 days: 0\n");
}

TEST_CASE("open loops past due or closed under Active are flagged",
          "[recall][secondary][edge-29]") {
  const std::vector<ParsedFile> files{
      parse("memory/registers/open-loops.md",
            "# Open Loops\n"
            "## Active\n"
            "- [ ] X — created 2026-01-01, due 2026-01-05 ^tr0000000001\n"
            "- [ ] Due today — due 2026-01-06 ^tr0000000002\n"
            "- [x] Y ^tr0000000003\n"
            "- [ ] overdue 2025-01-01 is not a due date ^tr0000000004\n"
            "## Recently Closed\n"
            "- [X] Z — closed 2026-01-02 ^tr0000000005\n")};
  const auto report = gv::recall::run_secondary_checks(files, {}, at("2026-01-06T12:00:00Z"),
                                                       day("2026-01-06"), {});
  CHECK(report.open_loops_active == 3);
  CHECK(report.open_loops_closed == 2);
  CHECK(gv::recall::render_secondary(report).find(
            "Open loops: 3 active, 2 closed\n"
            "  1. [past due 2026-01-05] \"X — created 2026-01-01, due 2026-01-05\" ^tr0000000001\n"
            "  2. [resolved] \"Y\" ^tr0000000003\n\n") != std::string::npos);
}

TEST_CASE("daily logs count by the date in their name", "[recall][secondary][edge-30]") {
  const std::vector<std::string> logs{"memory/daily/2025-12-01.md", "memory/daily/2025-12-05.md",
                                      "memory/daily/2025-12-06.md", "memory/daily/notes.md",
                                      "memory/daily/2025-13-01.md"};
  const auto report =
      gv::recall::run_secondary_checks({}, {}, at("2026-01-05T12:00:00Z"), day("2026-01-05"), logs);
  // 2025-12-01 is 35 days old; 2025-12-05 is exactly 31; 2025-12-06 is 30 (not older).
  CHECK(report.old_daily_logs == 2);
  CHECK(gv::recall::render_secondary(report).ends_with(
      "\nDaily logs older than 30 days: 2 — suggest archiving to memory/archive/daily/\n"));
}

TEST_CASE("normalised tokens drop Markdown marks and split on punctuation", "[recall][secondary]") {
  CHECK(gv::recall::normalised_tokens("**Use** `Node` 16.x (LTS) — café") ==
        std::vector<std::string>{"use", "node", "16", "x", "lts", "—", "café"});
}

}  // namespace recall_secondary_test
