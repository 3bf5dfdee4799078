#include "core/vault/id_naming.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <map>

#include "core/memory/stop_words.hpp"

namespace gv {
namespace {

constexpr std::string_view k_prefix = "MEM-";
// The categories a vault's ids may start with (doc/vault-format.md, "Categories"), and the
// other kinds vaults were seen to name ids by.
constexpr std::array<std::string_view, 9> k_category_words{"technique", "pattern",  "config",
                                                           "workflow",  "insight",  "standard",
                                                           "decision",  "practice", "reference"};

bool all_digits(std::string_view text) {
  return !text.empty() &&
         std::all_of(text.begin(), text.end(), [](char c) { return c >= '0' && c <= '9'; });
}

// `YYYY-MM-DD-NNN…` after the prefix: the date and the number's digits.
bool dated_parts(std::string_view rest, std::string_view& date, std::string_view& number) {
  if (rest.size() < 14 || rest[4] != '-' || rest[7] != '-' || rest[10] != '-' ||
      !all_digits(rest.substr(0, 4)) || !all_digits(rest.substr(5, 2)) ||
      !all_digits(rest.substr(8, 2))) {
    return false;
  }
  date = rest.substr(0, 10);
  std::size_t end = 11;
  while (end < rest.size() && rest[end] >= '0' && rest[end] <= '9') {
    ++end;
  }
  number = rest.substr(11, end - 11);
  return !number.empty() && (end == rest.size() || rest[end] == '-');
}

std::string_view rest_of(std::string_view id) {
  return id.starts_with(k_prefix) ? id.substr(k_prefix.size()) : id;
}

std::string lowered_word(std::string_view word) {
  std::string out;
  for (const char c : word) {
    out += (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c;
  }
  return out;
}

}  // namespace

IdNaming detect_id_naming(const std::vector<std::string>& ids) {
  std::map<IdStyle, std::size_t> votes;
  std::map<IdStyle, std::size_t> widths;
  for (const std::string& id : ids) {
    const std::string_view rest = rest_of(id);
    std::string_view date;
    std::string_view number;
    if (all_digits(rest)) {
      ++votes[IdStyle::numbered];
      widths[IdStyle::numbered] = std::max(widths[IdStyle::numbered], rest.size());
    } else if (dated_parts(rest, date, number)) {
      ++votes[IdStyle::dated];
      widths[IdStyle::dated] = std::max(widths[IdStyle::dated], number.size());
    } else if (std::any_of(k_category_words.begin(), k_category_words.end(),
                           [&](std::string_view word) {
                             return rest.size() > word.size() && rest.starts_with(word) &&
                                    rest[word.size()] == '-';
                           })) {
      ++votes[IdStyle::category_slug];
    } else {
      ++votes[IdStyle::slug];
    }
  }
  IdNaming naming;
  std::size_t best = votes[IdStyle::slug];
  for (const IdStyle style : {IdStyle::category_slug, IdStyle::dated, IdStyle::numbered}) {
    if (votes[style] > best) {
      best = votes[style];
      naming.style = style;
    }
  }
  if (naming.style == IdStyle::dated || naming.style == IdStyle::numbered) {
    naming.number_width = std::max<std::size_t>(widths[naming.style], 1);
  }
  return naming;
}

std::vector<std::string> slug_words(std::string_view title, std::size_t words) {
  std::vector<std::string> all;
  std::string word;
  const auto flush = [&] {
    if (!word.empty()) {
      all.push_back(word);
      word.clear();
    }
  };
  for (const char c : title) {
    const char lower = (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c;
    if ((lower >= 'a' && lower <= 'z') || (lower >= '0' && lower <= '9')) {
      word += lower;
    } else if (c == '\'') {
      continue;  // `don't` is one word
    } else {
      flush();
    }
  }
  flush();
  std::vector<std::string> kept;
  for (const std::string& candidate : all) {
    if (!is_stop_word(candidate) && candidate.size() > 1 &&
        std::find(kept.begin(), kept.end(), candidate) == kept.end()) {
      kept.push_back(candidate);
    }
  }
  if (kept.empty()) {
    kept = all;
  }
  if (kept.size() > words) {
    kept.resize(words);
  }
  return kept;
}

std::string name_memory(const IdNaming& naming, const std::vector<std::string>& ids,
                        std::string_view title, std::string_view category, Date today,
                        const std::function<bool(std::string_view id)>& exists) {
  std::vector<std::string> words = slug_words(title);
  if (naming.style == IdStyle::category_slug && !category.empty()) {
    const std::string lowered = lowered_word(category);
    if (std::find(words.begin(), words.end(), lowered) == words.end()) {
      words.insert(words.begin(), lowered);
    }
  }
  std::string slug;
  for (const std::string& word : words) {
    if (slug.size() + word.size() + 1 > 50 && !slug.empty()) {
      break;  // whole words only
    }
    slug += (slug.empty() ? "" : "-") + word.substr(0, 50);
  }
  if (slug.empty()) {
    slug = "memory";
  }

  std::string base;
  if (naming.style == IdStyle::dated || naming.style == IdStyle::numbered) {
    const std::string date = format_date(today);
    std::size_t next = 1;
    for (const std::string& id : ids) {
      const std::string_view rest = rest_of(id);
      std::string_view id_date;
      std::string_view number;
      if (naming.style == IdStyle::numbered && all_digits(rest) && rest.size() <= 9) {
        next = std::max<std::size_t>(next, std::stoul(std::string(rest)) + 1);
      } else if (naming.style == IdStyle::dated && dated_parts(rest, id_date, number) &&
                 id_date == date && number.size() <= 9) {
        next = std::max<std::size_t>(next, std::stoul(std::string(number)) + 1);
      }
    }
    const std::string counter = fmt::format("{:0{}}", next, naming.number_width);
    base = naming.style == IdStyle::numbered ? fmt::format("MEM-{}", counter)
                                             : fmt::format("MEM-{}-{}-{}", date, counter, slug);
  } else {
    base = fmt::format("MEM-{}", slug);
  }
  std::string id = base;
  for (int n = 2; exists(id); ++n) {
    id = fmt::format("{}-{}", base, n);
  }
  return id;
}

}  // namespace gv
