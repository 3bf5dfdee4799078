#include <catch2/catch.hpp>
#include <deque>

#include "core/error.hpp"
#include "core/recall/ids.hpp"

namespace recall_ids_test {

namespace {

using gv::recall::InitIdsPlan;
using gv::recall::ParsedFile;

ParsedFile parse(std::string path, std::string bytes) {
  gv::recall::ManagedFile file{path, gv::recall::display_path(path), *gv::recall::tier_of(path)};
  return gv::recall::parse_file(std::move(file), std::move(bytes));
}

// Yields the given 5-byte groups in order, then counts upward from 0x0100000000, so every id
// a test sees is known in advance.
gv::recall::RandomSource scripted(std::vector<std::array<unsigned char, 5>> script) {
  auto queue =
      std::make_shared<std::deque<std::array<unsigned char, 5>>>(script.begin(), script.end());
  auto counter = std::make_shared<unsigned>(0);
  return [queue, counter](std::span<unsigned char> out) {
    REQUIRE(out.size() == 5);
    std::array<unsigned char, 5> bytes{0x01, 0, 0, 0, 0};
    if (!queue->empty()) {
      bytes = queue->front();
      queue->pop_front();
    } else {
      bytes[4] = static_cast<unsigned char>((*counter)++);
    }
    std::copy(bytes.begin(), bytes.end(), out.begin());
  };
}

}  // namespace

TEST_CASE("an id is tr plus the hex of five random bytes", "[recall][ids]") {
  std::set<std::string> taken;
  const auto random = scripted({{0x8f, 0x2a, 0x1c, 0x3d, 0x7e}});
  CHECK(gv::recall::generate_id(random, taken) == "tr8f2a1c3d7e");
  CHECK(taken.count("tr8f2a1c3d7e") == 1);
}

TEST_CASE("a generated id that is already taken is regenerated", "[recall][ids]") {
  std::set<std::string> taken{"tr0000000001"};
  const auto random = scripted({{0, 0, 0, 0, 1}, {0, 0, 0, 0, 2}});
  CHECK(gv::recall::generate_id(random, taken) == "tr0000000002");
}

TEST_CASE("a random source that only repeats taken ids is an error, not a hang", "[recall][ids]") {
  std::set<std::string> taken{"tr0000000000"};
  const gv::recall::RandomSource stuck = [](std::span<unsigned char> out) {
    std::fill(out.begin(), out.end(), 0);
  };
  CHECK_THROWS_AS(gv::recall::generate_id(stuck, taken), gv::Error);
}

TEST_CASE("the content random source gives valid, distinct ids, the same for the same files",
          "[recall][ids]") {
  const std::vector<ParsedFile> files{parse("CLAUDE.local.md", "# Working Memory\n\n- foo\n")};
  const auto draw = [](const std::vector<ParsedFile>& from, std::string_view metadata) {
    std::set<std::string> taken;
    const auto random = gv::recall::content_random_source(from, metadata);
    const std::string a = gv::recall::generate_id(random, taken);
    return std::pair{a, gv::recall::generate_id(random, taken)};
  };
  const auto [a, b] = draw(files, "{}");
  CHECK(gv::recall::is_valid_id(a));
  CHECK(gv::recall::is_valid_id(b));
  CHECK(a != b);
  CHECK(draw(files, "{}") == std::pair{a, b});  // what a dry run shows is what is written
  CHECK(draw(files, "{ }").first != a);
  CHECK(draw({parse("CLAUDE.local.md", "# Working Memory\n\n- fob\n")}, "{}").first != a);
  CHECK(draw({parse("memory/registers/x.md", "# Working Memory\n\n- foo\n")}, "{}").first != a);
}

TEST_CASE("init-ids appends an id to untagged entries and changes nothing else", "[recall][ids]") {
  const std::vector<ParsedFile> files{parse("CLAUDE.local.md",
                                            "# Working Memory\n\n- keep ^tr00000000aa\n- foo   "
                                            "\n<!-- - template -->\n- [None yet]\n- bar\n")};
  const InitIdsPlan plan = gv::recall::plan_init_ids(files, {}, scripted({}));
  REQUIRE(plan.rewrites.size() == 1);
  CHECK(plan.rewrites[0].bytes ==
        "# Working Memory\n\n- keep ^tr00000000aa\n- foo ^tr0100000000\n<!-- - template -->\n"
        "- [None yet]\n- bar ^tr0100000001\n");
  CHECK(plan.rewrites[0].tagged == 2);
  CHECK(plan.already_tagged == 1);
  CHECK(plan.malformed == 0);
  REQUIRE(plan.tagged.size() == 2);
  CHECK(plan.tagged[0].line == 4);
  CHECK(plan.tagged[0].before == "- foo   ");
  CHECK(plan.tagged[0].after == "- foo ^tr0100000000");
  CHECK(plan.tagged[1].line == 7);
  CHECK(plan.tagged[1].id == "tr0100000001");
}

TEST_CASE("init-ids keeps CRLF, mixed endings and a missing final newline", "[recall][ids]") {
  const std::vector<ParsedFile> files{
      parse("CLAUDE.local.md", "- a\r\n- b\n- c ^tr00000000aa\r\n- d")};
  const InitIdsPlan plan = gv::recall::plan_init_ids(files, {}, scripted({}));
  REQUIRE(plan.rewrites.size() == 1);
  CHECK(plan.rewrites[0].bytes ==
        "- a ^tr0100000000\r\n- b ^tr0100000001\n- c ^tr00000000aa\r\n- d ^tr0100000002");
}

TEST_CASE("init-ids keeps a BOM", "[recall][ids]") {
  const std::vector<ParsedFile> files{parse("CLAUDE.local.md", "\xEF\xBB\xBF- a\n")};
  const InitIdsPlan plan = gv::recall::plan_init_ids(files, {}, scripted({}));
  REQUIRE(plan.rewrites.size() == 1);
  CHECK(plan.rewrites[0].bytes == "\xEF\xBB\xBF- a ^tr0100000000\n");
}

TEST_CASE("init-ids leaves malformed lines alone and warns", "[recall][ids]") {
  const std::vector<ParsedFile> files{
      parse("CLAUDE.local.md", "- foo ^tr0123456789 bar\n- x ^tr12345\n")};
  const InitIdsPlan plan = gv::recall::plan_init_ids(files, {}, scripted({}));
  CHECK(plan.rewrites.empty());
  CHECK(plan.tagged.empty());
  CHECK(plan.malformed == 2);
  REQUIRE(plan.findings.size() == 2);
  CHECK(plan.findings[0].check == "malformed-id");
  CHECK(plan.findings[0].severity == gv::Severity::warning);
}

TEST_CASE("a second init-ids run changes nothing", "[recall][ids]") {
  const std::vector<ParsedFile> first{parse("CLAUDE.local.md", "- a\n- b  \n")};
  const InitIdsPlan plan = gv::recall::plan_init_ids(first, {}, scripted({}));
  REQUIRE(plan.rewrites.size() == 1);
  const std::vector<ParsedFile> second{parse("CLAUDE.local.md", plan.rewrites[0].bytes)};
  const InitIdsPlan again = gv::recall::plan_init_ids(second, {}, scripted({}));
  CHECK(again.rewrites.empty());
  CHECK(again.tagged.empty());
  CHECK(again.already_tagged == 2);
}

TEST_CASE("new ids avoid inline ids, ids on ignored lines and metadata keys", "[recall][ids]") {
  const std::vector<ParsedFile> files{
      parse("CLAUDE.local.md", "- a ^tr0000000001\n## h ^tr0000000002\n- b\n")};
  // The script offers every taken id before a free one.
  const auto random =
      scripted({{0, 0, 0, 0, 1}, {0, 0, 0, 0, 2}, {0, 0, 0, 0, 3}, {0, 0, 0, 0, 4}});
  const InitIdsPlan plan = gv::recall::plan_init_ids(files, {"tr0000000003"}, random);
  REQUIRE(plan.tagged.size() == 1);
  CHECK(plan.tagged[0].id == "tr0000000004");
}

TEST_CASE("ids made in one run are unique among themselves", "[recall][ids]") {
  const std::vector<ParsedFile> files{parse("CLAUDE.local.md", "- a\n- b\n")};
  const auto random = scripted({{0, 0, 0, 0, 7}, {0, 0, 0, 0, 7}, {0, 0, 0, 0, 8}});
  const InitIdsPlan plan = gv::recall::plan_init_ids(files, {}, random);
  REQUIRE(plan.tagged.size() == 2);
  CHECK(plan.tagged[0].id == "tr0000000007");
  CHECK(plan.tagged[1].id == "tr0000000008");
}

TEST_CASE("init-ids reports every inline id with its file's tier", "[recall][ids]") {
  const std::vector<ParsedFile> files{
      parse("CLAUDE.local.md", "- a ^tr00000000aa\n- b\n"),
      parse("memory/archive/ARCHIVE.md", "- c ^tr00000000bb\n"),
  };
  const InitIdsPlan plan = gv::recall::plan_init_ids(files, {}, scripted({}));
  REQUIRE(plan.inline_ids.size() == 3);
  CHECK(plan.inline_ids[0].id == "tr00000000aa");
  CHECK(plan.inline_ids[1].id == "tr0100000000");
  CHECK(plan.inline_ids[1].tier == gv::recall::Tier::working);
  CHECK(plan.inline_ids[2].tier == gv::recall::Tier::archive);
  CHECK(plan.files_scanned == 2);
}

TEST_CASE("preview examples go round-robin over files, at most five", "[recall][ids]") {
  const std::vector<ParsedFile> files{
      parse("CLAUDE.local.md", "- w1\n- w2\n- w3\n"),
      parse("memory/registers/people.md", "- p1\n- p2\n"),
      parse("memory/registers/tech.md", "- t1\n- t2\n"),
  };
  const InitIdsPlan plan = gv::recall::plan_init_ids(files, {}, scripted({}));
  REQUIRE(plan.tagged.size() == 7);
  std::vector<std::string> shown;
  for (const auto& example : gv::recall::preview_examples(plan)) {
    shown.push_back(example.before);
  }
  CHECK(shown == std::vector<std::string>{"- w1", "- p1", "- t1", "- w2", "- p2"});
  CHECK(gv::recall::preview_examples(plan, 10).size() == 7);
}

}  // namespace recall_ids_test
