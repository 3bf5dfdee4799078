#include "core/vault/search.hpp"

#include <algorithm>
#include <cctype>
#include <map>
#include <set>

namespace gv {
namespace {

std::vector<std::string> terms_of(std::string_view text) {
  std::vector<std::string> terms;
  std::string current;
  for (char c : text) {
    if (std::isalnum(static_cast<unsigned char>(c)) != 0) {
      current += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    } else if (!current.empty()) {
      terms.push_back(std::move(current));
      current.clear();
    }
  }
  if (!current.empty()) {
    terms.push_back(std::move(current));
  }
  return terms;
}

bool contains_term(std::string_view text, const std::string& term) {
  const std::vector<std::string> words = terms_of(text);
  return std::find(words.begin(), words.end(), term) != words.end();
}

}  // namespace

std::vector<SearchHit> search_memories(const std::vector<Memory>& memories, std::string_view query,
                                       std::size_t limit) {
  const std::vector<std::string> query_terms = terms_of(query);
  struct Ranked {
    SearchHit hit;
    Date last;
  };
  std::vector<Ranked> ranked;
  for (const Memory& memory : memories) {
    if (!memory.active()) {
      continue;
    }
    std::set<std::string> keywords;
    for (const std::string& keyword : memory.keywords) {
      for (std::string& term : terms_of(keyword)) {
        keywords.insert(std::move(term));
      }
    }
    double score = 0.0;
    for (const std::string& term : query_terms) {
      if (keywords.contains(term)) {
        score += 3;
      }
      if (contains_term(memory.title, term)) {
        score += 2;
      }
      if (contains_term(memory.topic, term) || contains_term(memory.summary, term)) {
        score += 1;
      }
    }
    if (score > 0) {
      ranked.push_back({{memory.id, score}, memory.last_retrieved.value_or(Date{INT64_MIN})});
    }
  }
  std::sort(ranked.begin(), ranked.end(), [](const Ranked& a, const Ranked& b) {
    if (a.hit.score != b.hit.score) return a.hit.score > b.hit.score;
    if (a.last != b.last) return a.last > b.last;
    return a.hit.id < b.hit.id;
  });
  std::vector<SearchHit> hits;
  for (std::size_t i = 0; i < ranked.size() && i < limit; ++i) {
    hits.push_back(ranked[i].hit);
  }
  return hits;
}

}  // namespace gv
