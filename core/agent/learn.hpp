#pragma once

#include <cstddef>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/dates.hpp"
#include "core/distill/term_scoring.hpp"
#include "core/memory/memory.hpp"
#include "core/plan.hpp"

namespace gv {
class Snapshot;
class ParseCache;
}  // namespace gv

// `git vault learn` and the MCP write_memory tool: skill-learn's creation primitives without the
// interactive stop (doc/agent.md, "git vault learn"). The overlap classification decides; a
// caller may override it.
namespace gv::agent {

enum class LearnOp { create, update, extend };

// `CREATE`, `UPDATE` or `EXTEND`.
[[nodiscard]] std::string_view op_name(LearnOp op);

// What the caller asked for with `--as`: `new`, `update:ID` or `extend:ID`.
struct LearnOverride {
  LearnOp op = LearnOp::create;
  std::string id;  // empty for `new`
};
// Throws gv::UsageError on anything else.
[[nodiscard]] LearnOverride parse_learn_override(std::string_view text);

struct LearnInput {
  std::string title;
  std::string content;                // Markdown body, without frontmatter
  std::string category;               // empty: kept from the target, else learn_category
  std::optional<std::string> topic;   // none: the nearest memory's, else the vault's usual one
  std::vector<std::string> keywords;  // empty: extracted from the content (for a new memory)
  std::string summary;                // empty: the content's first sentence
  std::string source = "user input";  // `user input` or `file: <path>`, as the memory records it
  std::string file;                   // the content's file as the user named it, for messages
};

// A word's weight in a ranking (learn: its rarity among the vault's memories).
using WordWeight = std::function<double(std::string_view word)>;

// Key term extraction made deterministic: words of letters, digits, `-` and `_`, lower-cased,
// stop words dropped, longer than four characters, counted; ranked by frequency (times
// `weight`, when given), then technical terms (with a digit, `-` or `_`) before plain words,
// then first appearance; the top `count`.
[[nodiscard]] std::vector<std::string> extract_key_terms(std::string_view text,
                                                         std::size_t count = 5,
                                                         const WordWeight& weight = {});

// Overlap scoring: |segment ∩ memory| / |segment| over normalized terms (search's plural
// fold, each term split into words); 0 for an empty segment.
[[nodiscard]] double overlap_score(const std::vector<std::string>& segment_terms,
                                   const std::vector<std::string>& memory_terms);

// The two above as the telemetry sub-modes take them (distill::TermScoring, doc/telemetry.md,
// "Rules"): one term extractor and one overlap for learn, revise, meta, dream and the
// harvest alike.
[[nodiscard]] distill::TermScoring learn_term_scoring();

// > 60% UPDATE, 30-60% EXTEND, < 30% CREATE; and CREATE whatever the overlap when fewer than two
// words of the key terms are shared: a short text has two or three key terms, and one common word
// ("lesson") is not the same subject (doc/agent.md).
[[nodiscard]] LearnOp classify_overlap(double overlap, std::size_t shared_terms);
// Whether `overlap` alone reaches EXTEND (30% or more), shared words aside.
[[nodiscard]] bool reaches_extend(double overlap);

struct OverlapMatch {
  std::string id;
  std::string title;
  double overlap = 0.0;
  std::vector<std::string> shared;  // segment terms the memory holds, in segment order
  LearnOp recommended = LearnOp::create;
};

struct LearnDecision {
  std::vector<std::string> key_terms;  // the segment's terms
  std::vector<OverlapMatch> matches;   // the five best search hits, highest overlap first
  LearnOp op = LearnOp::create;
  std::string id;           // the memory written: the target, or the new id
  std::string path;         // its repo-relative path
  bool overridden = false;  // `--as` decided, not the overlap
};

// The category learn gives a memory when the caller gives none: the nearest memory's (the
// best overlap among the candidates), else INSIGHT; and where refine's cue-word rule
// (distill::infer_category) would reclassify that, the rule's answer, so `distill --refine`
// never contradicts it.
[[nodiscard]] std::string learn_category(std::string_view title, std::string_view content,
                                         const Memory* nearest);

struct LearnPlan {
  Plan plan;  // the memory file and the commit message (`vault(learn): …`); landing adds the
              // regenerated index files
  LearnDecision decision;
};

// Classifies `input` against the vault of `snapshot` (or follows `override`), renders the
// CREATE template, the UPDATE rewrite (old main content under `### Previous Version` in
// `## History`) or the EXTEND block, and validates the result as a memory. Throws gv::Error for
// content that would not be a valid memory, a target that does not exist or is tombstoned, and
// content with `## History` / `## Connections` headings; gv::UsageError for an empty title or
// content. Secrets are the caller's to refuse first.
// `search_cache` (search::search_cache_path), when given, seeds the search for overlapping
// memories, so only memories changed since it was written are split into terms again.
[[nodiscard]] LearnPlan plan_learn(const Snapshot& snapshot, const LearnInput& input,
                                   const std::optional<LearnOverride>& override, Date today,
                                   ParseCache* cache = nullptr,
                                   const std::filesystem::path& search_cache = {});

}  // namespace gv::agent

namespace gv::git {
class Repo;
}

namespace gv::agent {

// Refuses (gv::Error) input holding what looks like a secret, naming where (`content line 3
// (GitHub token)`, `title (…)`) and never the secret itself.
void refuse_secrets(const LearnInput& input);

struct LearnOutcome {
  LearnPlan learned;
  std::optional<std::string> commit;  // nullopt with --no-commit or a dry run
  bool written = false;               // false for a dry run
};

struct LearnFlags {
  bool commit = true;  // false: --no-commit, the files land in the work tree only
  bool dry_run = false;
  bool allow_dirty = false;
  // The caller can pass --allow-dirty, so a refusal names it (not so over MCP).
  bool offers_allow_dirty = true;
};

// refuse_secrets, plan_learn over the work tree of `repo`, then the one `vault(learn)` commit
// with the regenerated index files, through landing::land (refused while `.memory/` has
// uncommitted changes, unless allow_dirty). The outcome's plan is the one landed.
[[nodiscard]] LearnOutcome learn(git::Repo& repo, const LearnInput& input,
                                 const std::optional<LearnOverride>& override, Date today,
                                 const LearnFlags& flags, ParseCache* cache = nullptr);

}  // namespace gv::agent
