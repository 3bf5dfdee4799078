#include <catch2/catch.hpp>
#include <string>

#include "core/distill/refine_rules.hpp"
#include "core/memory/parse.hpp"

namespace distill_refine_test {

using gv::distill::RefineFixes;
using gv::distill::RefineSubject;
using nlohmann::ordered_json;

namespace {

RefineSubject subject(const std::string& id, const std::string& bytes) {
  const std::string path = ".memory/10-Memories/" + id + ".md";
  gv::ParsedMemory parsed = gv::parse_memory(path, bytes, "0");
  REQUIRE(parsed.memory);
  return RefineSubject{*parsed.memory, bytes};
}

gv::Date day(const char* text) { return *gv::parse_date(text); }

const std::string k_messy =
    "---\n"
    "title: \"Retry\"\n"
    "created: 2026-01-10\n"
    "tags: [PATTERN]\n"
    "topic: \"/Python/Libs/\"  # keep me\n"
    "source: \"user input\"\n"
    "modified: 2026-02-01\n"
    "keywords:\n"
    "  - retry\n"
    "  - Backoff\n"
    "  - RETRY\n"
    "  - backoff \n"
    "summary: \"\"\n"
    "retrieval_count: 3\n"
    "last_retrieved: null\n"
    "---\n"
    "\n"
    "# Retry\n"
    "\n"
    "- Wrap flaky HTTP calls in a retry loop.\n"
    "\n"
    "## Connections\n"
    "- [[MEM-other]]\n";

}  // namespace

TEST_CASE("keyword dedup keeps the first spelling of each keyword", "[distill][refine]") {
  using gv::distill::dedupe_keywords;
  CHECK(dedupe_keywords({"Retry", "backoff", "retry", " BACKOFF", "jitter"}) ==
        std::vector<std::string>{"Retry", "backoff", "jitter"});
  CHECK(dedupe_keywords({}).empty());
}

TEST_CASE("topic normalisation lower-cases and cleans the separators", "[distill][refine]") {
  using gv::distill::normalize_topic;
  CHECK(normalize_topic("/Python/Libs/") == "python/libs");
  CHECK(normalize_topic("python\\libs\\requests") == "python/libs/requests");
  CHECK(normalize_topic("python // libs") == "python/libs");
  CHECK(normalize_topic("git workflow/Rebase") == "git workflow/rebase");
  CHECK(normalize_topic("lua/patterns") == "lua/patterns");
  CHECK(normalize_topic("/") == "");
  CHECK(normalize_topic("") == "");
}

TEST_CASE("a summary comes from the first line of content after the title", "[distill][refine]") {
  using gv::distill::summary_from_body;
  CHECK(summary_from_body("\n# Title\n\nFirst line here.\nSecond.\n") == "First line here.");
  CHECK(summary_from_body("\n# Title\n\n## Sub\n- item one\n") == "item one");
  CHECK(summary_from_body("\n# T\n<!-- note\nstill -->\n```\ncode\n```\n> 1. quoted\n") ==
        "quoted");
  CHECK(summary_from_body("\n# Title\n\n## Connections\n- [[MEM-x]]\n") == std::nullopt);
  CHECK(summary_from_body("No title line at all\n") == "No title line at all");

  const std::string long_line(150, 'x');
  CHECK(summary_from_body("# T\n" + long_line + "\n") == std::string(100, 'x'));
  // 99 ASCII characters and a two-byte character fit in 100 code points; the rest is cut.
  const std::string accented = std::string(99, 'a') + "\xC3\xA9" + "zzz";
  CHECK(summary_from_body("# T\n" + accented + "\n") == std::string(99, 'a') + "\xC3\xA9");
}

TEST_CASE("content terms are frequent long words that are not stop words", "[distill][refine]") {
  using gv::distill::content_terms;
  const std::string text =
      "Retry the request. Retry with backoff; backoff doubles. Jitter jitter jitter. "
      "Between between between. Session once. Token-bucket token-bucket. abc abc abc.";
  CHECK(content_terms(text, 5) ==
        std::vector<std::string>{"jitter", "retry", "backoff", "token-bucket"});
  CHECK(content_terms(text, 2) == std::vector<std::string>{"jitter", "retry"});
  CHECK(content_terms("", 5).empty());
}

TEST_CASE("the cue-words rule names a category only on clear evidence", "[distill][refine]") {
  using gv::distill::infer_category;
  const std::string config_text = "Configure the plugin settings; the config option and setup.";
  const auto guess = infer_category(config_text, "PATTERN");
  REQUIRE(guess);
  CHECK(guess->category == "CONFIG");
  CHECK(guess->hits.at("CONFIG") == 6);  // configure, plugin, settings, config, option, setup
  CHECK_FALSE(infer_category(config_text, "config"));      // already CONFIG (case-insensitive)
  CHECK_FALSE(infer_category("config setup", "PATTERN"));  // two hits are not enough
  // Tied categories give no answer.
  CHECK_FALSE(infer_category("config setup option pattern design structure", "INSIGHT"));
  // The current category must be beaten by at least two.
  CHECK_FALSE(infer_category("config setup option pattern design", "PATTERN"));
}

TEST_CASE("topic suggestions follow known paths and keyword neighbours", "[distill][refine]") {
  using gv::distill::suggest_topic;
  gv::Memory lone;
  lone.id = "MEM-lone";
  lone.topic = "requests";
  lone.keywords = {"http", "retry", "session"};
  gv::Memory filed;
  filed.id = "MEM-filed";
  filed.topic = "python/libs/requests";
  filed.keywords = {"http", "retry"};
  gv::Memory other;
  other.id = "MEM-other";
  other.topic = "lua/patterns";
  other.keywords = {"retry", "session", "http"};

  const auto path = suggest_topic(lone, {filed, lone, other});
  REQUIRE(path);
  CHECK(path->topic == "python/libs/requests");
  CHECK_THAT(path->rule, Catch::StartsWith("known-path:"));

  gv::Memory empty = lone;
  empty.id = "MEM-empty";
  empty.topic = "";
  const auto neighbour = suggest_topic(empty, {filed, other});
  REQUIRE(neighbour);
  CHECK(neighbour->topic == "lua/patterns");  // three shared keywords beat two
  CHECK(neighbour->rule == "keyword-neighbour: shares 3 keywords with MEM-other");

  CHECK_FALSE(suggest_topic(filed, {filed, lone, other}));  // a full path is left alone
  gv::Memory twice = filed;
  twice.id = "MEM-twice";
  twice.topic = "go/requests";
  CHECK_FALSE(suggest_topic(lone, {filed, twice, lone}));  // two paths: ambiguous
}

TEST_CASE("an explicit category field is recognised only when it has a value",
          "[distill][refine]") {
  using gv::distill::has_explicit_category;
  CHECK(has_explicit_category("---\ntitle: \"a\"\ncategory: preference\n---\n"));
  CHECK_FALSE(has_explicit_category("---\ntitle: \"a\"\ncategory:\n---\n"));
  CHECK_FALSE(has_explicit_category("---\ntitle: \"a\"\ntags: [CONFIG]\n---\n"));
  CHECK_FALSE(has_explicit_category("no frontmatter"));
}

TEST_CASE("refine finds Tier 1 fixes and Tier 2 suggestions on what Tier 1 leaves",
          "[distill][refine]") {
  const RefineFixes fixes = gv::distill::find_refine_fixes({subject("MEM-retry", k_messy)});
  REQUIRE(fixes.tier1.size() == 3);
  CHECK(fixes.tier1[0].fix == "keyword_dedup");
  CHECK(fixes.tier1[0].outcome == "Removed 2 duplicate keywords");
  CHECK(fixes.tier1[0].after == ordered_json({"retry", "Backoff"}));
  CHECK(fixes.tier1[1].fix == "summary_gen");
  CHECK(fixes.tier1[1].after == "Wrap flaky HTTP calls in a retry loop.");
  CHECK(fixes.tier1[2].fix == "topic_normalize");
  CHECK(fixes.tier1[2].before == "/Python/Libs/");
  CHECK(fixes.tier1[2].after == "python/libs");
  // Two keywords after dedup, but the only content word seen twice is `retry`, a keyword
  // already: no enrichment.
  CHECK(fixes.tier2.empty());
}

TEST_CASE("applying refine fixes edits only the fields it fixes", "[distill][refine]") {
  const std::vector<RefineSubject> subjects{subject("MEM-retry", k_messy)};
  const RefineFixes fixes = gv::distill::find_refine_fixes(subjects);
  const auto edits = gv::distill::apply_refine_fixes(subjects, fixes, {}, day("2026-11-30"));
  REQUIRE(edits.files.size() == 1);
  CHECK(edits.files.at(".memory/10-Memories/MEM-retry.md") ==
        "---\n"
        "title: \"Retry\"\n"
        "created: 2026-01-10\n"
        "tags: [PATTERN]\n"
        "topic: \"python/libs\"  # keep me\n"
        "source: \"user input\"\n"
        "modified: 2026-11-30\n"
        "keywords:\n"
        "  - retry\n"
        "  - Backoff\n"
        "summary: \"Wrap flaky HTTP calls in a retry loop.\"\n"
        "retrieval_count: 3\n"
        "last_retrieved: null\n"
        "---\n"
        "\n"
        "# Retry\n"
        "\n"
        "- Wrap flaky HTTP calls in a retry loop.\n"
        "\n"
        "## Connections\n"
        "- [[MEM-other]]\n");
  CHECK(edits.affected == ordered_json::parse(R"([{"id": "MEM-retry",
          "fixes_applied": ["keyword_dedup", "summary_gen", "topic_normalize"],
          "action": "refined"}])"));
  CHECK(edits.tier1_count == 3);
  CHECK(edits.tier2_count == 0);
}

TEST_CASE("selected Tier 2 fixes are applied and unselected ones are not", "[distill][refine]") {
  const std::string file =
      "---\n"
      "title: \"Editor setup\"\n"
      "created: 2026-03-01\n"
      "tags: [PATTERN, STANDARD]\n"
      "topic: \"neovim\"\n"
      "keywords: [lazy]\n"
      "summary: \"How the editor is set up\"\n"
      "---\n"
      "\n"
      "# Editor setup\n"
      "\n"
      "Install the plugin manager, then configure each plugin. Plugin settings live in one\n"
      "config file; every option has a default. Keymaps: the keymap table.\n";
  const std::string other =
      "---\ntitle: \"Other\"\ncreated: 2026-03-01\ntags: [CONFIG]\ntopic: \"tools/neovim\"\n"
      "keywords: [x]\nsummary: \"s\"\n---\n\n# Other\n\nText.\n";
  const std::vector<RefineSubject> subjects{subject("MEM-editor", file),
                                            subject("MEM-other", other)};
  const RefineFixes fixes = gv::distill::find_refine_fixes(subjects);
  CHECK(fixes.tier1.empty());
  REQUIRE(fixes.tier2.size() == 3);
  CHECK(fixes.tier2[0].key() == "MEM-editor:keywords");
  CHECK(fixes.tier2[0].suggested == ordered_json({"plugin"}));
  CHECK(fixes.tier2[1].key() == "MEM-editor:category");
  CHECK(fixes.tier2[1].current == "PATTERN");
  CHECK(fixes.tier2[1].suggested == "CONFIG");
  // setup, install, plugin x3, configure, settings, config, option, keymaps, keymap
  CHECK(fixes.tier2[1].rule == "cue-words: CONFIG 11, PATTERN 0");
  CHECK(fixes.tier2[2].key() == "MEM-editor:topic");
  CHECK(fixes.tier2[2].suggested == "tools/neovim");

  const auto edits = gv::distill::apply_refine_fixes(
      subjects, fixes, {"MEM-editor:keywords", "MEM-editor:category"}, day("2026-11-30"));
  REQUIRE(edits.files.size() == 1);
  CHECK(edits.files.at(".memory/10-Memories/MEM-editor.md") ==
        "---\n"
        "title: \"Editor setup\"\n"
        "created: 2026-03-01\n"
        "tags: [CONFIG, STANDARD]\n"
        "topic: \"neovim\"\n"
        "modified: 2026-11-30\n"
        "keywords: [lazy, plugin]\n"
        "summary: \"How the editor is set up\"\n"
        "---\n" +
            file.substr(file.find("\n# Editor")));
  CHECK(edits.affected[0]["fixes_applied"] ==
        ordered_json({"keyword_enrich", "category_reclassify"}));
  CHECK(edits.tier2_count == 2);
}

TEST_CASE("a memory with an explicit category is never reclassified", "[distill][refine]") {
  const std::string file =
      "---\ntitle: \"Prefs\"\ncreated: 2026-03-01\ncategory: preference\ntags: [PATTERN]\n"
      "keywords: [a, b, c, d]\nsummary: \"s\"\ntopic: \"email/preferences/x\"\n---\n\n# Prefs\n\n"
      "config config config setup setup option option\n";
  const RefineFixes fixes = gv::distill::find_refine_fixes({subject("MEM-prefs", file)});
  CHECK(fixes.tier1.empty());
  CHECK(fixes.tier2.empty());
}

TEST_CASE("the Tier 1 table lists one row per fix", "[distill][refine]") {
  const RefineFixes fixes = gv::distill::find_refine_fixes({subject("MEM-retry", k_messy)});
  CHECK(gv::distill::render_tier1_table(fixes.tier1) ==
        "## Tier 1 Automatic Fixes\n"
        "\n"
        "| Memory | Fix | Description |\n"
        "|--------|-----|-------------|\n"
        "| MEM-retry | keyword_dedup | Removed 2 duplicate keywords |\n"
        "| MEM-retry | summary_gen | Generated summary from content |\n"
        "| MEM-retry | topic_normalize | Normalized topic path |\n");
}

}  // namespace distill_refine_test
