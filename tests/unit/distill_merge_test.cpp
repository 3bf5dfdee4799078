#include <fmt/format.h>

#include <catch2/catch.hpp>

#include "core/distill/merge.hpp"
#include "core/memory/parse.hpp"

namespace distill_merge_test {

using gv::Date;
using gv::Memory;
using gv::distill::MergePair;

namespace {

Date date(std::string_view text) { return *gv::parse_date(text); }

// A parsed memory with the fields pairing looks at.
Memory memory(std::string id, std::string_view keywords, std::string_view topic = "net/x",
              int retrievals = 0, std::string_view created = "2026-01-01",
              std::string_view extra = {}) {
  const std::string path = fmt::format(".memory/10-Memories/{}.md", id);
  const std::string bytes = fmt::format(
      "---\ntitle: \"{}\"\ncreated: {}\ntopic: \"{}\"\nkeywords: [{}]\nretrieval_count: {}\n{}---\n"
      "\n# {}\n",
      id, created, topic, keywords, retrievals, extra, id);
  const gv::ParsedMemory parsed = gv::parse_memory(path, bytes, {});
  REQUIRE(parsed.memory);
  return *parsed.memory;
}

Memory parsed(std::string_view path, std::string_view bytes) {
  const gv::ParsedMemory result = gv::parse_memory(path, bytes, {});
  REQUIRE(result.memory);
  return *result.memory;
}

}  // namespace

TEST_CASE("pairs need 60% of the smaller keyword set within one topic cluster", "[merge]") {
  const std::vector<Memory> memories = {
      memory("MEM-a", "a, b, c, d, e"),        // shares a,b,c with MEM-b: 3/5 and 3/4
      memory("MEM-b", "a, b, c, x"),           //
      memory("MEM-c", "a, b", "net/y"),        // same cluster `net`: a,b = 2/2 with a and b
      memory("MEM-d", "a, b, c", "python/x"),  // another cluster: never pairs with net
      memory("MEM-e", "", "net/z"),            // no keywords: never pairs
      memory("MEM-f", "q, r, s"),              // shares nothing
      memory("MEM-g", "a, B, C", "python", 0, "2026-01-01",
             "status: tombstoned\ntombstoned_at: 2026-11-01\n"),  // tombstoned: skipped
  };
  const std::vector<MergePair> pairs = gv::distill::merge_pairs(memories, {});
  REQUIRE(pairs.size() == 3);
  // net, overlap descending: the two 100% pairs (by primary, secondary), then 75%.
  CHECK(pairs[0].cluster == "net");
  CHECK(pairs[0].primary == "MEM-a");  // equal counts and dates: the id first in byte order
  CHECK(pairs[0].secondary == "MEM-c");
  CHECK(pairs[0].overlap == 1.0);
  CHECK(pairs[0].shared_keywords == std::vector<std::string>{"a", "b"});
  CHECK(pairs[1].key() == "MEM-b+MEM-c");
  CHECK(pairs[1].overlap == 1.0);
  CHECK(pairs[2].key() == "MEM-a+MEM-b");
  CHECK(pairs[2].overlap == Approx(0.75));
  CHECK(pairs[2].shared_keywords == std::vector<std::string>{"a", "b", "c"});
}

TEST_CASE("an overlap of exactly 60% pairs and one just below does not", "[merge]") {
  const std::vector<Memory> exactly = {memory("MEM-a", "a, b, c, d, e"),
                                       memory("MEM-b", "a, b, c, x, y")};
  CHECK(gv::distill::merge_pairs(exactly, {}).size() == 1);
  const std::vector<Memory> below = {memory("MEM-a", "a, b, c, d, e, f, g"),
                                     memory("MEM-b", "a, b, c, d, x, y, z")};  // 4/7
  CHECK(gv::distill::merge_pairs(below, {}).empty());
}

TEST_CASE("more pairs than a run may list are refused, as many as it may are listed", "[merge]") {
  // Five memories with one keyword set: ten pairs, all in cluster `net`.
  std::vector<Memory> memories;
  for (const char* id : {"MEM-a", "MEM-b", "MEM-c", "MEM-d", "MEM-e"}) {
    memories.push_back(memory(id, "retry, backoff"));
  }
  CHECK(gv::distill::merge_pairs(memories, {}, 10).size() == 10);
  CHECK_THROWS_WITH(gv::distill::merge_pairs(memories, {}, 9),
                    Catch::StartsWith("merge: more than 9 pairs of memories share at least 60% "
                                      "of their keywords (10 of them among the 5 memories of "
                                      "cluster `net`)") &&
                        Catch::EndsWith("Nothing was changed."));
}

TEST_CASE("keywords pair case-insensitively and repeats count once", "[merge]") {
  const std::vector<Memory> memories = {memory("MEM-a", "Retry, retry, Backoff"),
                                        memory("MEM-b", "retry, backoff, jitter, x")};
  const auto pairs = gv::distill::merge_pairs(memories, {});
  REQUIRE(pairs.size() == 1);
  CHECK(pairs[0].overlap == 1.0);  // {retry, backoff} is all of MEM-a's two keys
  CHECK(pairs[0].shared_keywords == std::vector<std::string>{"backoff", "retry"});
}

TEST_CASE("the primary has more retrievals, then the older created date, then the first id",
          "[merge]") {
  using gv::distill::is_primary;
  using gv::distill::PrimaryFacts;
  CHECK(is_primary(PrimaryFacts{"MEM-z", 5, date("2026-06-01")},
                   PrimaryFacts{"MEM-a", 4, date("2026-01-01")}));
  CHECK_FALSE(is_primary(PrimaryFacts{"MEM-a", 4, date("2026-01-01")},
                         PrimaryFacts{"MEM-z", 5, date("2026-06-01")}));
  CHECK(is_primary(PrimaryFacts{"MEM-z", 4, date("2026-01-01")},
                   PrimaryFacts{"MEM-a", 4, date("2026-01-02")}));
  CHECK(is_primary(PrimaryFacts{"MEM-a", 4, date("2026-01-01")},
                   PrimaryFacts{"MEM-b", 4, date("2026-01-01")}));
  CHECK_FALSE(is_primary(PrimaryFacts{"MEM-b", 4, date("2026-01-01")},
                         PrimaryFacts{"MEM-a", 4, date("2026-01-01")}));
}

TEST_CASE("retrieval counts kept only in the old index decide the primary", "[merge]") {
  const std::vector<Memory> memories = {memory("MEM-a", "a, b", "net", 1),
                                        memory("MEM-b", "a, b", "net", 0)};
  CHECK(gv::distill::merge_pairs(memories, {})[0].primary == "MEM-a");
  gv::scoring::RetrievalOverrides overrides;
  overrides["MEM-b"] = {7, date("2026-11-01")};
  CHECK(gv::distill::merge_pairs(memories, overrides)[0].primary == "MEM-b");
}

TEST_CASE("a large cluster pairs only memories that share keywords", "[merge]") {
  // 2000 memories in one cluster, each with two private keywords, plus one shared pair: the
  // inverted index finds exactly that pair.
  std::vector<Memory> memories;
  for (int i = 0; i < 2000; ++i) {
    memories.push_back(memory(fmt::format("MEM-{:04}", i), fmt::format("k{0}a, k{0}b", i), "big"));
  }
  memories.push_back(memory("MEM-x", "k7a, k7b, extra", "big"));
  const auto pairs = gv::distill::merge_pairs(memories, {});
  REQUIRE(pairs.size() == 1);
  CHECK(pairs[0].key() == "MEM-0007+MEM-x");
}

TEST_CASE("overlap percentages round half up", "[merge]") {
  CHECK(gv::distill::overlap_percent(0.8) == "80%");
  CHECK(gv::distill::overlap_percent(2.0 / 3) == "67%");
  CHECK(gv::distill::overlap_percent(0.6) == "60%");
  CHECK(gv::distill::overlap_percent(0.625) == "63%");
  CHECK(gv::distill::overlap_percent(1.0) == "100%");
}

namespace {

const std::string k_primary =
    "---\n"
    "title: \"Retry policy\"\n"
    "created: 2026-03-01\n"
    "tags: [PATTERN]\n"
    "topic: \"net/retry\"  # kept comment\n"
    "modified: 2026-03-01\n"
    "keywords: [retry, backoff, jitter]\n"
    "summary: \"How to retry\"\n"
    "retrieval_count: 3\n"
    "last_retrieved: 2026-10-01\n"
    "token_count: 10\n"
    "---\n"
    "\n"
    "# Retry policy\n"
    "\n"
    "Retry with exponential backoff.\n"
    "\n"
    "## History\n"
    "\n"
    "### Previous Version (2026-02-01)\n"
    "\n"
    "Old text.\n"
    "\n"
    "## Connections\n"
    "- [[MEM-other]]\n"
    "- [[MEM-s]]\n";

const std::string k_secondary =
    "---\n"
    "title: \"Backoff\"\n"
    "created: 2026-01-15\n"
    "tags: [TECHNIQUE, pattern]\n"
    "topic: \"net/backoff\"\n"
    "modified: 2026-01-15\n"
    "keywords:\n"
    "  - backoff\n"
    "  - Jitter\n"
    "  - timeout\n"
    "summary: \"Backoff\"\n"
    "retrieval_count: 2\n"
    "last_retrieved: 2026-11-01\n"
    "token_count: 8\n"
    "---\n"
    "\n"
    "# Backoff\n"
    "\n"
    "Add jitter to backoff. See [[MEM-p]].\n"
    "\n"
    "## History\n"
    "\n"
    "### Previous Version (2026-01-10)\n"
    "\n"
    "Older text.\n"
    "\n"
    "## Connections\n"
    "<!-- Add links to related memories using [[filename]] syntax -->\n"
    "- [[MEM-p]]\n"
    "- [[MEM-third|third]]\n"
    "- [[MEM-other]]\n";

gv::distill::MergedPair merge(std::string_view primary_bytes, std::string_view secondary_bytes,
                              double overlap) {
  const std::string primary_path = ".memory/10-Memories/MEM-p.md";
  const std::string secondary_path = ".memory/10-Memories/MEM-s.md";
  const Memory primary = parsed(primary_path, primary_bytes);
  const Memory secondary = parsed(secondary_path, secondary_bytes);
  return gv::distill::merge_memories(
      {primary_path, primary_bytes, primary, {primary.retrieval_count, primary.last_retrieved}},
      {secondary_path,
       secondary_bytes,
       secondary,
       {secondary.retrieval_count, secondary.last_retrieved}},
      overlap, date("2026-11-30"));
}

}  // namespace

TEST_CASE("a merged primary is the template with every other byte kept", "[merge]") {
  const auto merged = merge(k_primary, k_secondary, 2.0 / 3);
  CHECK(merged.missing_keywords.empty());
  CHECK(merged.primary_keywords == 3);
  CHECK(merged.secondary_keywords == 3);
  CHECK(merged.merged_keywords == 4);
  CHECK(merged.primary_bytes ==
        "---\n"
        "title: \"Retry policy\"\n"
        "created: 2026-01-15\n"
        "tags: [PATTERN, TECHNIQUE]\n"
        "topic: \"net/retry\"  # kept comment\n"
        "modified: 2026-11-30\n"
        "keywords: [backoff, jitter, retry, timeout]\n"
        "summary: \"How to retry\"\n"
        "retrieval_count: 5\n"
        "last_retrieved: 2026-11-01\n"
        "token_count: 10\n"
        "---\n"
        "\n"
        "# Retry policy\n"
        "\n"
        "Retry with exponential backoff.\n"
        "\n"
        "## Merged From MEM-s\n"
        "\n"
        "**Original Title**: Backoff\n"
        "**Merged**: 2026-11-30\n"
        "**Overlap Score**: 67%\n"
        "\n"
        "Add jitter to backoff. See [[MEM-p]].\n"
        "\n"
        "## History\n"
        "\n"
        "### Previous Version (2026-02-01)\n"
        "\n"
        "Old text.\n"
        "\n"
        "### Previous Version (2026-01-10)\n"
        "\n"
        "Older text.\n"
        "\n"
        "## Connections\n"
        "- [[MEM-other]]\n"
        "- [[MEM-third|third]]\n");
}

TEST_CASE("the absorbed memory is tombstoned merged_into its primary, all else kept", "[merge]") {
  const auto merged = merge(k_primary, k_secondary, 2.0 / 3);
  std::string expected = k_secondary;
  expected.replace(expected.find("retrieval_count: 2"), 0,
                   "status: tombstoned\ntombstoned_at: 2026-11-30\n"
                   "tombstone_reason: \"merged_into:MEM-p\"\n");
  CHECK(merged.secondary_bytes == expected);
}

TEST_CASE("merging a subset leaves the primary's keyword list and counts as written", "[merge]") {
  const std::string primary =
      "---\ntitle: \"P\"\ncreated: 2026-01-01\nkeywords:\n  - zeta\n  - alpha\nsummary: \"p\"\n"
      "---\n\n# P\n\nBody of p.\n";
  const std::string secondary =
      "---\ntitle: \"S\"\ncreated: 2026-05-01\nkeywords: [alpha]\nsummary: \"s\"\n---\n\n# S\n\n"
      "Body of s.\n";
  const auto merged = merge(primary, secondary, 1.0);
  CHECK(merged.primary_bytes ==
        "---\ntitle: \"P\"\ncreated: 2026-01-01\nmodified: 2026-11-30\nkeywords:\n  - zeta\n"
        "  - alpha\nsummary: \"p\"\n---\n\n# P\n\nBody of p.\n\n## Merged From MEM-s\n\n"
        "**Original Title**: S\n**Merged**: 2026-11-30\n**Overlap Score**: 100%\n\nBody of s.\n");
}

TEST_CASE("a secondary's history and links create the sections the primary lacked", "[merge]") {
  const std::string primary =
      "---\ntitle: \"P\"\ncreated: 2026-01-01\nkeywords: [a]\n---\n# P\nBody of p.";
  const std::string secondary =
      "---\ntitle: \"S\"\ncreated: 2026-05-01\nkeywords: [a, b]\n---\n\n# S\n\nBody of s.\n\n"
      "## History\n\n### Previous Version (2026-04-01)\n\nOld s.\n\n## Connections\n- [[MEM-q]]\n";
  const auto merged = merge(primary, secondary, 1.0);
  CHECK(merged.primary_bytes ==
        "---\ntitle: \"P\"\ncreated: 2026-01-01\nmodified: 2026-11-30\nkeywords: [a, b]\n---\n"
        "# P\nBody of p.\n\n## Merged From MEM-s\n\n**Original Title**: S\n**Merged**: 2026-11-30\n"
        "**Overlap Score**: 100%\n\nBody of s.\n\n## History\n\n### Previous Version (2026-04-01)"
        "\n\nOld s.\n\n## Connections\n- [[MEM-q]]\n");
}

TEST_CASE("the superset check names the keywords a written primary lost", "[merge]") {
  const Memory primary = memory("MEM-p", "a, b");
  const Memory secondary = memory("MEM-s", "B, c, d");
  CHECK(gv::distill::missing_keywords(primary, secondary, memory("MEM-p", "a, b, c, d")).empty());
  CHECK(
      gv::distill::missing_keywords(primary, secondary, memory("MEM-p", "A, b, c, D, e")).empty());
  CHECK(gv::distill::missing_keywords(primary, secondary, memory("MEM-p", "a, c")) ==
        std::vector<std::string>{"b", "d"});
}

TEST_CASE("link rewriting changes only link targets in the body", "[merge][links]") {
  const std::string bytes =
      "---\ntitle: \"x\"\nrelated: \"[[MEM-s]]\"\ncreated: 2026-01-01\n---\n"
      "See [[MEM-s]], [[ MEM-s |the s]], [[MEM-s#part]] and [[MEM-sx]].\n"
      "```\n[[MEM-s]] in code\n```\n"
      "<!-- [[MEM-s]] in a comment -->\n"
      "- [[MEM-s]]\r\n";
  const auto rewritten = gv::distill::rewrite_links(bytes, "MEM-s", "MEM-primary");
  REQUIRE(rewritten);
  CHECK(*rewritten ==
        "---\ntitle: \"x\"\nrelated: \"[[MEM-s]]\"\ncreated: 2026-01-01\n---\n"
        "See [[MEM-primary]], [[ MEM-primary |the s]], [[MEM-primary#part]] and [[MEM-sx]].\n"
        "```\n[[MEM-s]] in code\n```\n"
        "<!-- [[MEM-s]] in a comment -->\n"
        "- [[MEM-primary]]\r\n");
  CHECK_FALSE(gv::distill::rewrite_links("---\ntitle: x\n---\n[[MEM-sx]]\n", "MEM-s", "MEM-p"));
}

}  // namespace distill_merge_test
