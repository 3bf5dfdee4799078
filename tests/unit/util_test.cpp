#include <unistd.h>

#include <catch2/catch.hpp>
#include <filesystem>
#include <nlohmann/json.hpp>

#include "core/error.hpp"
#include "core/util/file.hpp"
#include "core/util/join_some.hpp"
#include "core/util/json_output.hpp"
#include "core/util/shell_word.hpp"
#include "core/util/text.hpp"

namespace util_test {

namespace fs = std::filesystem;
using namespace gv::util;

TEST_CASE("trim removes ASCII whitespace only at the ends", "[util]") {
  CHECK(trim(" \t a b \r\n") == "a b");
  CHECK(trim_left("  x ") == "x ");
  CHECK(trim_right("  x ") == "  x");
  CHECK(trim("") == "");
  CHECK(trim(" \n ") == "");
  CHECK(trim("\xc2\xa0x\xc2\xa0") == "\xc2\xa0x\xc2\xa0");  // NBSP is content, not blank
}

TEST_CASE("valid_utf8 accepts well-formed text and rejects the rest", "[util]") {
  CHECK(valid_utf8("plain"));
  CHECK(valid_utf8("caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80"));
  CHECK_FALSE(valid_utf8("\xff"));
  CHECK_FALSE(valid_utf8("\xc0\xaf"));          // overlong '/'
  CHECK_FALSE(valid_utf8("\xed\xa0\x80"));      // surrogate
  CHECK_FALSE(valid_utf8("\xe2\x82"));          // truncated
  CHECK_FALSE(valid_utf8("\xf4\x90\x80\x80"));  // past U+10FFFF
}

TEST_CASE("utf8_prefix and shorten never cut inside a UTF-8 sequence", "[util]") {
  CHECK(utf8_prefix("caf\xc3\xa9", 10) == "caf\xc3\xa9");
  CHECK(utf8_prefix("caf\xc3\xa9", 5) == "caf\xc3\xa9");
  CHECK(utf8_prefix("caf\xc3\xa9", 4) == "caf");  // the cut would split é
  CHECK(utf8_prefix("\xf0\x9f\x98\x80x", 3).empty());
  CHECK(utf8_prefix("abc", 0).empty());
  CHECK(shorten("abcdef", 6) == "abcdef");
  CHECK(shorten("abcdefg", 6) == "abc\xe2\x80\xa6");           // three bytes and the ellipsis
  CHECK(shorten("a\xc3\xa9\xc3\xa9x", 5) == "a\xe2\x80\xa6");  // not half of é
  CHECK(shorten(std::string(100'000, 'm'), 100).size() <= 100);
}

TEST_CASE("plural picks the noun form from the count", "[util]") {
  CHECK(plural(0, "memory", "memories") == "0 memories");
  CHECK(plural(1, "memory", "memories") == "1 memory");
  CHECK(plural(2, "file", "files") == "2 files");
  CHECK(join({"a", "b", "c"}, ", ") == "a, b, c");
  CHECK(to_lower_ascii("MEM-Ab\xc3\x89") == "mem-ab\xc3\x89");
}

TEST_CASE("join_some names a few parts and counts the rest", "[util]") {
  const std::vector<std::string> parts{"a", "b", "c"};
  CHECK(gv::util::join_some(parts, ", ", 3) == "a, b, c");
  CHECK(gv::util::join_some(parts, ", ", 5) == "a, b, c");
  CHECK(gv::util::join_some(parts, ", ", 2) == "a, b and 1 more");
  CHECK(gv::util::join_some({}, ", ", 2).empty());
}

TEST_CASE("dump_json never throws on bytes that are not UTF-8", "[util]") {
  nlohmann::ordered_json doc{{"schema", 1}, {"message", std::string("bad \xff byte")}};
  const std::string out = dump_json(doc);
  CHECK(out.back() == '\n');
  CHECK(out.find("\n  \"schema\": 1") != std::string::npos);
  const auto parsed = nlohmann::json::parse(out);
  CHECK(parsed["message"] == "bad \xef\xbf\xbd byte");
}

TEST_CASE("a streamed JSON array gives the bytes of the whole document", "[util]") {
  const nlohmann::ordered_json head{{"schema", 1}, {"sub_mode", "merge"}, {"dry_run", true}};
  std::vector<nlohmann::ordered_json> items;
  for (int i = 0; i < 3000; ++i) {
    items.push_back({{"primary", "MEM-" + std::to_string(i)},
                     {"overlap", 0.5 + i / 10000.0},
                     {"shared_keywords", {"a", "b\xff"}},
                     {"empty", nlohmann::ordered_json::array()}});
  }
  for (const std::size_t count : {std::size_t{0}, std::size_t{1}, items.size()}) {
    nlohmann::ordered_json whole = head;
    whole["pairs"] = nlohmann::ordered_json::array();
    for (std::size_t i = 0; i < count; ++i) {
      whole["pairs"].push_back(items[i]);
    }
    std::string streamed;
    std::size_t pieces = 0;
    write_json_streaming_array(
        head, "pairs", count, [&](std::size_t i) { return items[i]; },
        [&](std::string_view text) {
          streamed += text;
          ++pieces;
        });
    CHECK(streamed == dump_json(whole));
    CHECK(pieces >= (count == items.size() ? 2U : 1U));  // written as it goes, not at the end
  }
}

TEST_CASE("write_file_atomic replaces a file and leaves no temporary behind", "[util]") {
  const fs::path dir = fs::temp_directory_path() / ("gv-util-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  const fs::path file = dir / "state.json";
  write_file_atomic(file, "one");
  write_file_atomic(file, "two\n");
  CHECK(read_file(file) == "two\n");
  CHECK(std::distance(fs::directory_iterator(dir), fs::directory_iterator()) == 1);
  CHECK_FALSE(read_file_if_exists(dir / "absent").has_value());
  CHECK_THROWS_WITH(read_file(dir / "absent"), Catch::Contains("absent: cannot read"));
  CHECK_THROWS_WITH(write_file_atomic(dir / "no" / "such" / "dir", "x"),
                    Catch::Contains("cannot write"));
  fs::remove_all(dir);
}

TEST_CASE("a code span is fenced longer than any backticks inside it", "[util]") {
  CHECK(gv::util::code_span("git vault index") == "`git vault index`");
  CHECK(gv::util::code_span("run `git vault migrate` first") ==
        "`` run `git vault migrate` first ``");
  CHECK(gv::util::code_span("a ``b`` c") == "``` a ``b`` c ```");
}

TEST_CASE("shell_word quotes only what a shell would split or expand", "[util]") {
  using gv::util::shell_word;
  CHECK(shell_word(".memory/10-Memories/MEM-a_b.md") == ".memory/10-Memories/MEM-a_b.md");
  CHECK(shell_word(".memory/10-Memories/old notes.md") == "'.memory/10-Memories/old notes.md'");
  CHECK(shell_word("it's $HOME") == "'it'\\''s $HOME'");
  CHECK(shell_word("a*b") == "'a*b'");
  CHECK(shell_word("") == "''");
}

}  // namespace util_test
