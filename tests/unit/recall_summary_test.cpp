#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "core/recall/entry.hpp"
#include "core/recall/summary.hpp"

namespace recall_summary_test {

using gv::recall::ManagedFile;
using gv::recall::parse_file;
using gv::recall::Tier;

TEST_CASE("a working memory in numbers, and its report section", "[recall][summary]") {
  std::vector<gv::recall::ParsedFile> files;
  files.push_back(parse_file({"CLAUDE.local.md", "CLAUDE.local.md", Tier::working},
                             "# W\n\n- Prefers tabs over spaces ^tr0000000001\n- No id yet\n"));
  files.push_back(parse_file({"memory/registers/d.md", "registers/d.md", Tier::register_},
                             "# D\n\n- Use uv ^tr0000000002\n- bad ^tr12\n"));
  const gv::recall::WorkingSummary summary = gv::recall::summarize(files);
  CHECK(summary.files == 2);
  CHECK(summary.entries == 4);
  CHECK(summary.working_entries == 2);
  CHECK(summary.register_entries == 2);
  CHECK(summary.untagged == 1);
  CHECK(summary.malformed == 1);
  CHECK(summary.working_words == 4);  // the tagged working entry only

  const std::string section = gv::recall::render_markdown(summary, 3);
  CHECK_THAT(section, Catch::StartsWith("\n---\n\n### Working Memory\n\n"));
  CHECK_THAT(section, Catch::Contains("**Working tier**: 4 words of a 3-word budget (over it)\n"));
  CHECK_THAT(section, Catch::Contains("**Without a valid id**: 2 entries"));
  CHECK(gv::recall::render_markdown({}, 1500).empty());
}

}  // namespace recall_summary_test
