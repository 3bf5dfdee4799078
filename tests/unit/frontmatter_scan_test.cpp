#include "core/memory/frontmatter_scan.hpp"

#include <catch2/catch.hpp>
#include <cstdint>
#include <random>
#include <string>
#include <variant>
#include <vector>

#include "core/memory/frontmatter.hpp"

namespace gv::frontmatter_scan_test {
namespace {

// yaml-cpp's reading of a block, the way parse_memory takes it: nullopt when yaml-cpp rejects it.
std::optional<FlatFrontmatter> reference(const std::string& block) {
  const std::string file =
      "---\n" + block + (block.empty() || block.back() == '\n' ? "" : "\n") + "---\nbody\n";
  const FrontmatterSplit split = split_frontmatter(file);
  REQUIRE(split.status == FrontmatterStatus::ok);
  auto loaded = load_frontmatter(file, split);
  if (std::holds_alternative<FrontmatterError>(loaded)) {
    return std::nullopt;
  }
  return flatten_frontmatter(std::get<YAML::Node>(loaded), split.block(file));
}

std::string describe(const FlatFrontmatter& fields) {
  std::string out;
  for (const FlatField& field : fields) {
    out += field.key + " kind " + std::to_string(static_cast<int>(field.value.kind)) +
           (field.value.quoted ? " quoted" : "") + " [" + field.value.text + "]";
    for (const FlatItem& item : field.value.items) {
      out += " item " + std::to_string(static_cast<int>(item.kind)) + " [" + item.text + "]";
    }
    out += "\n";
  }
  return out;
}

// The scanner's promise: when it reads a block, yaml-cpp reads it too, to the same fields.
// Returns whether the fast path took the block.
bool check_agrees(const std::string& block) {
  const std::optional<FlatFrontmatter> scanned = scan_flat_frontmatter(block);
  if (!scanned) {
    return false;
  }
  INFO("block:\n" << block);
  const std::optional<FlatFrontmatter> expected = reference(block);
  REQUIRE(expected.has_value());
  INFO("scanner:\n" << describe(*scanned) << "yaml-cpp:\n" << describe(*expected));
  REQUIRE(*scanned == *expected);
  return true;
}

TEST_CASE("the frontmatter scanner reads the flat shapes as yaml-cpp does", "[frontmatter]") {
  const char* const blocks[] = {
      "",
      "# only a comment\n\n",
      "title: \"Alpha\"\ncreated: 2026-11-20\ntags: [PATTERN]\ntopic: \"python/x\"\n"
      "source: \"user input\"\nmodified: 2026-11-20\nkeywords: [a, b, c, d, e]\n"
      "summary: \"Alpha summary\"\nretrieval_count: 0\nlast_retrieved: null\n",
      "title: Plain title with 'quotes' and \"more\"\nkeywords:\n  - one\n  - two  # note\n"
      "  -\n  - ~\n",
      "keywords:\n- col0\n- \"quoted # not a comment\"\n\n- 'it''s'\nnext: value\n",
      "topic: \"task-635\"  # task-ref-ok inline, category 7\nempty:\nnulls: ~\nN: Null\n",
      "title: \"esc \\\" and \\\\ kept\"\nsingle: 'a \"b\" \\n'\n",
      "list: []\nspaced: [ a , 'b c' ,\"d\" ]   # c\nnull_items: [~, null, x]\n",
      "title: a#b c # comment\nurl: http://example.com/a:b\ncolon: a :b\n",
      "title: \"unicode é ü 漢字\"\nplain: naïve café\n",
      "title: x\r\ncreated: 2026-01-01\r\nkeywords:\r\n  - a\r\n",
      "key: value  \nother:    spaced   out   \n",
      "brackets: a [b] {c}, d\n",
      "title: \" Ends in space \"\nsummary: ' lead'\ntopic:   plain  \nstatus: \"active\"\n",
  };
  for (const char* block : blocks) {
    INFO(block);
    CHECK(check_agrees(block));
  }
}

TEST_CASE("the frontmatter scanner leaves everything else to yaml-cpp", "[frontmatter]") {
  const char* const blocks[] = {
      "title: a: b\n",              // a mapping inside a value
      "title: x\ntitle: y\n",       // a repeated key
      "nested:\n  a: 1\n",          // a nested mapping
      "summary: one\n  two\n",      // a continued plain scalar
      "summary: |\n  text\n",       // a block scalar
      "title: &a x\nother: *a\n",   // anchors and aliases
      "title: !!str x\n",           // a tag
      "title: \"a\\nb\"\n",         // an escape other than \" and \\ .
      "title: \"open\n  more\"\n",  // a multi-line quoted scalar
      "keys: [a,\n  b]\n",          // a multi-line flow list
      "keys: [a, [b]]\n",           // a nested list
      "tags: [a[b]]\n",             // a bracket inside a flow item
      "keys: [a, b, ]\n",           // a trailing comma
      "map: {a: 1}\n",              // a flow mapping
      "\ttitle: x\n",               // a tab
      "  title: x\n",               // an indented mapping
      "\"title\": x\n",             // a quoted key
      "keys:\n  - a\n    - b\n",    // uneven items
      "keys:\n  - - a\n",           // a nested sequence
      "keys:\n  - a: b\n",          // a mapping in a list
      "title: -x\n",                // indicators in front of a plain scalar
      "title: x\n- stray\n",        // an item after a scalar
      "title: \"x\" y\n",           // text after a quoted scalar
      "title: x\xC2\x85y\n",        // NEL, a YAML line break
      "just text\n",                // not a mapping
  };
  for (const char* block : blocks) {
    INFO(block);
    CHECK_FALSE(scan_flat_frontmatter(block).has_value());
  }
}

// Random blocks built from the pieces frontmatter is written with, tricky ones included: each
// that the scanner takes must read as yaml-cpp reads it.
class BlockMaker {
 public:
  explicit BlockMaker(std::uint32_t seed) : m_random(seed) {}

  std::string block() {
    std::string out;
    const int fields = pick(0, 8);
    for (int f = 0; f < fields; ++f) {
      if (chance(8)) {
        out += pick_of({"\n", "# comment\n", "  # indented comment\n", "   \n"});
      }
      out += key() + pick_of({":", ":", ": ", ":  ", ":x"});
      out += value();
      if (chance(3)) {
        out.pop_back();  // the last line without its newline
        out += "\r\n";
      }
    }
    if (chance(10) && !out.empty()) {
      out.pop_back();  // no final newline
    }
    return out;
  }

 private:
  int pick(int low, int high) { return std::uniform_int_distribution<int>(low, high)(m_random); }
  bool chance(int percent) { return pick(0, 99) < percent; }
  std::string pick_of(std::initializer_list<const char*> options) {
    return *(options.begin() + pick(0, static_cast<int>(options.size()) - 1));
  }

  std::string key() {
    if (chance(5)) {
      return pick_of({"\"title\"", "a b", "<<", "? x", "-k", "k.v", "title ", "Title"});
    }
    return pick_of({"title", "created", "tags", "topic", "keywords", "summary", "status",
                    "retrieval_count", "last_retrieved", "x-y", "k_1", "9"});
  }

  std::string plain() {
    return pick_of({"abc",
                    "Foo bar",
                    "2026-01-01",
                    "null",
                    "~",
                    "Null",
                    "NULL",
                    "nulls",
                    "0",
                    "-1",
                    "a:b",
                    "a: b",
                    "a #c",
                    "a#c",
                    "a [b] c",
                    "a, b",
                    "don't",
                    "say \"hi\"",
                    "\xC3\xA9 \xE6\xBC\xA2",
                    "x:",
                    ": x",
                    "-x",
                    "- x",
                    "?x",
                    "&a",
                    "*a",
                    "!t x",
                    "|",
                    ">",
                    "%x",
                    "@x",
                    "`x`",
                    "{a: 1}",
                    "{}",
                    "a\\b",
                    "yes",
                    ".inf",
                    "x   ",
                    "a\tb",
                    "a  b",
                    "x,",
                    "[",
                    "]",
                    "a]",
                    "#",
                    "\"",
                    "'",
                    "\xC2\x85",
                    "\xEF\xBB\xBFx"});
  }

  std::string quoted() {
    const bool dq = chance(60);
    std::string out(1, dq ? '"' : '\'');
    const int pieces = pick(0, 4);
    for (int i = 0; i < pieces; ++i) {
      out += dq ? pick_of({"a", " b ", "\\\"", "\\\\", "\\n", "\\t", "\\x41", "'", "#", ": ",
                           "\xC3\xA9", "\\"})
                : pick_of({"a", " b ", "''", "\"", "\\", "#", ": ", "\xC3\xA9"});
    }
    if (!chance(5)) {
      out += dq ? '"' : '\'';
    }
    return out;
  }

  std::string scalar() { return chance(40) ? quoted() : plain(); }

  std::string trailing() {
    return chance(80) ? std::string() : pick_of({" # c", "#c", "  #", " x", "   "});
  }

  std::string value() {
    const int shape = pick(0, 9);
    if (shape <= 3) {
      return pick_of({" ", " ", "  ", ""}) + scalar() + trailing() + "\n";
    }
    if (shape <= 5) {  // a flow list
      std::string out = pick_of({" [", " [ ", "  ["});
      const int items = pick(0, 4);
      for (int i = 0; i < items; ++i) {
        if (i > 0) {
          out += pick_of({",", ", ", " , ", ",  "});
        }
        out += chance(10) ? pick_of({"", "[a]", "{}", "a b", " "}) : scalar();
      }
      out += chance(5) ? pick_of({",", ", ", ""}) : "";
      out += chance(95) ? "]" : "";
      return out + trailing() + "\n";
    }
    if (shape <= 8) {  // a block list
      std::string out = chance(20) ? " # list\n" : "\n";
      const std::size_t indent = pick_of({"", "  ", "    "}).size();
      const int items = pick(0, 4);
      for (int i = 0; i < items; ++i) {
        std::string pad(indent, ' ');
        if (chance(5)) {
          pad += " ";
        }
        if (chance(5)) {
          out += "\n";
        }
        if (chance(5)) {
          out += pad + "# comment\n";
        }
        out += pad + (chance(10) ? pick_of({"-", "- ", "- # c", "- - a", "- a: b", "-x"})
                                 : "- " + scalar() + trailing());
        out += "\n";
        if (chance(3)) {
          out += pad + "  continued\n";
        }
      }
      return out;
    }
    return pick_of({"\n  nested: 1\n", " |\n  text\n", " >\n  folded\n", "\n  plain\n"});
  }

  std::mt19937 m_random;
};

TEST_CASE("the frontmatter scanner agrees with yaml-cpp on generated blocks", "[frontmatter]") {
  BlockMaker maker(20261130);
  int scanned = 0;
  const int total = 20000;
  for (int i = 0; i < total; ++i) {
    scanned += check_agrees(maker.block()) ? 1 : 0;
  }
  // Both paths must be exercised for the comparison to mean anything.
  CHECK(scanned > total / 10);
  CHECK(scanned < total * 9 / 10);
}

}  // namespace
}  // namespace gv::frontmatter_scan_test
