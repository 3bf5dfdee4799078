#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <catch2/catch.hpp>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "core/recall/secondary.hpp"

// The contradiction check looks only at pairs of claims that can be flagged. This reference
// compares every pair, as the check first did; both must report the same pairs in the same order.
namespace gv::recall::recall_contradictions_test {
namespace {

constexpr std::array<std::string_view, 40> k_stop_words{
    "about", "after", "all",  "also",  "and",  "any",  "are",    "because", "been", "but",
    "can",   "does",  "for",  "from",  "had",  "has",  "have",   "into",    "its",  "just",
    "more",  "not",   "now",  "only",  "our",  "over", "should", "than",    "that", "the",
    "their", "them",  "then", "there", "this", "was",  "were",   "when",    "will", "with"};

struct Claim {
  std::string id;
  std::size_t file = 0;
  bool superseded = false;
  std::set<std::string> content;
  std::set<std::string> values;
  std::string normalised;
};

double jaccard(const std::set<std::string>& a, const std::set<std::string>& b) {
  if (a.empty() || b.empty()) {
    return 0.0;
  }
  std::size_t shared = 0;
  for (const std::string& token : a) {
    shared += b.count(token);
  }
  return static_cast<double>(shared) / static_cast<double>(a.size() + b.size() - shared);
}

std::vector<std::pair<std::string, std::string>> reference(const std::vector<ParsedFile>& files,
                                                           const Metadata& metadata) {
  std::vector<Claim> claims;
  for (std::size_t f = 0; f < files.size(); ++f) {
    for (const Entry& entry : files[f].entries) {
      if (entry.state != EntryState::tagged) {
        continue;
      }
      const auto record = metadata.find(entry.id);
      const std::string status = record == metadata.end() ? "active" : record->second.status;
      const bool superseded = status == "superseded";
      if (!superseded && (status != "active" || files[f].file.tier == Tier::archive)) {
        continue;
      }
      Claim claim{entry.id, f, superseded, {}, {}, {}};
      for (const std::string& token : normalised_tokens(entry.text)) {
        claim.normalised += (claim.normalised.empty() ? "" : " ") + token;
        if (std::any_of(token.begin(), token.end(), [](char c) { return c >= '0' && c <= '9'; })) {
          claim.values.insert(token);
        } else if (token.size() >= 3 && std::find(k_stop_words.begin(), k_stop_words.end(),
                                                  token) == k_stop_words.end()) {
          claim.content.insert(token);
        }
      }
      claims.push_back(std::move(claim));
    }
  }
  std::vector<std::pair<std::string, std::string>> out;
  for (std::size_t i = 0; i < claims.size(); ++i) {
    for (std::size_t j = i + 1; j < claims.size(); ++j) {
      const Claim& a = claims[i];
      const Claim& b = claims[j];
      if (a.file == b.file || (a.superseded && b.superseded)) {
        continue;
      }
      const bool flagged = a.superseded || b.superseded
                               ? !a.normalised.empty() && a.normalised == b.normalised
                               : jaccard(a.content, b.content) >= 0.5 && !a.values.empty() &&
                                     !b.values.empty() && a.values != b.values;
      if (flagged) {
        out.emplace_back(a.id, b.id);
      }
    }
  }
  return out;
}

TEST_CASE("contradictions are the pairs comparing every claim would flag, in its order",
          "[recall][secondary]") {
  const char* const paths[] = {"CLAUDE.local.md", "memory/registers/people.md",
                               "memory/registers/tools.md", "memory/archive/2026/old.md"};
  const char* const words[] = {"deploy",   "server", "Postgres", "uses",    "the",  "and",
                               "deadline", "team",   "weekly",   "release", "api",  "cache",
                               "v1",       "v2",     "15",       "16",      "2026", "a"};
  std::size_t flagged = 0;
  for (std::uint32_t seed = 1; seed <= 20; ++seed) {
    std::mt19937 random(seed);
    std::vector<ParsedFile> files;
    std::string metadata_json = "{";
    int next_id = 0;
    for (const char* path : paths) {
      std::string bytes;
      const int entries = static_cast<int>(random() % 40);
      for (int e = 0; e < entries; ++e) {
        std::string text;
        const int length = 1 + static_cast<int>(random() % 5);
        for (int w = 0; w < length; ++w) {
          text += std::string(w == 0 ? "" : " ") + words[random() % std::size(words)];
        }
        const std::string id = fmt::format("tr{:010x}", ++next_id);
        bytes += fmt::format("- {} ^{}\n", text, id);
        const unsigned status = random() % 6;
        if (status < 2) {
          metadata_json +=
              fmt::format("{}\"{}\": {{\"status\": \"{}\"}}", metadata_json.size() > 1 ? ", " : "",
                          id, status == 0 ? "superseded" : "archived");
        }
      }
      ManagedFile file{path, display_path(path), *tier_of(path)};
      files.push_back(parse_file(std::move(file), std::move(bytes)));
    }
    metadata_json += "}";
    const Metadata records = parse_metadata(metadata_json, "m").records;
    const auto expected = reference(files, records);
    const SecondaryReport report = run_secondary_checks(
        files, records, *parse_instant("2026-11-30T12:00:00Z"), *parse_date("2026-11-30"), {});
    INFO("seed " << seed);
    flagged += expected.size();
    REQUIRE(report.contradictions.size() == expected.size());
    for (std::size_t i = 0; i < expected.size(); ++i) {
      CHECK(report.contradictions[i].first.id == expected[i].first);
      CHECK(report.contradictions[i].second.id == expected[i].second);
    }
  }
  CHECK(flagged > 20);  // the vaults must hold contradictions for the comparison to mean much
}

}  // namespace
}  // namespace gv::recall::recall_contradictions_test
