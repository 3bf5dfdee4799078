#include <catch2/catch.hpp>

#include "core/recall/gate.hpp"

namespace recall_gate_test {

namespace {

using gv::recall::ParsedFile;

ParsedFile parse(std::string path, std::string bytes) {
  gv::recall::ManagedFile file{path, gv::recall::display_path(path), *gv::recall::tier_of(path)};
  return gv::recall::parse_file(std::move(file), std::move(bytes));
}

std::vector<std::string> checks_of(const std::vector<gv::Finding>& findings) {
  std::vector<std::string> out;
  for (const auto& finding : findings) {
    out.push_back(finding.check);
  }
  return out;
}

}  // namespace

TEST_CASE("a vault whose entries all have unique ids passes the gate", "[recall][gate]") {
  const std::vector<ParsedFile> files{
      parse("CLAUDE.local.md", "- a ^tr0000000001\n- [None yet]\n"),
      parse("memory/registers/people.md", "<!--\n- **role**: x\n-->\n- b ^tr0000000002\n"),
  };
  const auto gate = gv::recall::evaluate_id_gate(files);
  CHECK(gate.passes());
  CHECK_FALSE(gv::recall::maintain_refusal(gate));
  CHECK(gv::recall::id_findings(files).empty());
}

TEST_CASE("an untagged entry is a missing-id error naming init-ids", "[recall][gate]") {
  const std::vector<ParsedFile> files{
      parse("CLAUDE.local.md", "- a ^tr0000000001\n- [x] Done thing\n")};
  const auto findings = gv::recall::id_findings(files);
  REQUIRE(findings.size() == 1);
  CHECK(findings[0].check == "missing-id");
  CHECK(findings[0].severity == gv::Severity::error);
  CHECK(findings[0].path == "CLAUDE.local.md");
  CHECK(findings[0].line == 2);
  CHECK(findings[0].message == "entry has no id: \"[x] Done thing\"");
  CHECK(findings[0].fix == "git vault recall init-ids --yes");
}

TEST_CASE("a malformed id is an error whose fix says what an id looks like", "[recall][gate]") {
  const std::vector<ParsedFile> files{
      parse("memory/registers/decisions.md", "- a ^tr3B9de8d046\n")};
  const auto findings = gv::recall::id_findings(files);
  REQUIRE(findings.size() == 1);
  CHECK(findings[0].check == "malformed-id");
  CHECK(findings[0].severity == gv::Severity::error);
  CHECK(findings[0].path == "memory/registers/decisions.md");
  CHECK(findings[0].line == 1);
  CHECK(findings[0].message.find("`^tr3B9de8d046`") != std::string::npos);
  CHECK(findings[0].message.find("never rewrites") != std::string::npos);
  CHECK(findings[0].fix.find("10 lowercase hex digits") != std::string::npos);
}

TEST_CASE("an id in the older spelling is malformed, and its fix is doctor's respelling",
          "[recall][gate]") {
  const std::vector<ParsedFile> files{
      parse("memory/registers/decisions.md", "- a ^tr-3b9de8d046\n- b ^tr-3b9de8d04\n")};
  const auto findings = gv::recall::id_findings(files);
  REQUIRE(findings.size() == 2);
  CHECK(findings[0].message == "`^tr-3b9de8d046` is the older spelling of `^tr3b9de8d046`");
  CHECK(findings[0].fix == "git vault recall doctor --fix");
  // One hex digit short: not an id in any spelling, so the general advice.
  CHECK(findings[1].fix.find("10 lowercase hex digits") != std::string::npos);
  const gv::recall::IdGate gate = gv::recall::evaluate_id_gate(files);
  REQUIRE(gate.malformed.size() == 2);
  CHECK(gate.malformed[0].older_spelling);
  CHECK_FALSE(gate.malformed[1].older_spelling);
  CHECK(gv::recall::older_spelling_id("^tr-3b9de8d046") == "tr3b9de8d046");
  CHECK_FALSE(gv::recall::older_spelling_id("^tr-3B9DE8D046"));
  CHECK_FALSE(gv::recall::older_spelling_id("^tr3b9de8d046"));
}

TEST_CASE("each extra occurrence of an id is a duplicate-id finding listing every location",
          "[recall][gate]") {
  const std::vector<ParsedFile> files{
      parse("CLAUDE.local.md", "- a ^tr0000000001\n- b ^tr0000000001\n"),
      parse("memory/archive/2025/q4/old.md", "# Old\n- c ^tr0000000001\n"),
  };
  const auto findings = gv::recall::id_findings(files);
  REQUIRE(findings.size() == 2);
  for (const auto& finding : findings) {
    CHECK(finding.check == "duplicate-id");
    CHECK(finding.id == "tr0000000001");
    CHECK(finding.message ==
          "duplicate id ^tr0000000001 on 3 lines: CLAUDE.local.md line 1, CLAUDE.local.md line 2, "
          "memory/archive/2025/q4/old.md line 2");
  }
  CHECK(findings[0].path == "CLAUDE.local.md");
  CHECK(findings[0].line == 2);
  CHECK(findings[1].path == "memory/archive/2025/q4/old.md");
  CHECK(findings[1].line == 2);
}

TEST_CASE("missing and malformed ids are reported before duplicates, warnings last",
          "[recall][gate]") {
  const std::vector<ParsedFile> files{
      parse("CLAUDE.local.md", "- a ^tr0000000001\n- b ^tr0000000001\n- c\n## h ^tr0000000009\n"),
      parse("memory/registers/x.md", "- d ^trABCDEF0123\n"),
  };
  CHECK(checks_of(gv::recall::id_findings(files)) ==
        std::vector<std::string>{"missing-id", "malformed-id", "duplicate-id", "ignored-id"});
}

TEST_CASE("maintain refuses on missing ids, counting malformed ones and listing them",
          "[recall][gate]") {
  const std::vector<ParsedFile> files{
      parse("CLAUDE.local.md", "- a\n- b ^tr0000000001\n- c ^tr0000000001\n"),
      parse("memory/registers/x.md", "\n- d ^tr12345\n"),
  };
  const auto gate = gv::recall::evaluate_id_gate(files);
  CHECK(gate.missing_count() == 2);
  // Duplicates exist too, but the missing-id refusal comes first and is the only one shown.
  CHECK(gv::recall::maintain_refusal(gate) ==
        "Cannot run maintain: 2 entries are missing IDs.\n"
        "Run git vault recall init-ids --yes first to tag all entries.\n"
        "  malformed: registers/x.md line 2\n");
}

TEST_CASE("maintain's refusal keeps the literal plural for one entry", "[recall][gate]") {
  const std::vector<ParsedFile> files{parse("CLAUDE.local.md", "- [x] Done thing\n")};
  CHECK(gv::recall::maintain_refusal(gv::recall::evaluate_id_gate(files)) ==
        "Cannot run maintain: 1 entries are missing IDs.\n"
        "Run git vault recall init-ids --yes first to tag all entries.\n");
}

TEST_CASE("maintain refuses on duplicates with one block per id in first-seen order",
          "[recall][gate]") {
  const std::vector<ParsedFile> files{
      parse("CLAUDE.local.md", "- a ^tr00000000bb\n- b ^tr00000000aa\n- c ^tr00000000cc\n"),
      parse("memory/registers/preferences.md", "- d ^tr00000000aa\n- e ^tr00000000cc\n"),
      parse("memory/archive/2025/q4/old.md", "- f ^tr00000000bb\n- g ^tr00000000aa\n"),
  };
  const auto gate = gv::recall::evaluate_id_gate(files);
  REQUIRE(gate.duplicates.size() == 3);
  CHECK(gv::recall::maintain_refusal(gate) ==
        "Cannot run maintain: duplicate ID found.\n"
        "ID: ^tr00000000bb\n"
        "  1. CLAUDE.local.md line 1\n"
        "  2. archive/2025/q4/old.md line 1\n"
        "ID: ^tr00000000aa\n"
        "  1. CLAUDE.local.md line 2\n"
        "  2. registers/preferences.md line 1\n"
        "  3. archive/2025/q4/old.md line 2\n"
        "ID: ^tr00000000cc\n"
        "  1. CLAUDE.local.md line 3\n"
        "  2. registers/preferences.md line 2\n"
        "Resolve manually before running maintain.\n");
}

TEST_CASE("ids inside code blocks and comments never count as duplicates", "[recall][gate]") {
  const std::vector<ParsedFile> files{
      parse("CLAUDE.local.md",
            "- a ^tr0000000001\n```\n- a ^tr0000000001\n```\n<!-- - a ^tr0000000001 -->\n")};
  CHECK(gv::recall::evaluate_id_gate(files).passes());
}

TEST_CASE("a long entry text is shortened in the missing-id message", "[recall][gate]") {
  const std::string text(70, 'x');
  const std::vector<ParsedFile> files{parse("CLAUDE.local.md", "- " + text + "\n")};
  const auto findings = gv::recall::id_findings(files);
  REQUIRE(findings.size() == 1);
  CHECK(findings[0].message == "entry has no id: \"" + std::string(60, 'x') + "…\"");
}

}  // namespace recall_gate_test
