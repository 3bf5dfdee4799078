#include "core/distill/refine_rules.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <set>
#include <unordered_map>
#include <variant>

#include "core/error.hpp"
#include "core/memory/body.hpp"
#include "core/memory/frontmatter.hpp"
#include "core/memory/frontmatter_edit.hpp"
#include "core/memory/lines.hpp"
#include "core/snapshot/snapshot.hpp"
#include "core/util/text.hpp"
#include "core/vault/vault.hpp"

namespace gv::distill {
namespace {

using Json = nlohmann::ordered_json;

constexpr std::size_t k_summary_max_chars = 100;
constexpr std::size_t k_enrich_below = 4;    // keyword_enrich fires under this many keywords
constexpr std::size_t k_enrich_terms = 5;    // extract_keywords_from_content(content, 5)
constexpr std::size_t k_term_min_chars = 5;  // "longer than 4 characters"
constexpr int k_term_min_count = 2;          // a term seen once is not "frequent"
constexpr int k_category_min_hits = 3;
constexpr int k_category_margin = 2;
constexpr std::size_t k_neighbour_min_shared = 2;

// Common English words of five or more letters that say nothing about a memory's subject
// (shorter words are dropped by length anyway), plus URL debris.
constexpr std::string_view k_stop_words[] = {
    "about",    "above",     "across",     "after",     "again",     "against", "along",
    "already",  "also",      "although",   "always",    "among",     "another", "anything",
    "around",   "available", "based",      "because",   "before",    "being",   "below",
    "between",  "cannot",    "could",      "doing",     "during",    "either",  "every",
    "example",  "first",     "following",  "further",   "having",    "however", "https",
    "instead",  "itself",    "later",      "least",     "little",    "might",   "never",
    "often",    "other",     "others",     "otherwise", "ourselves", "perhaps", "probably",
    "quite",    "rather",    "really",     "second",    "several",   "shall",   "should",
    "since",    "something", "sometimes",  "still",     "their",     "theirs",  "themselves",
    "there",    "therefore", "these",      "thing",     "things",    "those",   "though",
    "three",    "through",   "under",      "until",     "using",     "usually", "various",
    "whatever", "where",     "whether",    "which",     "while",     "within",  "without",
    "would",    "yourself",  "yourselves",
};

// Cue stems per category for the "cue words" rule: a word counts when it starts with a stem.
struct CategoryCues {
  std::string_view category;
  std::array<std::string_view, 10> stems;
};
constexpr CategoryCues k_category_cues[] = {
    {"CONFIG",
     {"config", "setting", "setup", "install", "option", "environment", "variable", "keymap",
      "dotfile", "plugin"}},
    {"WORKFLOW",
     {"workflow", "process", "procedure", "step", "checklist", "release", "deploy", "routine",
      "pipeline", "handoff"}},
    {"PATTERN",
     {"pattern", "design", "architect", "structure", "interface", "abstraction", "idiom",
      "layering", "convention", "template"}},
    {"TECHNIQUE",
     {"technique", "method", "approach", "trick", "algorithm", "optimi", "recipe", "heuristic",
      "shortcut", "tactic"}},
    {"INSIGHT",
     {"insight", "lesson", "learned", "realiz", "discover", "understand", "surpris", "takeaway",
      "observation", "finding"}},
};

using util::trim;

char ascii_lower(char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c; }

std::string lowered_term(std::string_view text) {
  std::string out(text);
  std::transform(out.begin(), out.end(), out.begin(), ascii_lower);
  return out;
}

bool is_continuation(char c) { return (static_cast<unsigned char>(c) & 0xC0) == 0x80; }

std::size_t code_points(std::string_view text) {
  return static_cast<std::size_t>(
      std::count_if(text.begin(), text.end(), [](char c) { return !is_continuation(c); }));
}

// The first `limit` code points of `text`.
std::string_view first_code_points(std::string_view text, std::size_t limit) {
  std::size_t count = 0;
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (!is_continuation(text[i]) && count++ == limit) {
      return text.substr(0, i);
    }
  }
  return text;
}

bool is_word_char(char c) {
  const auto u = static_cast<unsigned char>(c);
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
         c == '-' || u >= 0x80;
}

// Lower-cased words of `text`: runs of word characters with `-` and `_` trimmed from the ends,
// keeping only those with a letter in them.
std::vector<std::string> words_of(std::string_view text) {
  std::vector<std::string> words;
  std::size_t pos = 0;
  while (pos < text.size()) {
    while (pos < text.size() && !is_word_char(text[pos])) {
      ++pos;
    }
    const std::size_t start = pos;
    while (pos < text.size() && is_word_char(text[pos])) {
      ++pos;
    }
    std::string_view word = text.substr(start, pos - start);
    while (!word.empty() && (word.front() == '-' || word.front() == '_')) {
      word.remove_prefix(1);
    }
    while (!word.empty() && (word.back() == '-' || word.back() == '_')) {
      word.remove_suffix(1);
    }
    const bool has_letter = std::any_of(word.begin(), word.end(), [](char c) {
      return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
             static_cast<unsigned char>(c) >= 0x80;
    });
    if (has_letter) {
      words.push_back(lowered_term(word));
    }
  }
  return words;
}

// The body of a memory file (everything after the frontmatter), or the whole file without one.
std::string_view body_of(std::string_view bytes) {
  const FrontmatterSplit split = split_frontmatter(bytes);
  return split.status == FrontmatterStatus::ok ? split.body(bytes) : bytes;
}

// What Tier 2 reads of a memory: its title and main content (D9), without History or
// Connections, which describe other versions and other memories.
std::string content_text(const Memory& memory, std::string_view bytes) {
  const std::string_view body = body_of(bytes);
  const BodySections sections = locate_sections(body);
  return memory.title + "\n" +
         std::string(body.substr(sections.main.begin, sections.main.end - sections.main.begin));
}

std::string strip_markers(std::string_view line) {
  line = trim(line);
  bool changed = true;
  while (changed && !line.empty()) {
    changed = false;
    if (line.front() == '>') {
      line = trim(line.substr(1));
      changed = true;
      continue;
    }
    if (line.size() >= 2 && (line[0] == '-' || line[0] == '*' || line[0] == '+') &&
        (line[1] == ' ' || line[1] == '\t')) {
      line = trim(line.substr(2));
      changed = true;
      continue;
    }
    std::size_t digits = 0;
    while (digits < line.size() && line[digits] >= '0' && line[digits] <= '9') {
      ++digits;
    }
    if (digits > 0 && digits + 1 < line.size() && (line[digits] == '.' || line[digits] == ')') &&
        (line[digits + 1] == ' ' || line[digits + 1] == '\t')) {
      line = trim(line.substr(digits + 2));
      changed = true;
    }
  }
  return std::string(line);
}

// The file's raw value text for `key` (first line only), to render a new value in the same
// quoting; empty when the key is absent or has no value on its line.
std::string_view raw_value(std::string_view bytes, std::string_view key) {
  const FrontmatterSplit split = split_frontmatter(bytes);
  const FrontmatterKey* found = split.find(key);
  if (found == nullptr) {
    return {};
  }
  const std::vector<TextLine> lines = split_lines(bytes);
  const auto index = static_cast<std::size_t>(found->first_line - 1);
  if (index >= lines.size()) {
    return {};
  }
  const std::string_view line = line_text(bytes, lines[index]);
  const std::size_t colon = line.find(':');
  return colon == std::string_view::npos ? std::string_view{} : trim(line.substr(colon + 1));
}

// `text` as a scalar quoted the way the field was: plain stays plain where YAML allows it,
// anything else (and a new field) becomes double-quoted like the templates.
std::string render_like(std::string_view bytes, std::string_view key, std::string_view text) {
  const std::string_view raw = raw_value(bytes, key);
  if (!raw.empty() && raw.front() != '"' && raw.front() != '\'' && raw.front() != '#') {
    return yaml_plain_or_quoted(text);
  }
  return yaml_double_quoted(text);
}

std::vector<std::string> json_strings(const Json& value) {
  std::vector<std::string> out;
  for (const Json& item : value) {
    out.push_back(item.get<std::string>());
  }
  return out;
}

bool selected(const std::vector<std::string>& keys, const std::string& key) {
  return std::find(keys.begin(), keys.end(), key) != keys.end();
}

}  // namespace

std::string Tier2Fix::key() const {
  if (fix == k_fix_keyword_enrich) {
    return id + ":keywords";
  }
  if (fix == k_fix_category_reclassify) {
    return id + ":category";
  }
  return id + ":topic";
}

std::vector<RefineSubject> read_refine_subjects(const Vault& vault, const Snapshot& snapshot) {
  std::vector<RefineSubject> subjects;
  for (const Memory& memory : vault.memories) {
    if (!memory.active()) {
      continue;
    }
    std::optional<std::string> bytes = snapshot.read(memory.path);
    if (!bytes) {
      throw Error("{}: cannot read", memory.path);
    }
    subjects.push_back(RefineSubject{memory, std::move(*bytes)});
  }
  return subjects;
}

std::vector<std::string> dedupe_keywords(const std::vector<std::string>& keywords) {
  std::vector<std::string> kept;
  std::set<std::string> seen;
  for (const std::string& keyword : keywords) {
    if (seen.insert(keyword_key(keyword)).second) {
      kept.push_back(keyword);
    }
  }
  return kept;
}

std::string normalize_topic(std::string_view topic) {
  std::string text = lowered_term(trim(topic));
  std::replace(text.begin(), text.end(), '\\', '/');
  std::string out;
  std::size_t pos = 0;
  while (pos <= text.size()) {
    const std::size_t slash = std::min(text.find('/', pos), text.size());
    const std::string_view segment = trim(std::string_view(text).substr(pos, slash - pos));
    if (!segment.empty()) {
      if (!out.empty()) {
        out += '/';
      }
      out += segment;
    }
    pos = slash + 1;
  }
  return out;
}

std::optional<std::string> summary_from_body(std::string_view body) {
  const BodySections sections = locate_sections(body);
  const std::string_view main =
      body.substr(sections.main.begin, sections.main.end - sections.main.begin);
  FenceTracker fences;
  bool in_comment = false;
  for (const TextLine& line : split_lines(main)) {
    const std::string_view text = line_text(main, line);
    if (fences.feed(text)) {
      continue;
    }
    std::string_view rest = trim(text);
    if (in_comment) {
      const std::size_t close = rest.find("-->");
      if (close == std::string_view::npos) {
        continue;
      }
      in_comment = false;
      rest = trim(rest.substr(close + 3));
    }
    while (rest.starts_with("<!--")) {
      const std::size_t close = rest.find("-->", 4);
      if (close == std::string_view::npos) {
        in_comment = true;
        rest = {};
        break;
      }
      rest = trim(rest.substr(close + 3));
    }
    if (rest.empty() || rest.front() == '#') {
      continue;
    }
    const std::string content = strip_markers(rest);
    if (content.empty()) {
      continue;
    }
    return std::string(trim(first_code_points(content, k_summary_max_chars)));
  }
  return std::nullopt;
}

std::vector<std::string> content_terms(std::string_view text, std::size_t limit) {
  struct Count {
    int count = 0;
    std::size_t first = 0;
  };
  std::unordered_map<std::string, Count> counts;
  std::vector<std::string> order;
  for (std::string& word : words_of(text)) {
    if (code_points(word) < k_term_min_chars ||
        std::find(std::begin(k_stop_words), std::end(k_stop_words), word) !=
            std::end(k_stop_words)) {
      continue;
    }
    auto [it, added] = counts.try_emplace(word, Count{0, order.size()});
    ++it->second.count;
    if (added) {
      order.push_back(std::move(word));
    }
  }
  std::vector<std::string> terms;
  for (const std::string& word : order) {
    if (counts[word].count >= k_term_min_count) {
      terms.push_back(word);
    }
  }
  std::stable_sort(terms.begin(), terms.end(), [&](const std::string& a, const std::string& b) {
    return counts[a].count > counts[b].count;
  });
  if (terms.size() > limit) {
    terms.resize(limit);
  }
  return terms;
}

std::optional<CategoryGuess> infer_category(std::string_view text, std::string_view current) {
  CategoryGuess guess;
  for (const CategoryCues& cues : k_category_cues) {
    guess.hits[std::string(cues.category)] = 0;
  }
  for (const std::string& word : words_of(text)) {
    for (const CategoryCues& cues : k_category_cues) {
      if (std::any_of(cues.stems.begin(), cues.stems.end(),
                      [&](std::string_view stem) { return word.starts_with(stem); })) {
        ++guess.hits[std::string(cues.category)];
      }
    }
  }
  int best = 0;
  int best_count = 0;  // categories sharing the best score
  for (const auto& [category, hits] : guess.hits) {
    if (hits > best) {
      best = hits;
      best_count = 1;
      guess.category = category;
    } else if (hits == best) {
      ++best_count;
    }
  }
  std::string current_key(trim(current));
  std::transform(current_key.begin(), current_key.end(), current_key.begin(), [](char c) {
    return c >= 'a' && c <= 'z' ? static_cast<char>(c - 'a' + 'A') : c;
  });
  const auto current_hits = guess.hits.find(current_key);
  const int against = current_hits == guess.hits.end() ? 0 : current_hits->second;
  if (best < k_category_min_hits || best_count != 1 || guess.category == current_key ||
      best - against < k_category_margin) {
    return std::nullopt;
  }
  return guess;
}

std::optional<TopicSuggestion> suggest_topic(const Memory& memory,
                                             const std::vector<Memory>& others) {
  if (!memory.topic.empty() && memory.topic.find('/') == std::string::npos) {
    std::set<std::string> paths;
    const std::string tail = "/" + memory.topic;
    for (const Memory& other : others) {
      if (other.id != memory.id && other.topic.ends_with(tail)) {
        paths.insert(other.topic);
      }
    }
    if (paths.size() == 1) {
      return TopicSuggestion{*paths.begin(),
                             fmt::format("known-path: other memories file \"{}\" under \"{}\"",
                                         memory.topic, *paths.begin())};
    }
    return std::nullopt;
  }
  if (!memory.topic.empty()) {
    return std::nullopt;
  }
  std::set<std::string> own;
  for (const std::string& keyword : memory.keywords) {
    own.insert(keyword_key(keyword));
  }
  const Memory* neighbour = nullptr;
  std::size_t best = 0;
  for (const Memory& other : others) {  // by id, so the first of equals is the smallest id
    if (other.id == memory.id || other.topic.empty()) {
      continue;
    }
    std::set<std::string> shared;
    for (const std::string& keyword : other.keywords) {
      if (own.count(keyword_key(keyword)) != 0) {
        shared.insert(keyword_key(keyword));
      }
    }
    if (shared.size() > best) {
      best = shared.size();
      neighbour = &other;
    }
  }
  if (neighbour == nullptr || best < k_neighbour_min_shared) {
    return std::nullopt;
  }
  return TopicSuggestion{
      neighbour->topic,
      fmt::format("keyword-neighbour: shares {} keywords with {}", best, neighbour->id)};
}

bool has_explicit_category(std::string_view bytes) {
  const FrontmatterSplit split = split_frontmatter(bytes);
  if (split.status != FrontmatterStatus::ok || split.find("category") == nullptr) {
    return false;
  }
  const auto loaded = load_frontmatter(bytes, split);
  const YAML::Node* root = std::get_if<YAML::Node>(&loaded);
  if (root == nullptr) {
    return false;
  }
  const YAML::Node node = (*root)["category"];
  return node.IsDefined() && node.IsScalar() && !trim(node.Scalar()).empty();
}

RefineFixes find_refine_fixes(const std::vector<RefineSubject>& subjects) {
  RefineFixes fixes;
  std::vector<Memory> adjusted;  // as Tier 1 leaves them
  for (const RefineSubject& subject : subjects) {
    const Memory& memory = subject.memory;
    Memory after = memory;

    after.keywords = dedupe_keywords(memory.keywords);
    if (after.keywords.size() != memory.keywords.size()) {
      fixes.tier1.push_back(
          Tier1Fix{memory.id, std::string(k_fix_keyword_dedup),
                   "Remove duplicate keywords (case-insensitive, keep first occurrence)",
                   fmt::format("Removed {} duplicate keywords",
                               memory.keywords.size() - after.keywords.size()),
                   Json(memory.keywords), Json(after.keywords)});
    }
    if (memory.summary.empty()) {
      if (auto summary = summary_from_body(body_of(subject.bytes))) {
        after.summary = *summary;
        fixes.tier1.push_back(Tier1Fix{memory.id, std::string(k_fix_summary_gen),
                                       "Generate summary from first line of content",
                                       "Generated summary from content", Json(memory.summary),
                                       Json(*summary)});
      }
    }
    after.topic = normalize_topic(memory.topic);
    if (after.topic != memory.topic) {
      fixes.tier1.push_back(Tier1Fix{memory.id, std::string(k_fix_topic_normalize),
                                     "Normalize topic path (lowercase, clean separators)",
                                     "Normalized topic path", Json(memory.topic),
                                     Json(after.topic)});
    }
    adjusted.push_back(std::move(after));
  }

  for (std::size_t i = 0; i < subjects.size(); ++i) {
    const Memory& memory = adjusted[i];
    const std::string text = content_text(memory, subjects[i].bytes);

    if (memory.keywords.size() < k_enrich_below) {
      std::set<std::string> own;
      for (const std::string& keyword : memory.keywords) {
        own.insert(keyword_key(keyword));
      }
      std::vector<std::string> additions;
      for (const std::string& term : content_terms(text, k_enrich_terms)) {
        if (own.count(term) == 0) {
          additions.push_back(term);
        }
      }
      if (!additions.empty()) {
        fixes.tier2.push_back(Tier2Fix{
            memory.id, std::string(k_fix_keyword_enrich),
            "Add suggested keywords based on content analysis",
            fmt::format("content-terms: {} keywords (under {}); top {} words of over 4 letters "
                        "seen at least twice, minus current keywords",
                        memory.keywords.size(), k_enrich_below, k_enrich_terms),
            Json(memory.keywords), Json(additions)});
      }
    }

    if (!has_explicit_category(subjects[i].bytes)) {
      if (const auto guess = infer_category(text, memory.category)) {
        const std::string current_key = category_key(memory);
        const auto current_hits = guess->hits.find(current_key);
        fixes.tier2.push_back(Tier2Fix{
            memory.id, std::string(k_fix_category_reclassify), "Category may not match content",
            fmt::format("cue-words: {} {}, {} {}", guess->category, guess->hits.at(guess->category),
                        current_key.empty() ? "(none)" : current_key,
                        current_hits == guess->hits.end() ? 0 : current_hits->second),
            Json(memory.category), Json(guess->category)});
      }
    }

    if (const auto topic = suggest_topic(memory, adjusted)) {
      fixes.tier2.push_back(Tier2Fix{memory.id, std::string(k_fix_topic_correct),
                                     "Topic path inconsistent with cluster patterns", topic->rule,
                                     Json(memory.topic), Json(topic->topic)});
    }
  }
  return fixes;
}

RefineEdits apply_refine_fixes(const std::vector<RefineSubject>& subjects, const RefineFixes& fixes,
                               const std::vector<std::string>& selected_keys, Date today) {
  RefineEdits edits;
  for (const RefineSubject& subject : subjects) {
    const Memory& memory = subject.memory;
    std::vector<const Tier1Fix*> tier1;
    for (const Tier1Fix& fix : fixes.tier1) {
      if (fix.id == memory.id) {
        tier1.push_back(&fix);
      }
    }
    std::vector<const Tier2Fix*> tier2;
    for (const Tier2Fix& fix : fixes.tier2) {
      if (fix.id == memory.id && selected(selected_keys, fix.key())) {
        tier2.push_back(&fix);
      }
    }
    if (tier1.empty() && tier2.empty()) {
      continue;
    }

    std::optional<std::vector<std::string>> keywords;
    std::optional<std::string> summary;
    std::optional<std::string> topic;
    std::optional<std::string> category;
    Json applied = Json::array();
    for (const Tier1Fix* fix : tier1) {
      if (fix->fix == k_fix_keyword_dedup) {
        keywords = json_strings(fix->after);
      } else if (fix->fix == k_fix_summary_gen) {
        summary = fix->after.get<std::string>();
      } else {
        topic = fix->after.get<std::string>();
      }
      applied.push_back(fix->fix);
    }
    for (const Tier2Fix* fix : tier2) {
      if (fix->fix == k_fix_keyword_enrich) {
        std::vector<std::string> list = keywords.value_or(memory.keywords);
        for (const std::string& addition : json_strings(fix->suggested)) {
          list.push_back(addition);
        }
        keywords = std::move(list);
      } else if (fix->fix == k_fix_category_reclassify) {
        category = fix->suggested.get<std::string>();
      } else {
        topic = fix->suggested.get<std::string>();
      }
      applied.push_back(fix->fix);
    }

    FrontmatterEditor editor(memory.path, subject.bytes);
    if (category) {
      std::vector<std::string> tags = memory.tags;
      if (tags.empty()) {
        tags.push_back(*category);
      } else {
        tags.front() = *category;
      }
      editor.set_list("tags", tags);
    }
    if (topic) {
      editor.insert_fields({{"topic", render_like(subject.bytes, "topic", *topic)}}, "tags",
                           "source");
    }
    editor.insert_fields({{"modified", format_date(today)}}, "source", "keywords");
    if (keywords) {
      editor.set_list("keywords", *keywords);
    }
    if (summary) {
      editor.insert_fields({{"summary", render_like(subject.bytes, "summary", *summary)}},
                           "keywords", "retrieval_count");
    }

    edits.files[memory.path] = editor.bytes();
    edits.ids.push_back(memory.id);
    edits.tier1_count += tier1.size();
    edits.tier2_count += tier2.size();
    edits.affected.push_back(
        Json{{"id", memory.id}, {"fixes_applied", std::move(applied)}, {"action", "refined"}});
  }
  return edits;
}

std::string render_tier1_table(const std::vector<Tier1Fix>& fixes) {
  std::string out =
      "## Tier 1 Automatic Fixes\n\n| Memory | Fix | Description "
      "|\n|--------|-----|-------------|\n";
  for (const Tier1Fix& fix : fixes) {
    out += fmt::format("| {} | {} | {} |\n", fix.id, fix.fix, fix.outcome);
  }
  return out;
}

std::string describe_value(const Json& value) {
  if (value.is_array()) {
    std::string out = "[";
    for (std::size_t i = 0; i < value.size(); ++i) {
      out += (i == 0 ? "" : ", ") + value[i].get<std::string>();
    }
    return out + "]";
  }
  const std::string text = value.is_string() ? value.get<std::string>() : value.dump();
  return text.empty() ? "\"\"" : text;
}

}  // namespace gv::distill
