#include "core/search/analyzer.hpp"

#include <libstemmer.h>

#include <algorithm>
#include <array>
#include <memory>
#include <unordered_map>

#include "core/memory/stop_words.hpp"

namespace gv::search {
namespace {

bool is_upper(char c) { return c >= 'A' && c <= 'Z'; }
bool is_lower(char c) { return c >= 'a' && c <= 'z'; }
bool is_digit(char c) { return c >= '0' && c <= '9'; }

void lower_into(std::string_view text, std::string& out) {
  out.assign(text);
  for (char& c : out) {
    if (is_upper(c)) {
      c = static_cast<char>(c - 'A' + 'a');
    }
  }
}

struct StemmerFree {
  void operator()(sb_stemmer* stemmer) const { sb_stemmer_delete(stemmer); }
};

// Hash and equality that accept a string_view, so a memo lookup needs no std::string.
struct TransparentHash {
  using is_transparent = void;
  std::size_t operator()(std::string_view text) const {
    return std::hash<std::string_view>{}(text);
  }
};

// One stemmer per thread (Snowball's keeps its state in the object) and a memo of the words
// it has stemmed: a vault repeats a few thousand distinct words millions of times, so the
// memo, not the stemmer, is what indexing mostly pays.
class Stemmer {
 public:
  Stemmer() : m_stemmer(sb_stemmer_new("english", "UTF_8")) {}

  std::string_view stem(std::string_view word) {
    const auto found = m_memo.find(word);
    if (found != m_memo.end()) {
      return found->second;
    }
    if (m_memo.size() >= k_memo_limit) {
      m_memo.clear();  // a bound on memory, paid for by re-stemming
    }
    std::string stemmed(word);
    if (m_stemmer != nullptr) {
      const sb_symbol* out =
          sb_stemmer_stem(m_stemmer.get(), reinterpret_cast<const sb_symbol*>(word.data()),
                          static_cast<int>(word.size()));
      if (out != nullptr) {
        stemmed.assign(reinterpret_cast<const char*>(out),
                       static_cast<std::size_t>(sb_stemmer_length(m_stemmer.get())));
      }
    }
    return m_memo.emplace(std::string(word), std::move(stemmed)).first->second;
  }

 private:
  static constexpr std::size_t k_memo_limit = 200000;
  std::unique_ptr<sb_stemmer, StemmerFree> m_stemmer;
  std::unordered_map<std::string, std::string, TransparentHash, std::equal_to<>> m_memo;
};

Stemmer& thread_stemmer() {
  thread_local Stemmer stemmer;
  return stemmer;
}

// Snowball's English stop word list, and the pieces our tokens make of its contractions
// (`don't` -> `don`, `t`).
constexpr auto k_snowball_stop_words = [] {
  std::array<std::string_view, 157> words{
      "i",       "me",      "my",      "myself",   "we",         "our",     "ours",    "ourselves",
      "you",     "your",    "yours",   "yourself", "yourselves", "he",      "him",     "his",
      "himself", "she",     "her",     "hers",     "herself",    "it",      "its",     "itself",
      "they",    "them",    "their",   "theirs",   "themselves", "what",    "which",   "who",
      "whom",    "this",    "that",    "these",    "those",      "am",      "is",      "are",
      "was",     "were",    "be",      "been",     "being",      "have",    "has",     "had",
      "having",  "do",      "does",    "did",      "doing",      "would",   "should",  "could",
      "ought",   "a",       "an",      "the",      "and",        "but",     "if",      "or",
      "because", "as",      "until",   "while",    "of",         "at",      "by",      "for",
      "with",    "about",   "against", "between",  "into",       "through", "during",  "before",
      "after",   "above",   "below",   "to",       "from",       "up",      "down",    "in",
      "out",     "on",      "off",     "over",     "under",      "again",   "further", "then",
      "once",    "here",    "there",   "when",     "where",      "why",     "how",     "all",
      "any",     "both",    "each",    "few",      "more",       "most",    "other",   "some",
      "such",    "no",      "nor",     "not",      "only",       "own",     "same",    "so",
      "than",    "too",     "very",    "cannot",   "let",        "s",       "t",       "d",
      "m",       "ll",      "ve",      "re",       "don",        "doesn",   "didn",    "isn",
      "aren",    "wasn",    "weren",   "hasn",     "haven",      "hadn",    "won",     "wouldn",
      "shan",    "shouldn", "couldn",  "mustn",    "can",        "will",    "shall",   "may",
      "might",   "must",    "just",    "also",     "please"};
  std::sort(words.begin(), words.end());
  return words;
}();

}  // namespace

std::string_view stem(std::string_view lowered) {
  if (lowered.size() <= 3 || std::any_of(lowered.begin(), lowered.end(), is_digit)) {
    return lowered;
  }
  return thread_stemmer().stem(lowered);
}

bool is_query_stop_word(std::string_view lowered) {
  return is_stop_word(lowered) ||
         std::binary_search(k_snowball_stop_words.begin(), k_snowball_stop_words.end(), lowered);
}

void split_token(std::string_view token, std::vector<std::string_view>& parts) {
  parts.clear();
  std::size_t begin = 0;
  const auto close = [&](std::size_t end) {
    if (end > begin) {
      parts.push_back(token.substr(begin, end - begin));
    }
  };
  for (std::size_t i = 0; i < token.size(); ++i) {
    const char c = token[i];
    if (c == '_' || c == '-' || c == '.') {
      close(i);
      begin = i + 1;
      continue;
    }
    if (i > begin && is_upper(c)) {
      const char before = token[i - 1];
      const bool acronym_end = is_upper(before) && i + 1 < token.size() && is_lower(token[i + 1]);
      if (is_lower(before) || acronym_end) {
        close(i);
        begin = i;
      }
    }
  }
  close(token.size());
}

const std::vector<std::string_view>& Analyzer::terms_of(std::string_view token) {
  split_token(token, m_parts);
  m_terms.clear();
  if (m_parts.empty()) {
    return m_terms;
  }
  // Storage first, views after: growing m_storage would move the strings the views point to.
  const std::size_t needed = m_parts.size() == 1 ? 1 : m_parts.size() + 1;
  if (m_storage.size() < needed) {
    m_storage.resize(needed);
  }
  if (m_parts.size() == 1) {
    lower_into(token, m_lowered);
    m_storage[0].assign(stem(m_lowered));
    m_terms.push_back(m_storage[0]);
    return m_terms;
  }
  // The whole compound, its last part stemmed: `service-workers` meets `service-worker`.
  std::string& whole = m_storage[0];
  const std::string_view last = m_parts.back();
  lower_into(token.substr(0, static_cast<std::size_t>(last.data() - token.data())), whole);
  lower_into(last, m_lowered);
  whole += stem(m_lowered);
  for (std::size_t p = 0; p < m_parts.size(); ++p) {
    lower_into(m_parts[p], m_lowered);
    m_storage[p + 1].assign(stem(m_lowered));
  }
  m_terms.push_back(m_storage[0]);
  for (std::size_t p = 1; p < needed; ++p) {
    const std::string_view part = m_storage[p];
    if (part != m_storage[0] &&
        std::find(m_terms.begin() + 1, m_terms.end(), part) == m_terms.end()) {
      m_terms.push_back(part);
    }
  }
  return m_terms;
}

const std::vector<std::string_view>& Analyzer::query_terms_of(std::string_view token) {
  const std::vector<std::string_view>& terms = terms_of(token);
  m_kept.clear();
  if (terms.empty()) {
    return m_kept;
  }
  if (m_parts.size() > 1) {
    m_kept.push_back(terms.front());  // a compound is never a stop word as a whole
    for (std::size_t p = 0; p < m_parts.size(); ++p) {
      lower_into(m_parts[p], m_lowered);
      const std::string_view part = m_storage[p + 1];
      if (!is_query_stop_word(m_lowered) &&
          std::find(m_kept.begin(), m_kept.end(), part) == m_kept.end()) {
        m_kept.push_back(part);
      }
    }
    return m_kept;
  }
  // Stop words are matched on the word, not its stem (`does` would stem to `doe`).
  lower_into(token, m_lowered);
  if (!is_query_stop_word(m_lowered)) {
    m_kept.push_back(terms.front());
  }
  return m_kept;
}

std::vector<std::string> analyze(std::string_view text) {
  Analyzer analyzer;
  std::vector<std::string> out;
  for_each_token(text, [&](std::string_view token, std::size_t) {
    for (const std::string_view term : analyzer.terms_of(token)) {
      out.emplace_back(term);
    }
  });
  return out;
}

std::vector<std::string> query_terms(std::string_view query) {
  Analyzer analyzer;
  std::vector<std::string> all;
  std::vector<std::string> kept;
  const auto add = [](std::vector<std::string>& list, std::string_view term) {
    if (std::find(list.begin(), list.end(), term) == list.end()) {
      list.emplace_back(term);
    }
  };
  for_each_token(query, [&](std::string_view token, std::size_t) {
    for (const std::string_view term : analyzer.terms_of(token)) {
      add(all, term);
    }
    for (const std::string_view term : analyzer.query_terms_of(token)) {
      add(kept, term);
    }
  });
  return kept.empty() ? all : kept;
}

}  // namespace gv::search
