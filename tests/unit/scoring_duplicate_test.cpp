#include <algorithm>
#include <catch2/catch.hpp>
#include <cstdint>
#include <random>
#include <string>
#include <unordered_map>
#include <vector>

#include "core/scoring/score.hpp"
#include "tests/unit/scoring_fixtures.hpp"

namespace gv::scoring_duplicate_test {
namespace {

using scoring_test::memory;

// The duplicate score as first written: every pair of memories that shares a keyword is counted
// through an inverted index, with no grouping and no early stop. The fast version must give the
// same doubles.
std::vector<double> reference_duplicate_scores(const std::vector<const Memory*>& memories) {
  std::unordered_map<std::string, std::uint32_t> ids;
  std::vector<std::vector<std::uint32_t>> sets(memories.size());
  for (std::size_t i = 0; i < memories.size(); ++i) {
    for (const std::string& keyword : memories[i]->keywords) {
      std::string key = keyword_key(keyword);
      if (!key.empty()) {
        const auto next = static_cast<std::uint32_t>(ids.size());
        sets[i].push_back(ids.try_emplace(std::move(key), next).first->second);
      }
    }
    std::sort(sets[i].begin(), sets[i].end());
    sets[i].erase(std::unique(sets[i].begin(), sets[i].end()), sets[i].end());
  }
  std::vector<std::vector<std::uint32_t>> postings(ids.size());
  for (std::size_t i = 0; i < memories.size(); ++i) {
    for (const std::uint32_t keyword : sets[i]) {
      postings[keyword].push_back(static_cast<std::uint32_t>(i));
    }
  }
  std::vector<double> scores(memories.size(), 0.0);
  for (std::size_t i = 0; i < memories.size(); ++i) {
    if (sets[i].empty()) {
      continue;
    }
    std::unordered_map<std::uint32_t, std::uint32_t> shared;
    std::uint32_t best = 0;
    for (const std::uint32_t keyword : sets[i]) {
      for (const std::uint32_t other : postings[keyword]) {
        if (other != i) {
          best = std::max(best, ++shared[other]);
        }
      }
    }
    scores[i] = static_cast<double>(best) / static_cast<double>(sets[i].size());
  }
  return scores;
}

// Vaults shaped like bench/make_vault's: keywords from a Zipf-like vocabulary, some sets
// repeated, some keywords differing only in case or spaces, some empty lists.
std::vector<Memory> generated_vault(std::uint32_t seed, std::size_t count, std::size_t vocabulary,
                                    std::size_t min_keywords, std::size_t max_keywords) {
  std::mt19937 random(seed);
  std::vector<double> weights;
  for (std::size_t i = 0; i < vocabulary; ++i) {
    weights.push_back(1.0 / static_cast<double>(i + 1));
  }
  std::discrete_distribution<std::size_t> word(weights.begin(), weights.end());
  std::uniform_int_distribution<std::size_t> length(min_keywords, max_keywords);
  std::uniform_int_distribution<int> percent(0, 99);
  std::vector<Memory> vault;
  for (std::size_t i = 0; i < count; ++i) {
    std::vector<std::string> keywords;
    if (!vault.empty() && percent(random) < 10) {
      keywords = vault[random() % vault.size()].keywords;  // a repeated set
    } else if (percent(random) < 3) {
      keywords = {};  // no keywords at all
    } else {
      const std::size_t want = length(random);
      for (std::size_t k = 0; k < want; ++k) {
        std::string keyword = "w" + std::to_string(word(random));
        switch (percent(random) % 20) {
          case 0:
            keyword[0] = 'W';  // same key, other case
            break;
          case 1:
            keyword = " " + keyword + " ";  // same key once trimmed
            break;
          case 2:
            keyword = "";  // names nothing
            break;
          default:
            break;
        }
        keywords.push_back(keyword);
      }
    }
    vault.push_back(memory("MEM-" + std::to_string(i), 10, keywords));
  }
  return vault;
}

std::vector<const Memory*> pointers(const std::vector<Memory>& vault) {
  std::vector<const Memory*> out;
  for (const Memory& m : vault) {
    out.push_back(&m);
  }
  return out;
}

// The vault's duplicate scores, each required to equal the all-pairs reference exactly (the same
// division of the same counts), with the light pass in turn and on a second core.
std::vector<double> scores_matching_reference(const std::vector<Memory>& vault) {
  const std::vector<double> expected = reference_duplicate_scores(pointers(vault));
  std::vector<double> actual;
  for (const scoring::SideBySide way : {scoring::SideBySide::never, scoring::SideBySide::always,
                                        scoring::SideBySide::when_worth_it}) {
    INFO("side by side: " << static_cast<int>(way));
    actual = scoring::duplicate_scores(pointers(vault), way);
    REQUIRE(actual.size() == expected.size());
    for (std::size_t i = 0; i < actual.size(); ++i) {
      INFO(vault[i].id);
      REQUIRE(actual[i] == expected[i]);
    }
  }
  return actual;
}

TEST_CASE("duplicate scores equal the all-pairs reference on generated vaults",
          "[scoring][duplicate]") {
  struct Shape {
    const char* name;
    std::size_t count;
    std::size_t vocabulary;
    std::size_t min_keywords;
    std::size_t max_keywords;
  };
  const Shape shapes[] = {
      {"normal vocabulary", 3000, 4000, 5, 9}, {"small vocabulary", 3000, 60, 3, 6},
      {"tiny vocabulary", 2000, 8, 1, 4},      {"long keyword lists", 800, 300, 15, 40},
      {"one keyword each", 2000, 500, 1, 1},
  };
  for (const Shape& shape : shapes) {
    for (std::uint32_t seed = 1; seed <= 3; ++seed) {
      INFO(shape.name << ", seed " << seed);
      const std::vector<Memory> vault = generated_vault(seed, shape.count, shape.vocabulary,
                                                        shape.min_keywords, shape.max_keywords);
      (void)scores_matching_reference(vault);
    }
  }
}

// Vaults where many keywords are held by a fixed share of the memories: two of the topic's six
// words and one to four of 150 common words, then a rare tail. Their postings would hold millions
// of pairs, so the scoring makes more than its first 64 keywords heavy and looks their overlaps up
// in the subset table, as it does at 100,000 memories.
std::vector<Memory> topical_vault(std::uint32_t seed, std::size_t count) {
  std::mt19937 random(seed);
  std::vector<double> weights;
  for (std::size_t i = 0; i < 3000; ++i) {
    weights.push_back(1.0 / static_cast<double>(i + 1));
  }
  std::discrete_distribution<std::size_t> rare(weights.begin(), weights.end());
  std::uniform_int_distribution<std::size_t> common_count(1, 4);
  std::uniform_int_distribution<std::size_t> rare_count(1, 3);
  std::vector<Memory> vault;
  for (std::size_t i = 0; i < count; ++i) {
    const std::string topic = "t" + std::to_string(random() % 5) + "w";
    const std::size_t first = random() % 6;
    const std::size_t second = (first + 1 + random() % 5) % 6;
    std::vector<std::string> keywords{topic + std::to_string(first),
                                      topic + std::to_string(second)};
    for (std::size_t k = common_count(random); k > 0; --k) {
      keywords.push_back("c" + std::to_string(random() % 150));
    }
    for (std::size_t k = rare_count(random); k > 0; --k) {
      keywords.push_back("r" + std::to_string(rare(random)));
    }
    vault.push_back(memory("MEM-" + std::to_string(i), 10, keywords));
  }
  return vault;
}

TEST_CASE("duplicate scores equal the all-pairs reference when common keywords are heavy",
          "[scoring][duplicate]") {
  for (std::uint32_t seed = 1; seed <= 3; ++seed) {
    INFO("seed " << seed);
    const std::vector<Memory> vault = topical_vault(seed, 5000);
    (void)scores_matching_reference(vault);
  }
}

// Keys of up to 16 bytes are compared inside the interning table as two words, longer ones byte
// by byte where they are. A common prefix makes keys differ only past their first word: with the
// short one every key fits in 16 bytes, with the long one keys fall on both sides of it.
TEST_CASE("duplicate scores equal the all-pairs reference when keys share a prefix",
          "[scoring][duplicate]") {
  for (const std::string prefix : {"shared-p-", "shared-prefix-"}) {
    for (std::uint32_t seed = 1; seed <= 2; ++seed) {
      INFO(prefix << ", seed " << seed);
      std::vector<Memory> vault = generated_vault(seed, 2000, 2000, 3, 8);
      for (Memory& memory : vault) {
        for (std::string& keyword : memory.keywords) {
          keyword = prefix + keyword;
        }
      }
      (void)scores_matching_reference(vault);
    }
  }
}

// A short key is read as two words whose loads overlap when it is shorter than they are: keys of
// every length up to past 16 bytes that differ from another in one byte, wherever it is, are
// other keys; the same key twice is one.
TEST_CASE("keys of every length that differ in one byte are different keys",
          "[scoring][duplicate]") {
  std::vector<Memory> vault;
  for (std::size_t length = 1; length <= 20; ++length) {
    const std::string base(length, 'k');
    vault.push_back(memory("MEM-base-" + std::to_string(length), 10, {base, "common"}));
    if (length % 2 == 0) {
      vault.push_back(memory("MEM-again-" + std::to_string(length), 10, {base}));
    }
    for (std::size_t at = 0; at < length; ++at) {
      std::string variant = base;
      variant[at] = 'q';
      vault.push_back(
          memory("MEM-" + std::to_string(length) + "-" + std::to_string(at), 10, {variant}));
    }
  }
  const std::vector<double> scores = scores_matching_reference(vault);
  CHECK(scores[0] == 0.5);  // "k" and "common": only "common" is held elsewhere
  CHECK(scores[1] == 0.0);  // "q"
  CHECK(scores[3] == 1.0);  // "kk", held by MEM-base-2 too
  CHECK(scores[4] == 0.0);  // "qk"
  CHECK(std::count(scores.begin(), scores.end(), 1.0) == 10);  // the ten keys held twice
}

// Light keywords are counted once per pair, from the pair's lower set; a set held by several
// memories (which scores 1 anyway) must still count its pairs for the others.
TEST_CASE("a memory's light overlap with a keyword set held twice is counted",
          "[scoring][duplicate]") {
  std::vector<Memory> vault;
  // 80 keywords held by three memories each: the first 64 of them are heavy.
  for (int k = 0; k < 80; ++k) {
    vault.push_back(memory("MEM-f" + std::to_string(k), 10,
                           {"h" + std::to_string(k), "h" + std::to_string((k + 1) % 80),
                            "h" + std::to_string((k + 2) % 80)}));
  }
  // Groups of one memory and a keyword set held twice sharing two light keywords; in some the
  // single memory's set comes first in the scoring's order, in others the pair's.
  for (int g = 0; g < 12; ++g) {
    const std::string a = "a" + std::to_string(g);
    const std::string b = "b" + std::to_string(g);
    vault.push_back(memory("MEM-u" + std::to_string(g), 10, {a, b, "u" + std::to_string(g)}));
    for (int copy = 0; copy < 2; ++copy) {
      vault.push_back(memory("MEM-m" + std::to_string(g) + "-" + std::to_string(copy), 10,
                             {a, b, "m" + std::to_string(g)}));
    }
  }
  const std::vector<double> actual = scores_matching_reference(vault);
  for (int g = 0; g < 12; ++g) {
    CHECK(actual[80 + 3 * g] == Approx(2.0 / 3.0));
    CHECK(actual[80 + 3 * g + 1] == 1.0);
  }
}

TEST_CASE("a keyword set held by two memories scores 1 for both, a subset of another too",
          "[scoring][duplicate]") {
  const std::vector<Memory> vault{
      memory("MEM-a", 10, {"x", "y", "z"}),      memory("MEM-b", 10, {"Z", "y ", "x"}),
      memory("MEM-c", 10, {"p", "q"}),           memory("MEM-d", 10, {"p", "q", "r", "s"}),
      memory("MEM-e", 10, {"p", "r", "s", "t"}), memory("MEM-f", 10, {}),
  };
  const std::vector<double> scores = scoring::duplicate_scores(pointers(vault));
  CHECK(scores[0] == 1.0);
  CHECK(scores[1] == 1.0);
  CHECK(scores[2] == 1.0);   // {p, q} is inside MEM-d
  CHECK(scores[3] == 0.75);  // MEM-e shares p, r, s
  CHECK(scores[4] == 0.75);
  CHECK(scores[5] == 0.0);
}

// Two-keyword overlaps are answered from the pair counts alone, and a larger subset is looked up
// only when each of its pairs is held by another memory. That is necessary, not enough: here every
// pair of {a, b, c} is held elsewhere, but no other memory holds all three.
TEST_CASE("a keyword triple whose pairs are each held elsewhere is not itself shared",
          "[scoring][duplicate]") {
  const std::vector<Memory> vault{
      memory("MEM-abc", 10, {"a", "b", "c"}),
      memory("MEM-ab", 10, {"a", "b", "x1"}),
      memory("MEM-bc", 10, {"b", "c", "x2"}),
      memory("MEM-ac", 10, {"a", "c", "x3"}),
      // A triple that is held twice, among keywords whose other pairs are not shared.
      memory("MEM-pqrs", 10, {"p", "q", "r", "s"}),
      memory("MEM-pqrt", 10, {"p", "q", "r", "t"}),
      memory("MEM-st", 10, {"s", "t", "y"}),
  };
  const std::vector<double> scores = scores_matching_reference(vault);
  CHECK(scores[0] == Approx(2.0 / 3.0));
  CHECK(scores[1] == Approx(2.0 / 3.0));
  CHECK(scores[4] == 0.75);  // p, q, r
  CHECK(scores[5] == 0.75);
  CHECK(scores[6] == Approx(1.0 / 3.0));
}

// Subsets of four heavy keywords or more are listed only when each of their triples is held by
// another memory, and each is grown from its three lowest keywords. Here four and five keywords are
// shared in full, at the start, the end and in the middle of each memory's keywords; and one
// memory's four keywords have each of their triples held by a different memory, so the four
// together are not shared. Every keyword is heavy (fewer than 64 are held twice), so the light
// pass finds none of these overlaps.
TEST_CASE(
    "an overlap of four or five heavy keywords is found, and four whose triples are held apart are "
    "not",
    "[scoring][duplicate]") {
  const std::vector<Memory> vault{
      memory("MEM-four-a", 10, {"a", "b", "c", "d", "e"}),
      memory("MEM-four-b", 10, {"0", "a", "b", "c", "d"}),
      memory("MEM-five-a", 10, {"f", "g", "h", "i", "j", "k"}),
      memory("MEM-five-b", 10, {"f", "g", "h", "i", "j", "l"}),
      memory("MEM-mid-a", 10, {"m", "n", "o", "p", "q", "r", "s"}),
      memory("MEM-mid-b", 10, {"1", "n", "o", "p", "q", "9"}),
      memory("MEM-apart", 10, {"t", "u", "v", "w"}),
      memory("MEM-tuv", 10, {"t", "u", "v", "x1"}),
      memory("MEM-tuw", 10, {"t", "u", "w", "x2"}),
      memory("MEM-tvw", 10, {"t", "v", "w", "x3"}),
      memory("MEM-uvw", 10, {"u", "v", "w", "x4"}),
      // Keywords held once more, alone, so that they are heavy and count.
      memory("MEM-e", 10, {"e", "0", "k", "l"}),
      memory("MEM-m", 10, {"m", "r", "s", "1", "9"}),
  };
  const std::vector<double> scores = scores_matching_reference(vault);
  CHECK(scores[0] == Approx(4.0 / 5.0));
  CHECK(scores[1] == Approx(4.0 / 5.0));
  CHECK(scores[2] == Approx(5.0 / 6.0));
  CHECK(scores[3] == Approx(5.0 / 6.0));
  CHECK(scores[4] == Approx(4.0 / 7.0));
  CHECK(scores[5] == Approx(4.0 / 6.0));
  CHECK(scores[6] == Approx(3.0 / 4.0));  // three of t, u, v, w at most, with any one memory
  CHECK(scores[7] == Approx(3.0 / 4.0));
}

// A memory with more than eight heavy keywords is "wide" and compared with every other memory in
// bit lanes. Overlaps of two are settled from a first read that counts up to three, and raise
// both sides at once; only an overlap of three or more is counted in full. Every keyword here is
// heavy (fewer than 64 are held twice), so the light pass finds none of these overlaps.
TEST_CASE("a memory sharing two or three heavy keywords with a wide one raises both",
          "[scoring][duplicate]") {
  std::vector<Memory> vault{
      memory("MEM-wide", 10, {"a", "b", "c", "d", "e", "f", "g", "h", "i"}),
      memory("MEM-two", 10, {"a", "b", "x"}),
      memory("MEM-wide3", 10, {"j", "k", "l", "m", "n", "o", "p", "q", "r"}),
      memory("MEM-three", 10, {"j", "k", "l", "y"}),
  };
  // Every other keyword of the wide memories held once more, alone.
  for (const std::string keyword :
       {"c", "d", "e", "f", "g", "h", "i", "m", "n", "o", "p", "q", "r"}) {
    vault.push_back(memory("MEM-" + keyword, 10, {keyword}));
  }
  const std::vector<double> scores = scores_matching_reference(vault);
  CHECK(scores[0] == Approx(2.0 / 9.0));
  CHECK(scores[1] == Approx(2.0 / 3.0));
  CHECK(scores[2] == Approx(3.0 / 9.0));
  CHECK(scores[3] == Approx(3.0 / 4.0));
}

}  // namespace
}  // namespace gv::scoring_duplicate_test
