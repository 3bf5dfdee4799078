#include "core/recall/secondary.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <unordered_map>

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

bool is_stop_word(std::string_view token) {
  return std::find(k_stop_words.begin(), k_stop_words.end(), token) != k_stop_words.end();
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
  std::string normalised;              // the tokens joined by single spaces
  std::vector<std::uint32_t> content;  // sorted, unique
  std::vector<std::uint32_t> values;   // sorted, unique
};

// Numbers the tokens of every claim, content and values apart. Views point into the claims'
// texts, so it runs once the claims no longer move (a short string keeps its bytes inside).
class TokenNumbers {
 public:
  void index(Claim& claim) {
    const std::string_view text = claim.normalised;
    std::size_t begin = 0;
    while (begin < text.size()) {
      std::size_t end = text.find(' ', begin);
      if (end == std::string_view::npos) {
        end = text.size();
      }
      const std::string_view token = text.substr(begin, end - begin);
      if (has_digit(token)) {
        claim.values.push_back(number(token));
      } else if (token.size() >= 3 && !is_stop_word(token)) {
        claim.content.push_back(number(token));
      }
      begin = end + 1;
    }
    sort_unique(claim.values);
    sort_unique(claim.content);
  }

  [[nodiscard]] std::size_t size() const { return m_numbers.size(); }

 private:
  std::uint32_t number(std::string_view token) {
    return m_numbers.try_emplace(token, static_cast<std::uint32_t>(m_numbers.size())).first->second;
  }

  static void sort_unique(std::vector<std::uint32_t>& tokens) {
    std::sort(tokens.begin(), tokens.end());
    tokens.erase(std::unique(tokens.begin(), tokens.end()), tokens.end());
  }

  std::unordered_map<std::string_view, std::uint32_t> m_numbers;
};

ContradictionSide side_of(const std::vector<ParsedFile>& files, const Claim& claim) {
  return {claim.entry->id, files[claim.file].file.display_path, claim.entry->line,
          claim.entry->text, claim.superseded};
}

// Both sorted and unique.
double jaccard(const std::vector<std::uint32_t>& a, const std::vector<std::uint32_t>& b) {
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

// `records` as records_by_entry gives them.
std::vector<Contradiction> find_contradictions(
    const std::vector<ParsedFile>& files, const std::vector<std::vector<const Record*>>& records) {
  std::vector<Claim> claims;  // scan order
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
      for (const std::string& token : normalised_tokens(entry.text)) {
        claim.normalised += (claim.normalised.empty() ? "" : " ") + token;
      }
      claims.push_back(std::move(claim));
    }
  }
  TokenNumbers numbers;
  for (Claim& claim : claims) {
    numbers.index(claim);
  }
  // Comparing every pair of claims is quadratic, and working memory can hold tens of thousands
  // of entries. Only pairs that can be flagged are looked at, then reported in the order the
  // pairwise loop gives (first claim, then second, in scan order):
  // - a superseded claim matches only a claim with the same normalised text;
  // - two active claims need values on both sides and a content Jaccard overlap of at least
  //   k_min_overlap: only claims whose prefixes share a token are compared (below).
  std::vector<std::pair<std::size_t, std::size_t>> pairs;
  const auto consider = [&](std::size_t i, std::size_t j) {
    if (i > j) {
      std::swap(i, j);
    }
    const Claim& a = claims[i];
    const Claim& b = claims[j];
    if (i == j || a.file == b.file || (a.superseded && b.superseded)) {
      return;
    }
    bool flagged = false;
    if (a.superseded || b.superseded) {
      flagged = !a.normalised.empty() && a.normalised == b.normalised;
    } else {
      flagged = jaccard(a.content, b.content) >= k_min_overlap && !a.values.empty() &&
                !b.values.empty() && a.values != b.values;
    }
    if (flagged) {
      pairs.emplace_back(i, j);
    }
  };

  // Claims come in scan order, so each file's claims are one run of indices: claims of other
  // files are the indices before its run and after it. Entries of one file never contradict each
  // other, and a vault keeps most of its entries in one file: skipping that file's run keeps a
  // working memory of 100,000 entries from costing 10^10 comparisons (doc/performance.md,
  // "Working memory of 50,000 entries").
  std::vector<std::size_t> file_end(files.size(), 0);
  for (std::size_t i = 0; i < claims.size(); ++i) {
    file_end[claims[i].file] = i + 1;
  }

  std::unordered_map<std::string_view, std::vector<std::size_t>> by_text;
  for (std::size_t i = 0; i < claims.size(); ++i) {
    if (!claims[i].normalised.empty()) {
      by_text[claims[i].normalised].push_back(i);
    }
  }
  for (const auto& [text, group] : by_text) {
    // Only a superseded claim and an active one of another file can be flagged: each superseded
    // claim meets the active ones of the group outside its own file's run.
    std::vector<std::size_t> active;
    for (const std::size_t j : group) {
      if (!claims[j].superseded) {
        active.push_back(j);
      }
    }
    for (const std::size_t i : group) {
      if (!claims[i].superseded || active.empty()) {
        continue;
      }
      const std::size_t own_end = file_end[claims[i].file];
      const auto own_begin = std::lower_bound(
          active.begin(), active.end(), own_end,
          [&](std::size_t j, std::size_t) { return claims[j].file < claims[i].file; });
      for (auto it = active.begin(); it != own_begin; ++it) {
        consider(i, *it);
      }
      for (auto it = std::lower_bound(active.begin(), active.end(), own_end); it != active.end();
           ++it) {
        consider(i, *it);
      }
    }
  }

  // Prefix filtering, as all-pairs similarity joins do it: with every claim's content tokens in
  // one order, rarest first, two claims whose Jaccard overlap reaches k_min_overlap share a token
  // among the first |x| - ceil(k_min_overlap * |x|) + 1 of each (they share at least
  // ceil(k_min_overlap * |x|) tokens of either). Only those prefixes are indexed and probed: a
  // word most entries hold lands in few prefixes, so a claim meets the claims it may match and
  // not every claim that shares a common word with it.
  std::vector<std::size_t> frequency(numbers.size(), 0);
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
  std::vector<std::size_t> prefix_begin(claims.size() + 1, 0);
  std::vector<std::uint32_t> prefixes;
  std::vector<std::vector<std::size_t>> holders(numbers.size());  // claims by prefix token
  std::vector<std::uint32_t> ordered;
  for (std::size_t i = 0; i < claims.size(); ++i) {
    prefix_begin[i] = prefixes.size();
    const Claim& claim = claims[i];
    if (!eligible(claim)) {
      continue;
    }
    ordered = claim.content;
    std::sort(ordered.begin(), ordered.end(), [&](std::uint32_t x, std::uint32_t y) {
      return frequency[x] < frequency[y] || (frequency[x] == frequency[y] && x < y);
    });
    // One token more than the bound: rounding can never drop a pair.
    const auto needed = static_cast<std::size_t>(
        std::ceil(k_min_overlap * static_cast<double>(claim.content.size())));
    const std::size_t length = std::min(ordered.size(), ordered.size() - needed + 2);
    for (std::size_t k = 0; k < length; ++k) {
      prefixes.push_back(ordered[k]);
      holders[ordered[k]].push_back(i);
    }
  }
  prefix_begin[claims.size()] = prefixes.size();
  std::vector<std::size_t> seen(claims.size(), claims.size());
  for (std::size_t i = 0; i < claims.size(); ++i) {
    // Only later claims of other files: the holders after this claim's file's run.
    const std::size_t after_own = file_end[claims[i].file];
    for (std::size_t k = prefix_begin[i]; k < prefix_begin[i + 1]; ++k) {
      const std::vector<std::size_t>& held = holders[prefixes[k]];
      for (auto it = std::lower_bound(held.begin(), held.end(), after_own); it != held.end();
           ++it) {
        if (seen[*it] != i) {
          seen[*it] = i;
          consider(i, *it);
        }
      }
    }
  }

  std::sort(pairs.begin(), pairs.end());
  pairs.erase(std::unique(pairs.begin(), pairs.end()), pairs.end());
  std::vector<Contradiction> out;
  out.reserve(pairs.size());
  for (const auto& [i, j] : pairs) {
    out.push_back({side_of(files, claims[i]), side_of(files, claims[j])});
  }
  return out;
}

// --- open loops -------------------------------------------------------------------------------

// The `## ` heading a byte offset falls under, trimmed; empty before the first one.
std::string section_at(std::string_view bytes, std::size_t offset) {
  std::string section;
  std::size_t begin = 0;
  while (begin < offset && begin < bytes.size()) {
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
      section = std::string{line};
    }
    begin = end + 1;
  }
  return section;
}

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
        if (section_at(parsed.bytes, entry.begin) == "Active") {
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
  constexpr std::string_view marks = "*_`~[]()#>";
  std::vector<std::string> tokens;
  std::string current;
  for (const char c : text) {
    if (marks.find(c) != std::string_view::npos) {
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
