#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <random>
#include <string>
#include <vector>

#include "core/search/analyzer.hpp"
#include "core/search/bm25.hpp"
#include "core/search/postings.hpp"
#include "core/search/saved_index.hpp"

namespace search_postings_test {

using gv::search::InvertedIndex;
using gv::search::k_field_count;
using gv::search::Ranked;
using gv::search::SavedIndex;
using gv::search::SavedMemory;

namespace {

using Fields = std::array<std::string, k_field_count>;

// Fields built from a small vocabulary, plurals and case included, so terms repeat across
// fields and documents as they do in a vault.
std::vector<Fields> generated_documents(std::size_t count, unsigned seed) {
  const std::vector<std::string> words = {
      "retry", "Retries", "backoff", "cache",    "caches",     "nvim",
      "lsp",   "class",   "status",  "Build",    "python",     "request",
      "boxes", "the",     "é-utf8",  "max_time", "retryAfter", "service-workers"};
  std::mt19937 random(seed);
  std::vector<Fields> documents;
  for (std::size_t d = 0; d < count; ++d) {
    Fields fields;
    const std::size_t sizes[k_field_count] = {4, 3, 2, 8, 60};
    for (std::size_t f = 0; f < k_field_count; ++f) {
      const std::size_t n = random() % (sizes[f] + 1);
      for (std::size_t w = 0; w < n; ++w) {
        fields[f] += words[random() % words.size()] + (w % 5 == 4 ? ". " : " ");
      }
    }
    documents.push_back(std::move(fields));
  }
  return documents;
}

std::array<std::string_view, k_field_count> views(const Fields& fields) {
  return {fields[0], fields[1], fields[2], fields[3], fields[4]};
}

// The textbook reading of doc/search.md's BM25F, written out as a scan of every document: the
// reference the inverted index and the saved file must match bit for bit.
struct ScanDocument {
  std::array<std::vector<std::string>, k_field_count> terms;
  std::array<std::uint32_t, k_field_count> length{};
  bool live = true;
};

ScanDocument scan_document(const Fields& fields) {
  ScanDocument document;
  gv::search::Analyzer analyzer;
  for (std::size_t f = 0; f < k_field_count; ++f) {
    gv::search::for_each_token(fields[f], [&](std::string_view token, std::size_t) {
      ++document.length[f];
      for (const std::string_view term : analyzer.terms_of(token)) {
        document.terms[f].emplace_back(term);
      }
    });
  }
  return document;
}

std::vector<Ranked> scan_rank(const std::vector<ScanDocument>& documents,
                              const std::vector<std::string>& terms) {
  const gv::search::RankingParams params;
  std::array<double, k_field_count> average{};
  double live = 0;
  for (const ScanDocument& document : documents) {
    if (document.live) {
      ++live;
      for (std::size_t f = 0; f < k_field_count; ++f) {
        average[f] += document.length[f];
      }
    }
  }
  for (double& total : average) {
    total /= live;
  }
  std::vector<std::vector<double>> weighted(documents.size(), std::vector<double>(terms.size()));
  std::vector<double> holding(terms.size(), 0.0);
  for (std::size_t d = 0; d < documents.size(); ++d) {
    if (!documents[d].live) {
      continue;
    }
    for (std::size_t t = 0; t < terms.size(); ++t) {
      for (std::size_t f = 0; f < k_field_count; ++f) {
        const auto count =
            std::count(documents[d].terms[f].begin(), documents[d].terms[f].end(), terms[t]);
        if (count > 0) {
          const auto& field = params.fields[f];
          const double norm = 1.0 - field.b + field.b * documents[d].length[f] / average[f];
          weighted[d][t] += field.weight * static_cast<double>(count) / norm;
        }
      }
      holding[t] += weighted[d][t] > 0 ? 1 : 0;
    }
  }
  std::vector<Ranked> ranked;
  for (std::size_t d = 0; d < documents.size(); ++d) {
    Ranked entry;
    entry.document = d;
    for (std::size_t t = 0; t < terms.size(); ++t) {
      const double tf = weighted[d][t];
      if (tf > 0) {
        const double idf = std::log(1.0 + (live - holding[t] + 0.5) / (holding[t] + 0.5));
        entry.score += idf * tf * (params.k1 + 1.0) / (params.k1 + tf);
        entry.terms.push_back(terms[t]);
      }
    }
    if (!entry.terms.empty()) {
      ranked.push_back(std::move(entry));
    }
  }
  std::stable_sort(ranked.begin(), ranked.end(),
                   [](const Ranked& a, const Ranked& b) { return a.score > b.score; });
  return ranked;
}

void require_same(const std::vector<Ranked>& expected, const std::vector<Ranked>& actual) {
  REQUIRE(actual.size() == expected.size());
  for (std::size_t i = 0; i < expected.size(); ++i) {
    INFO("rank " << i);
    CHECK(actual[i].document == expected[i].document);
    CHECK(actual[i].score == expected[i].score);  // bit for bit: the same sums in the same order
    CHECK(actual[i].terms == expected[i].terms);
  }
}

}  // namespace

TEST_CASE("the inverted index and the saved file rank exactly as a scan of the documents",
          "[search]") {
  const std::vector<Fields> fields = generated_documents(300, 7);
  std::vector<ScanDocument> documents;
  InvertedIndex index;
  for (const Fields& f : fields) {
    documents.push_back(scan_document(f));
    index.add(views(f));
  }
  std::vector<SavedMemory> saved(fields.size());
  for (std::size_t d = 0; d < fields.size(); ++d) {
    saved[d].path = ".memory/10-Memories/MEM-" + std::to_string(1000 + d) + ".md";
  }
  const std::string bytes = gv::search::write_saved_index(saved, index, {});
  const std::optional<SavedIndex> file = SavedIndex::open(bytes);
  REQUIRE(file.has_value());
  CHECK(file->memory_count() == fields.size());

  for (const char* query :
       {"retry", "caches backoff", "the", "status class", "é-utf8 nvim", "absent",
        "Build python request boxes", "time max_time", "retry after", "service worker"}) {
    INFO(query);
    const std::vector<std::string> terms = gv::search::query_terms(query);
    const std::vector<Ranked> expected = scan_rank(documents, terms);
    require_same(expected, index.rank(terms));
    require_same(expected, file->rank(terms));
  }

  SECTION("after removals and a compaction the live documents still rank as a scan") {
    for (std::uint32_t d = 0; d < fields.size(); d += 3) {
      index.remove(d);
      documents[d].live = false;
    }
    const std::vector<std::string> terms = gv::search::query_terms("retry cache");
    const std::vector<Ranked> expected = scan_rank(documents, terms);
    require_same(expected, index.rank(terms));
    const std::vector<std::uint32_t> renumbered = index.compact();
    const std::vector<Ranked> compacted = index.rank(terms);
    REQUIRE(compacted.size() == expected.size());
    for (std::size_t i = 0; i < expected.size(); ++i) {
      CHECK(compacted[i].document == renumbered[expected[i].document]);
      CHECK(compacted[i].score == expected[i].score);
    }
  }
}

TEST_CASE("top() is the head of rank(), scores and order, and leaves its scratch zeroed",
          "[search]") {
  const std::vector<Fields> fields = generated_documents(200, 11);
  InvertedIndex index;
  std::vector<SavedMemory> saved(fields.size());
  for (std::size_t d = 0; d < fields.size(); ++d) {
    index.add(views(fields[d]));
    saved[d].path = ".memory/10-Memories/MEM-" + std::to_string(1000 + d) + ".md";
  }
  const std::string bytes = gv::search::write_saved_index(saved, index, {});
  const std::optional<SavedIndex> file = SavedIndex::open(bytes);
  REQUIRE(file.has_value());

  const auto check_head = [](const std::vector<Ranked>& ranked,
                             const std::vector<gv::search::Scored>& top, std::size_t k) {
    REQUIRE(top.size() == std::min(k, ranked.size()));
    for (std::size_t i = 0; i < top.size(); ++i) {
      INFO("rank " << i);
      CHECK(top[i].document == ranked[i].document);
      CHECK(top[i].score == ranked[i].score);  // bit for bit
    }
  };
  std::vector<double> scratch;
  for (const char* query : {"retry", "caches backoff", "nvim lsp python", "absent", "the"}) {
    INFO(query);
    const std::vector<std::string> terms = gv::search::query_terms(query);
    for (const std::size_t k : {std::size_t{1}, std::size_t{3}, std::size_t{500}}) {
      check_head(index.rank(terms), index.top(terms, {}, k, scratch), k);
      check_head(file->rank(terms), file->top(terms, {}, k, scratch), k);
      CHECK(std::all_of(scratch.begin(), scratch.end(), [](double v) { return v == 0.0; }));
    }
  }
  SECTION("removed documents are never among the best") {
    for (std::uint32_t d = 0; d < fields.size(); d += 2) {
      index.remove(d);
    }
    const std::vector<std::string> terms = gv::search::query_terms("retry cache");
    check_head(index.rank(terms), index.top(terms, {}, 10, scratch), 10);
  }
}

TEST_CASE("a saved index keeps what a hit shows and finds paths by binary search", "[search]") {
  InvertedIndex index;
  std::vector<SavedMemory> memories;
  for (int i = 0; i < 3; ++i) {
    const std::string body = "apple banana " + std::to_string(i);
    index.add({"Title", "kw", "topic", "summary", body});
    SavedMemory memory;
    memory.path = ".memory/10-Memories/MEM-" + std::string(1, static_cast<char>('a' + i)) + ".md";
    memory.stamp = {11U + static_cast<unsigned>(i), 22, 33, 44, 55};
    memory.blob_oid = std::string(40, static_cast<char>('0' + i));
    memory.title = "Title " + std::to_string(i);
    memory.retrieval_count = 7 * i;
    memory.summary = "summary";
    memory.keywords = {"one", "two words"};
    memory.topic = "a/b";
    memories.push_back(memory);
  }
  const std::string bytes = gv::search::write_saved_index(
      memories, index, {{".memory/10-Memories/MEM-z.md", {1, 2, 3, 4, 5}}});
  const std::optional<SavedIndex> file = SavedIndex::open(bytes);
  REQUIRE(file.has_value());
  CHECK(file->find_memory(".memory/10-Memories/MEM-b.md") == 1U);
  CHECK_FALSE(file->find_memory(".memory/10-Memories/MEM-z.md").has_value());
  CHECK(file->find_skipped(".memory/10-Memories/MEM-z.md") == 0U);
  CHECK(file->skipped_stamp(0) == gv::search::SavedStamp{1, 2, 3, 4, 5});
  const SavedMemory read = file->memory(2);
  CHECK(read.path == memories[2].path);
  CHECK(read.stamp == memories[2].stamp);
  CHECK(read.blob_oid == memories[2].blob_oid);
  CHECK(read.title == "Title 2");
  CHECK(read.retrieval_count == 14);
  CHECK(read.keywords == std::vector<std::string>{"one", "two words"});
  CHECK(read.topic == "a/b");

  SECTION("every truncation and a flipped count are refused or read safely, never out of bounds") {
    for (std::size_t size = 0; size < bytes.size(); ++size) {
      const std::string cut = bytes.substr(0, size);
      if (const std::optional<SavedIndex> damaged = SavedIndex::open(cut)) {
        (void)damaged->rank({"apple"});
      }
    }
    std::string flipped = bytes;
    flipped[32] = '\x7f';  // the memory count
    CHECK_FALSE(SavedIndex::open(flipped).has_value());
  }
}

}  // namespace search_postings_test
