#include "core/search/terms.hpp"

#include <algorithm>
#include <array>

namespace gv::search {
namespace {

bool ends_with(std::string_view text, std::string_view suffix) {
  return text.size() >= suffix.size() && text.substr(text.size() - suffix.size()) == suffix;
}

}  // namespace

void normalize_term(std::string_view word, std::string& out) {
  out.assign(word);
  for (char& c : out) {
    if (c >= 'A' && c <= 'Z') {
      c = static_cast<char>(c - 'A' + 'a');
    }
  }
  const std::string_view term = out;
  if (term.size() > 4 && ends_with(term, "ies")) {
    out.resize(out.size() - 3);
    out += 'y';
  } else if (term.size() > 3 && term.back() == 's' && !ends_with(term, "ss") &&
             !ends_with(term, "us") && !ends_with(term, "is")) {
    out.pop_back();
  }
  // A final `e` goes too, so `cache`, `caches`, `match` and `matches` meet at `cach` and
  // `match`; words of three letters keep it (`use`).
  if (out.size() >= 4 && out.back() == 'e') {
    out.pop_back();
  }
}

std::string normalize_term(std::string_view word) {
  std::string out;
  normalize_term(word, out);
  return out;
}

std::vector<std::string> query_terms(std::string_view query) {
  std::vector<std::string> all;
  std::vector<std::string> kept;
  std::string term;
  std::string lowered;
  for_each_word(query, [&](std::string_view word, std::size_t) {
    normalize_term(word, term);
    if (std::find(all.begin(), all.end(), term) != all.end()) {
      return;
    }
    all.push_back(term);
    // Stop words are matched before the plural fold, which would turn `does` into `doe`.
    lowered = word;
    for (char& c : lowered) {
      c = (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c;
    }
    if (!is_stop_word(lowered)) {
      kept.push_back(term);
    }
  });
  return kept.empty() ? all : kept;
}

std::string_view term_prefix(std::string_view term) {
  if (term.size() > 1 && term.back() == 'y') {
    term.remove_suffix(1);
  }
  return term;
}

}  // namespace gv::search
