#include "core/recall/secondary.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <unordered_map>
#include <utility>

#include "core/recall/files.hpp"
#include "core/recall/id_order.hpp"

namespace gv::recall {
namespace {

constexpr std::int64_t k_stale_seconds = 30 * 86400;
constexpr std::int64_t k_daily_log_days = 30;
constexpr double k_min_overlap = 0.5;

// Common words of three letters or more that say nothing about a claim's topic.
constexpr std::array<std::string_view, 40> k_stop_words{
    "about", "after", "all",  "also",  "and",  "any",  "are",    "because", "been", "but",
    "can",   "does",  "for",  "from",  "had",  "has",  "have",   "into",    "its",  "just",
    "more",  "not",   "now",  "only",  "our",  "over", "should", "than",    "that", "the",
    "their", "them",  "then", "there", "this", "was",  "were",   "when",    "will", "with"};

bool is_ascii_alnum(unsigned char c) {
  return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

bool has_digit(std::string_view token) {
  return std::any_of(token.begin(), token.end(), [](char c) { return c >= '0' && c <= '9'; });
}

static_assert(std::is_sorted(k_stop_words.begin(), k_stop_words.end()));

bool is_stop_word(std::string_view token) {
  return std::binary_search(k_stop_words.begin(), k_stop_words.end(), token);
}

// Markdown marks, dropped from a text before it is split into tokens.
constexpr std::string_view k_marks = "*_`~[]()#>";

// normalised_tokens(text) joined by single spaces, built in place: a claim keeps only this, and
// a vector of token strings per entry was most of what collecting the claims cost.
std::string normalised_text(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  bool in_token = false;
  for (const char c : text) {
    if (k_marks.find(c) != std::string_view::npos) {
      continue;
    }
    const auto byte = static_cast<unsigned char>(c);
    if (is_ascii_alnum(byte) || byte >= 0x80) {
      if (!in_token && !out.empty()) {
        out += ' ';
      }
      out += (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c;
      in_token = true;
    } else {
      in_token = false;
    }
  }
  return out;
}

std::string_view status_of(const Record* record) {
  return record == nullptr ? std::string_view{"active"} : std::string_view{record->status};
}

// --- stale -----------------------------------------------------------------------------------

// `records` as records_by_entry gives them.
std::vector<StaleEntry> find_stale(const std::vector<ParsedFile>& files,
                                   const std::vector<std::vector<const Record*>>& records,
                                   Instant now) {
  struct Ranked {
    std::optional<Instant> reviewed;
    StaleEntry entry;
  };
  std::vector<Ranked> ranked;
  for (std::size_t f = 0; f < files.size(); ++f) {
    const ParsedFile& parsed = files[f];
    if (parsed.file.tier != Tier::register_) {
      continue;
    }
    for (std::size_t e = 0; e < parsed.entries.size(); ++e) {
      const Entry& entry = parsed.entries[e];
      if (entry.state != EntryState::tagged) {
        continue;
      }
      const Record* record = records[f][e];
      const std::string_view status = status_of(record);
      if (status == "superseded" || status == "archived") {
        continue;
      }
      std::optional<Instant> reviewed;
      if (record != nullptr && record->last_reviewed_at) {
        reviewed = parse_instant(*record->last_reviewed_at);
      }
      if (reviewed && now.seconds - reviewed->seconds <= k_stale_seconds) {
        continue;
      }
      StaleEntry stale{entry.id,   parsed.file.path, parsed.file.display_path,
                       entry.line, entry.text,       std::nullopt};
      if (reviewed) {
        stale.reviewed = date_of(*reviewed);
      }
      ranked.push_back({reviewed, std::move(stale)});
    }
  }
  // Never reviewed sorts first (nullopt < any instant); ties keep scan order.
  std::stable_sort(ranked.begin(), ranked.end(),
                   [](const Ranked& a, const Ranked& b) { return a.reviewed < b.reviewed; });
  std::vector<StaleEntry> out;
  for (Ranked& item : ranked) {
    out.push_back(std::move(item.entry));
  }
  return out;
}

// --- contradictions ---------------------------------------------------------------------------

// A claim points at its entry and holds its normalised text, and its tokens as numbers: equal
// tokens get one number, so overlaps are counted on sorted integers. At 50,000 entries, sets of
// token strings per claim were the largest thing a dry run held (doc/performance.md, "Working
// memory of 50,000 entries").
struct Claim {
  const Entry* entry = nullptr;
  std::size_t file = 0;  // index in scan order: entries of one file never contradict each other
  bool superseded = false;
  std::string normalised;                  // the tokens joined by single spaces
  std::span<const std::uint32_t> content;  // sorted, unique; in TokenNumbers' array
  std::span<const std::uint32_t> values;   // sorted, unique; in TokenNumbers' array
};

// Numbers the tokens of every claim, content and values apart, and holds them all in one array
// the claims point into: each claim's comparisons then read its neighbours' tokens, not vectors
// scattered over the heap. The table keeps its own copy of each distinct token, for the same
// reason (keys that pointed into the claims' texts sent every lookup to wherever the first claim
// with that token was). At 100,000 entries both made numbering take longer than collecting the
// claims (doc/performance.md, "Working memory of 100,000 entries").
class TokenNumbers {
 public:
  // Numbers the tokens of `claims` and points each claim's content and values at them, in this
  // object: it must outlive the claims' use of them.
  void index(std::vector<Claim>& claims) {
    struct Bounds {
      std::size_t content = 0;
      std::size_t values = 0;
      std::size_t end = 0;
    };
    std::vector<Bounds> bounds;
    bounds.reserve(claims.size());
    std::vector<std::uint32_t> content;
    std::vector<std::uint32_t> values;
    for (const Claim& claim : claims) {
      content.clear();
      values.clear();
      split(claim.normalised, content, values);
      Bounds& claim_bounds = bounds.emplace_back();
      claim_bounds.content = m_tokens.size();
      m_tokens.insert(m_tokens.end(), content.begin(), content.end());
      claim_bounds.values = m_tokens.size();
      m_tokens.insert(m_tokens.end(), values.begin(), values.end());
      claim_bounds.end = m_tokens.size();
    }
    const std::span<const std::uint32_t> all(m_tokens);
    for (std::size_t i = 0; i < claims.size(); ++i) {
      claims[i].content = all.subspan(bounds[i].content, bounds[i].values - bounds[i].content);
      claims[i].values = all.subspan(bounds[i].values, bounds[i].end - bounds[i].values);
    }
  }

  [[nodiscard]] std::size_t size() const { return m_numbers.size(); }

 private:
  enum class Kind : std::uint8_t { content, value, ignored };
  struct Number {
    std::uint32_t number = 0;
    Kind kind = Kind::ignored;
  };

  // The numbers of `text`'s value tokens (with a digit) and content tokens (3 letters or more,
  // not a stop-word), each sorted and unique.
  void split(std::string_view text, std::vector<std::uint32_t>& content,
             std::vector<std::uint32_t>& values) {
    std::size_t begin = 0;
    while (begin < text.size()) {
      std::size_t end = text.find(' ', begin);
      if (end == std::string_view::npos) {
        end = text.size();
      }
      const Number token = number(text.substr(begin, end - begin));
      if (token.kind == Kind::value) {
        values.push_back(token.number);
      } else if (token.kind == Kind::content) {
        content.push_back(token.number);
      }
      begin = end + 1;
    }
    sort_unique(values);
    sort_unique(content);
  }

  // A token's number and kind, decided the first time it is seen.
  Number number(std::string_view token) {
    if (const auto found = m_numbers.find(token); found != m_numbers.end()) {
      return found->second;
    }
    Number added{static_cast<std::uint32_t>(m_numbers.size()), Kind::ignored};
    if (has_digit(token)) {
      added.kind = Kind::value;
    } else if (token.size() >= 3 && !is_stop_word(token)) {
      added.kind = Kind::content;
    }
    m_numbers.emplace(std::string(token), added);
    return added;
  }

  static void sort_unique(std::vector<std::uint32_t>& tokens) {
    std::sort(tokens.begin(), tokens.end());
    tokens.erase(std::unique(tokens.begin(), tokens.end()), tokens.end());
  }

  // Looked up by a view of the claim's text, without a copy.
  struct Hash {
    using is_transparent = void;
    std::size_t operator()(std::string_view token) const {
      return std::hash<std::string_view>{}(token);
    }
  };
  std::unordered_map<std::string, Number, Hash, std::equal_to<>> m_numbers;
  std::vector<std::uint32_t> m_tokens;  // every claim's content, then values, in scan order
};

ContradictionSide side_of(const std::vector<ParsedFile>& files, const Claim& claim) {
  return {claim.entry->id, files[claim.file].file.display_path, claim.entry->line,
          claim.entry->text, claim.superseded};
}

// Both sorted and unique.
double jaccard(std::span<const std::uint32_t> a, std::span<const std::uint32_t> b) {
  if (a.empty() || b.empty()) {
    return 0.0;
  }
  std::size_t shared = 0;
  auto x = a.begin();
  auto y = b.begin();
  while (x != a.end() && y != b.end()) {
    if (*x < *y) {
      ++x;
    } else if (*y < *x) {
      ++y;
    } else {
      ++shared;
      ++x;
      ++y;
    }
  }
  return static_cast<double>(shared) / static_cast<double>(a.size() + b.size() - shared);
}

// The claims of `files` in scan order: tagged entries, active in the tiers that are loaded or
// superseded anywhere. `records` as records_by_entry gives them.
std::vector<Claim> collect_claims(const std::vector<ParsedFile>& files,
                                  const std::vector<std::vector<const Record*>>& records) {
  std::vector<Claim> claims;
  for (std::size_t f = 0; f < files.size(); ++f) {
    const ParsedFile& parsed = files[f];
    for (std::size_t e = 0; e < parsed.entries.size(); ++e) {
      const Entry& entry = parsed.entries[e];
      if (entry.state != EntryState::tagged) {
        continue;
      }
      const std::string_view status = status_of(records[f][e]);
      const bool superseded = status == "superseded";
      // Active claims compete only in the tiers that are loaded; a superseded one anywhere.
      if (!superseded && (status != "active" || parsed.file.tier == Tier::archive)) {
        continue;
      }
      Claim claim;
      claim.entry = &entry;
      claim.file = f;
      claim.superseded = superseded;
      claim.normalised = normalised_text(entry.text);
      claims.push_back(std::move(claim));
    }
  }
  return claims;
}

// Pairs (i, j) of claims, i < j in scan order, found flagged by the rules of secondary.hpp.
class FlaggedPairs {
 public:
  explicit FlaggedPairs(const std::vector<Claim>& claims) : m_claims(claims) {}

  // Compares claims `i` and `j` (in either order) and keeps the pair when it is flagged.
  void consider(std::size_t i, std::size_t j) {
    if (i > j) {
      std::swap(i, j);
    }
    const Claim& a = m_claims[i];
    const Claim& b = m_claims[j];
    if (i == j || a.file == b.file || (a.superseded && b.superseded)) {
      return;
    }
    bool flagged = false;
    if (a.superseded || b.superseded) {
      flagged = !a.normalised.empty() && a.normalised == b.normalised;
    } else {
      flagged = jaccard(a.content, b.content) >= k_min_overlap && !a.values.empty() &&
                !b.values.empty() &&
                !std::equal(a.values.begin(), a.values.end(), b.values.begin(), b.values.end());
    }
    if (flagged) {
      m_pairs.emplace_back(i, j);
    }
  }

  // Every pair once, in the order the pairwise loop gives (first claim, then second).
  [[nodiscard]] std::vector<std::pair<std::size_t, std::size_t>> sorted() && {
    std::sort(m_pairs.begin(), m_pairs.end());
    m_pairs.erase(std::unique(m_pairs.begin(), m_pairs.end()), m_pairs.end());
    return std::move(m_pairs);
  }

 private:
  const std::vector<Claim>& m_claims;
  std::vector<std::pair<std::size_t, std::size_t>> m_pairs;
};

// A superseded claim is flagged with an active claim of another file whose normalised text is
// the same. Only the texts of superseded claims are indexed (most vaults have few, and then the
// active claims are not looked at); each superseded claim meets the active claims of its text
// outside its own file's run.
void find_superseded_pairs(const std::vector<Claim>& claims,
                           const std::vector<std::size_t>& file_end, FlaggedPairs& pairs) {
  std::unordered_map<std::string_view, std::vector<std::size_t>> superseded;  // by text
  for (std::size_t i = 0; i < claims.size(); ++i) {
    if (claims[i].superseded && !claims[i].normalised.empty()) {
      superseded[claims[i].normalised].push_back(i);
    }
  }
  if (superseded.empty()) {
    return;
  }
  std::unordered_map<std::string_view, std::vector<std::size_t>> active;  // by text, scan order
  for (std::size_t j = 0; j < claims.size(); ++j) {
    if (!claims[j].superseded && superseded.contains(claims[j].normalised)) {
      active[claims[j].normalised].push_back(j);
    }
  }
  for (const auto& [text, group] : superseded) {
    const auto same = active.find(text);
    if (same == active.end()) {
      continue;
    }
    const std::vector<std::size_t>& others = same->second;
    for (const std::size_t i : group) {
      const std::size_t own_end = file_end[claims[i].file];
      const auto own_begin = std::lower_bound(
          others.begin(), others.end(), own_end,
          [&](std::size_t j, std::size_t) { return claims[j].file < claims[i].file; });
      for (auto it = others.begin(); it != own_begin; ++it) {
        pairs.consider(i, *it);
      }
      for (auto it = std::lower_bound(others.begin(), others.end(), own_end); it != others.end();
           ++it) {
        pairs.consider(i, *it);
      }
    }
  }
}

// Two active claims with values are flagged when their content overlap reaches k_min_overlap.
// Prefix filtering, as all-pairs similarity joins do it: with every claim's content tokens in
// one order, rarest first, claims x and y whose Jaccard overlap reaches k_min_overlap share
// |x ∩ y| >= needed(x) = ceil(k_min_overlap * |x|) tokens, and the first
// |x| - needed(x) + 2 tokens of x hold at least |x ∩ y| - needed(x) + 2 >= 2 of the shared ones:
// the two rarest. So both claims' prefixes of that length hold those two, and only prefixes are
// indexed and probed: a word most entries hold lands in few prefixes.
//
// A claim meets every claim of a later file whose prefix shares a token with its own; it is
// compared only with those sharing two. Sharing one word of a vocabulary with tens of
// thousands of entries of another file is common, and each comparison reads another claim from
// far away in memory: at 100,000 entries nine million such meetings cost more than the rest of
// the dry run together (doc/performance.md, "Working memory of 100,000 entries"). Sharing a
// single token can only reach the overlap when one claim holds one token and the other at most
// two ({a} and {a}, {a} and {a, b}); those are compared too.
void find_overlapping_pairs(const std::vector<Claim>& claims, std::size_t token_count,
                            const std::vector<std::size_t>& file_end, FlaggedPairs& pairs) {
  std::vector<std::size_t> frequency(token_count, 0);
  const auto eligible = [](const Claim& claim) {
    return !claim.superseded && !claim.values.empty() && !claim.content.empty();
  };
  for (const Claim& claim : claims) {
    if (eligible(claim)) {
      for (const std::uint32_t token : claim.content) {
        ++frequency[token];
      }
    }
  }
  // Each claim's prefix, rarest token first.
  std::vector<std::size_t> prefix_begin(claims.size() + 1, 0);
  std::vector<std::uint32_t> prefixes;
  // Each claim's number of content tokens, beside the others: read at every meeting.
  std::vector<std::uint32_t> sizes(claims.size(), 0);
  std::vector<std::uint32_t> ordered;
  for (std::size_t i = 0; i < claims.size(); ++i) {
    prefix_begin[i] = prefixes.size();
    const Claim& claim = claims[i];
    if (!eligible(claim)) {
      continue;
    }
    sizes[i] = static_cast<std::uint32_t>(claim.content.size());
    ordered.assign(claim.content.begin(), claim.content.end());
    std::sort(ordered.begin(), ordered.end(), [&](std::uint32_t x, std::uint32_t y) {
      return frequency[x] < frequency[y] || (frequency[x] == frequency[y] && x < y);
    });
    static_assert(k_min_overlap == 0.5, "needed is computed for an overlap of one half");
    const std::size_t needed = (ordered.size() + 1) / 2;  // ceil(k_min_overlap * |x|), exactly
    const std::size_t length = std::min(ordered.size(), ordered.size() - needed + 2);
    prefixes.insert(prefixes.end(), ordered.begin(),
                    ordered.begin() + static_cast<std::ptrdiff_t>(length));
  }
  prefix_begin[claims.size()] = prefixes.size();

  // The claims by prefix token, in one array: those whose prefix holds token t are
  // holders[holders_begin[t] .. holders_begin[t + 1]), in scan order.
  std::vector<std::size_t> holders_begin(token_count + 1, 0);
  for (const std::uint32_t token : prefixes) {
    ++holders_begin[token + 1];
  }
  for (std::size_t t = 0; t < token_count; ++t) {
    holders_begin[t + 1] += holders_begin[t];
  }
  std::vector<std::uint32_t> holders(prefixes.size());
  {
    std::vector<std::size_t> next(holders_begin.begin(), holders_begin.end() - 1);
    for (std::size_t i = 0; i < claims.size(); ++i) {
      for (std::size_t k = prefix_begin[i]; k < prefix_begin[i + 1]; ++k) {
        holders[next[prefixes[k]]++] = static_cast<std::uint32_t>(i);
      }
    }
  }

  // Prefix tokens each claim shares with claim i, counted up to 2 (all the test needs; a byte
  // per claim keeps the counts where the cache holds them).
  std::vector<std::uint8_t> shared(claims.size(), 0);
  std::vector<std::uint32_t> met;  // the claims with a count, in order met
  for (std::size_t i = 0; i < claims.size(); ++i) {
    // Only later claims of other files: the holders after this claim's file's run.
    const auto after_own = static_cast<std::uint32_t>(file_end[claims[i].file]);
    for (std::size_t k = prefix_begin[i]; k < prefix_begin[i + 1]; ++k) {
      const auto first = holders.begin() + static_cast<std::ptrdiff_t>(holders_begin[prefixes[k]]);
      const auto last =
          holders.begin() + static_cast<std::ptrdiff_t>(holders_begin[prefixes[k] + 1]);
      for (auto it = std::lower_bound(first, last, after_own); it != last; ++it) {
        std::uint8_t& count = shared[*it];
        if (count == 0) {
          met.push_back(*it);
        }
        count = count < 2 ? count + 1 : 2;
      }
    }
    for (const std::uint32_t j : met) {
      const std::uint8_t count = std::exchange(shared[j], 0);
      if (count >= 2 || (std::min(sizes[i], sizes[j]) == 1 && std::max(sizes[i], sizes[j]) <= 2)) {
        pairs.consider(i, j);
      }
    }
    met.clear();
  }
}

std::vector<Contradiction> find_contradictions(
    const std::vector<ParsedFile>& files, const std::vector<std::vector<const Record*>>& records) {
  std::vector<Claim> claims = collect_claims(files, records);
  TokenNumbers numbers;
  numbers.index(claims);
  // Claims come in scan order, so each file's claims are one run of indices: claims of other
  // files are the indices before its run and after it. Entries of one file never contradict each
  // other, and a vault keeps most of its entries in one file: skipping that file's run keeps a
  // working memory of 100,000 entries from costing 10^10 comparisons (doc/performance.md,
  // "Working memory of 50,000 entries").
  std::vector<std::size_t> file_end(files.size(), 0);
  for (std::size_t i = 0; i < claims.size(); ++i) {
    file_end[claims[i].file] = i + 1;
  }
  // Comparing every pair of claims is quadratic, and working memory can hold tens of thousands
  // of entries: only pairs that can be flagged are looked at.
  FlaggedPairs flagged(claims);
  find_superseded_pairs(claims, file_end, flagged);
  find_overlapping_pairs(claims, numbers.size(), file_end, flagged);
  const std::vector<std::pair<std::size_t, std::size_t>> pairs = std::move(flagged).sorted();
  std::vector<Contradiction> out;
  out.reserve(pairs.size());
  for (const auto& [i, j] : pairs) {
    out.push_back({side_of(files, claims[i]), side_of(files, claims[j])});
  }
  return out;
}

// --- open loops -------------------------------------------------------------------------------

// The `## ` headings of a file, read once: asking each closed item for the heading above it by
// reading the file from its start made a long open-loops register quadratic.
class Sections {
 public:
  explicit Sections(std::string_view bytes) {
    std::size_t begin = 0;
    while (begin < bytes.size()) {
      std::size_t end = bytes.find('\n', begin);
      if (end == std::string_view::npos) {
        end = bytes.size();
      }
      std::string_view line = bytes.substr(begin, end - begin);
      if (!line.empty() && line.back() == '\r') {
        line.remove_suffix(1);
      }
      if (line.starts_with("## ")) {
        line.remove_prefix(3);
        while (!line.empty() && (line.back() == ' ' || line.back() == '\t')) {
          line.remove_suffix(1);
        }
        m_starts.push_back(begin);
        m_headings.emplace_back(line);
      }
      begin = end + 1;
    }
  }

  // The heading, trimmed, of the last heading line that starts before `offset`; empty before
  // the first one.
  [[nodiscard]] std::string_view at(std::size_t offset) const {
    const auto after = std::lower_bound(m_starts.begin(), m_starts.end(), offset);
    if (after == m_starts.begin()) {
      return {};
    }
    return m_headings[static_cast<std::size_t>(after - m_starts.begin()) - 1];
  }

 private:
  std::vector<std::size_t> m_starts;  // where each heading's line starts, ascending
  std::vector<std::string> m_headings;
};

// The date after a word such as `due ` that stands on its own (not `overdue `).
std::optional<Date> dated(std::string_view text, std::string_view word) {
  for (std::size_t pos = text.find(word); pos != std::string_view::npos;
       pos = text.find(word, pos + 1)) {
    if (pos > 0 && is_ascii_alnum(static_cast<unsigned char>(text[pos - 1]))) {
      continue;
    }
    const std::string_view rest = text.substr(pos + word.size());
    if (rest.size() >= 10 &&
        (rest.size() == 10 || !is_ascii_alnum(static_cast<unsigned char>(rest[10])))) {
      if (const std::optional<Date> date = parse_date(rest.substr(0, 10))) {
        return date;
      }
    }
  }
  return std::nullopt;
}

void check_open_loops(const std::vector<ParsedFile>& files, Date today, SecondaryReport& report) {
  for (const ParsedFile& parsed : files) {
    if (parsed.file.path != k_open_loops_path) {
      continue;
    }
    const Sections sections(parsed.bytes);
    for (const Entry& entry : parsed.entries) {
      if (entry.state != EntryState::tagged) {
        continue;
      }
      const std::string_view text{entry.text};
      const bool open = text.starts_with("[ ] ");
      const bool closed = text.starts_with("[x] ") || text.starts_with("[X] ");
      if (!open && !closed) {
        continue;
      }
      OpenLoopFlag flag;
      flag.id = entry.id;
      flag.display_path = parsed.file.display_path;
      flag.line = entry.line;
      flag.text = std::string{text.substr(4)};
      if (open) {
        ++report.open_loops_active;
        const std::optional<Date> due = dated(text, "due ");
        if (due && *due < today) {
          flag.kind = OpenLoopFlag::Kind::past_due;
          flag.due = due;
          report.open_loop_flags.push_back(std::move(flag));
        }
      } else {
        ++report.open_loops_closed;
        if (sections.at(entry.begin) == "Active") {
          flag.kind = OpenLoopFlag::Kind::resolved;
          report.open_loop_flags.push_back(std::move(flag));
        }
      }
    }
  }
}

// --- daily logs -------------------------------------------------------------------------------

int count_old_daily_logs(const std::vector<std::string>& daily_logs, Date today) {
  constexpr std::string_view prefix = "memory/daily/";
  int count = 0;
  for (const std::string& path : daily_logs) {
    const std::string_view view{path};
    if (!view.starts_with(prefix)) {
      continue;
    }
    const std::string_view name = view.substr(prefix.size());
    if (name.size() != 13 || !name.ends_with(".md")) {
      continue;
    }
    const std::optional<Date> date = parse_date(name.substr(0, 10));
    if (date && days_between(today, *date) > k_daily_log_days) {
      ++count;
    }
  }
  return count;
}

std::string quoted_side(const ContradictionSide& side) {
  return fmt::format("{} says \"{}\"{}", side.display_path, side.text,
                     side.superseded ? " (superseded)" : "");
}

}  // namespace

std::vector<std::string> normalised_tokens(std::string_view text) {
  std::vector<std::string> tokens;
  std::string current;
  for (const char c : text) {
    if (k_marks.find(c) != std::string_view::npos) {
      continue;
    }
    const auto byte = static_cast<unsigned char>(c);
    if (is_ascii_alnum(byte) || byte >= 0x80) {
      current += (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c;
    } else if (!current.empty()) {
      tokens.push_back(std::move(current));
      current.clear();
    }
  }
  if (!current.empty()) {
    tokens.push_back(std::move(current));
  }
  return tokens;
}

SecondaryReport run_secondary_checks(const std::vector<ParsedFile>& files, const Metadata& metadata,
                                     Instant now, Date today,
                                     const std::vector<std::string>& daily_logs) {
  SecondaryReport report;
  const std::vector<std::vector<const Record*>> records = records_by_entry(files, metadata);
  report.stale = find_stale(files, records, now);
  report.contradictions = find_contradictions(files, records);
  check_open_loops(files, today, report);
  report.old_daily_logs = count_old_daily_logs(daily_logs, today);
  return report;
}

namespace {

// The line after a list cut at `limit`, or nothing when every row was shown.
std::string more_rows(std::size_t rows, std::size_t limit) {
  if (limit == 0 || rows <= limit) {
    return "";
  }
  return fmt::format("  ... and {} more (`--limit 0` lists them all; `--json` has every one)\n",
                     rows - limit);
}

}  // namespace

std::string render_secondary(const SecondaryReport& report, std::size_t limit) {
  std::string out;
  if (report.stale.empty()) {
    out += "Stale entries: none.\n";
  } else {
    out += "Stale entries (not reviewed in 30+ days):\n";
    for (std::size_t i = 0; i < report.stale.size() && (limit == 0 || i < limit); ++i) {
      const StaleEntry& stale = report.stale[i];
      out += fmt::format("  {}. [{}] Last reviewed: {}\n", i + 1, stale.display_path,
                         stale.reviewed ? format_date(*stale.reviewed) : "never");
      out += fmt::format("     \"{}\" ^{}\n", stale.text, stale.id);
    }
    out += more_rows(report.stale.size(), limit);
  }

  out += "\n";
  if (report.contradictions.empty()) {
    out += "Potential contradictions: none found.\n";
  } else {
    out += "Potential contradictions:\n";
    for (std::size_t i = 0; i < report.contradictions.size() && (limit == 0 || i < limit); ++i) {
      const Contradiction& pair = report.contradictions[i];
      const std::string number = fmt::format("{}. ", i + 1);
      const std::string indent(number.size(), ' ');
      out += fmt::format("\n{}{}\n{}{}\n{}→ Which is current?\n", number, quoted_side(pair.first),
                         indent, quoted_side(pair.second), indent);
    }
    out += more_rows(report.contradictions.size(), limit);
  }

  out += fmt::format("\nOpen loops: {} active, {} closed\n", report.open_loops_active,
                     report.open_loops_closed);
  for (std::size_t i = 0; i < report.open_loop_flags.size() && (limit == 0 || i < limit); ++i) {
    const OpenLoopFlag& flag = report.open_loop_flags[i];
    const std::string label = flag.kind == OpenLoopFlag::Kind::resolved
                                  ? std::string{"resolved"}
                                  : "past due " + format_date(*flag.due);
    out += fmt::format("  {}. [{}] \"{}\" ^{}\n", i + 1, label, flag.text, flag.id);
  }
  out += more_rows(report.open_loop_flags.size(), limit);

  if (report.old_daily_logs > 0) {
    out += fmt::format(
        "\nDaily logs older than 30 days: {} — suggest archiving to memory/archive/daily/\n",
        report.old_daily_logs);
  } else {
    out += "\nDaily logs older than 30 days: 0\n";
  }
  return out;
}

}  // namespace gv::recall
