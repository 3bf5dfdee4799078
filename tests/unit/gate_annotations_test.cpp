#include <catch2/catch.hpp>
#include <string>

#include "core/gate/annotations.hpp"

namespace gate_annotations_test {

using gv::Finding;
using gv::Severity;

// GitHub reads a workflow command up to the end of its line, its properties up to `,` and `::`;
// the escaping follows the Actions toolkit's escapeData / escapeProperty.

TEST_CASE("workflow command messages escape percent signs and line breaks", "[gate][github]") {
  CHECK(gv::github_escape_data("50% done\r\nnext: a, b") == "50%25 done%0D%0Anext: a, b");
  CHECK(gv::github_escape_data("%0A") == "%250A");  // already escaped-looking text stays text
}

TEST_CASE("workflow command properties also escape colons and commas", "[gate][github]") {
  CHECK(gv::github_escape_property("a,b:c%d\n") == "a%2Cb%3Ac%25d%0A");
}

TEST_CASE("a finding becomes ::error, ::warning or ::notice with its file, line and fix",
          "[gate][github]") {
  Finding finding;
  finding.check = "missing-id";
  finding.path = "CLAUDE.local.md";
  finding.line = 7;
  finding.message = "entry has no id: \"x\"";
  finding.fix = "git vault recall init-ids --yes";
  CHECK(gv::format_github_annotation(finding) ==
        "::error file=CLAUDE.local.md,line=7,title=git-vault [missing-id]::entry has no id: "
        "\"x\"%0Afix: git vault recall init-ids --yes\n");

  finding.severity = Severity::warning;
  finding.line.reset();
  finding.fix.clear();
  CHECK(gv::format_github_annotation(finding, "introduced by abc") ==
        "::warning file=CLAUDE.local.md,title=git-vault [missing-id]::entry has no id: "
        "\"x\"%0Aintroduced by abc\n");

  finding.severity = Severity::note;
  finding.path.clear();
  CHECK(gv::format_github_annotation(finding) ==
        "::notice title=git-vault [missing-id]::entry has no id: \"x\"\n");
}

}  // namespace gate_annotations_test
