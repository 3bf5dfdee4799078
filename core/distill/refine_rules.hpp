#pragma once

#include <cstddef>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/dates.hpp"
#include "core/memory/memory.hpp"

namespace gv {
class Snapshot;
struct Vault;
}  // namespace gv

// The quality rules of `distill --refine` and `--auto` (doc/sub-modes.md, "refine" and "auto") as
// pure functions: what Tier 1 fixes on its own, what Tier 2 suggests, and the minimal frontmatter
// edits (D9) that apply them. The original leaves the Tier 2 judgements to a model; here each is a
// deterministic rule whose name is shown with its suggestion (D10).
namespace gv::distill {

// Fix ids as the log's `fixes_applied` and the tables name them.
inline constexpr std::string_view k_fix_keyword_dedup = "keyword_dedup";
inline constexpr std::string_view k_fix_summary_gen = "summary_gen";
inline constexpr std::string_view k_fix_topic_normalize = "topic_normalize";
inline constexpr std::string_view k_fix_keyword_enrich = "keyword_enrich";
inline constexpr std::string_view k_fix_category_reclassify = "category_reclassify";
inline constexpr std::string_view k_fix_topic_correct = "topic_correct";

// One active memory as refine sees it: the parsed fields and the file's bytes.
struct RefineSubject {
  Memory memory;
  std::string bytes;
};

// A fix applied without asking (Tier 1, a sanctioned exemption from the MANDATORY STOP).
struct Tier1Fix {
  std::string id;           // memory id
  std::string fix;          // keyword_dedup, summary_gen or topic_normalize
  std::string description;  // the fix's description, as the tables show it
  std::string outcome;      // the table's text, e.g. `Removed 2 duplicate keywords`
  nlohmann::ordered_json before;
  nlohmann::ordered_json after;
};

// A fix offered at the MANDATORY STOP (Tier 2).
struct Tier2Fix {
  std::string id;
  std::string fix;          // keyword_enrich, category_reclassify or topic_correct
  std::string description;  // the fix's description, as the prompt shows it
  std::string rule;         // the rule that fired and why, e.g. `cue words: CONFIG 4, PATTERN 0`
  nlohmann::ordered_json current;    // keywords (array), category or topic (string)
  nlohmann::ordered_json suggested;  // keywords to add (array), category or topic (string)

  // What --select names: `MEM-x:keywords`, `MEM-x:category` or `MEM-x:topic`.
  [[nodiscard]] std::string key() const;
};

struct RefineFixes {
  std::vector<Tier1Fix> tier1;  // by memory, then keyword_dedup, summary_gen, topic_normalize
  std::vector<Tier2Fix>
      tier2;  // by memory, then keyword_enrich, category_reclassify, topic_correct
};

// The active memories of `vault` with their bytes from `snapshot`, by id. Throws gv::Error when
// a memory file cannot be read.
[[nodiscard]] std::vector<RefineSubject> read_refine_subjects(const Vault& vault,
                                                              const Snapshot& snapshot);

// Runs every rule over `subjects` (active memories, by id). Tier 2 looks at each memory as Tier 1
// leaves it (deduplicated keywords, normalised topic), since Tier 1 is applied in any case.
[[nodiscard]] RefineFixes find_refine_fixes(const std::vector<RefineSubject>& subjects);

// --- Tier 1 rules ---

// keyword_dedup: the first occurrence of each keyword, compared as D2 says (trimmed,
// case-insensitive).
[[nodiscard]] std::vector<std::string> dedupe_keywords(const std::vector<std::string>& keywords);

// topic_normalize: lower-case; `\` becomes `/`; blanks around separators, repeated separators and
// leading or trailing `/` go. Blanks inside a segment stay: they are part of its name.
[[nodiscard]] std::string normalize_topic(std::string_view topic);

// summary_gen: the first line of content of a memory body (the bytes after the frontmatter):
// the first non-blank line after the `# title` line that is not a heading, a fence, inside
// fenced code or an HTML comment, with list and quote markers removed, cut to 100 characters
// (code points, so UTF-8 is never split). nullopt when the body has no such line.
[[nodiscard]] std::optional<std::string> summary_from_body(std::string_view body);

// --- Tier 2 rules ---

// keyword_enrich's key terms (doc/sub-modes.md, "refine") made deterministic: words of the text
// (letters, digits, `_`, inner `-`), lower-cased, longer than 4 characters, not stop words, seen at
// least twice; the `limit` most frequent, ties in order of first appearance.
[[nodiscard]] std::vector<std::string> content_terms(std::string_view text, std::size_t limit);

struct CategoryGuess {
  std::string category;             // CONFIG, WORKFLOW, PATTERN, TECHNIQUE or INSIGHT
  std::map<std::string, int> hits;  // cue words found per category
};

// The "cue words" rule: counts words starting with each category's cue stems (`config`,
// `setting`, ... for CONFIG). Suggests the category with the most hits when it has at least 3,
// no other category has as many, and it beats the current category by at least 2. nullopt
// when the rule does not fire or agrees with `current`.
[[nodiscard]] std::optional<CategoryGuess> infer_category(std::string_view text,
                                                          std::string_view current);

struct TopicSuggestion {
  std::string topic;
  std::string rule;
};

// topic_correct rules over the other active memories (topics already normalised):
//  - known-path: a one-segment topic that other memories file as the last segment of exactly
//    one longer path (`requests` -> `python/libs/requests`);
//  - keyword-neighbour: an empty topic takes the topic of the memory sharing the most keywords
//    with it (at least 2; ties to the smallest id).
[[nodiscard]] std::optional<TopicSuggestion> suggest_topic(const Memory& memory,
                                                           const std::vector<Memory>& others);

// Whether the file names its category in a non-empty `category:` field; category_reclassify
// only looks at memories whose category is their first tag.
[[nodiscard]] bool has_explicit_category(std::string_view bytes);

// --- Applying ---

// The edits of one run: rewritten files and the log's `affected_memories` items.
struct RefineEdits {
  std::map<std::string, std::string> files;                           // path -> new bytes
  std::vector<std::string> ids;                                       // refined memories, by id
  nlohmann::ordered_json affected = nlohmann::ordered_json::array();  // {id, fixes_applied, action}
  std::size_t tier1_count = 0;
  std::size_t tier2_count = 0;
};

// Applies every Tier 1 fix in `fixes` and the Tier 2 fixes whose keys are in `selected_keys`,
// one minimal edit per memory (FrontmatterEditor: list styles and untouched bytes kept), and
// sets `modified` to `today` on each memory it changes. Throws gv::Error when a file cannot be
// edited.
[[nodiscard]] RefineEdits apply_refine_fixes(const std::vector<RefineSubject>& subjects,
                                             const RefineFixes& fixes,
                                             const std::vector<std::string>& selected_keys,
                                             Date today);

// The Tier 1 table (`## Tier 1 Automatic Fixes` and one row per fix).
[[nodiscard]] std::string render_tier1_table(const std::vector<Tier1Fix>& fixes);

// `Current: ... | Suggested: ...` values as the prompt shows them: lists as `[a, b]`, strings
// as they are (`""` when empty).
[[nodiscard]] std::string describe_value(const nlohmann::ordered_json& value);

}  // namespace gv::distill
