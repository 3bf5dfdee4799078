#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/dates.hpp"
#include "core/memory/memory.hpp"
#include "core/scoring/score.hpp"

// The merge sub-mode's rules (doc/merge-and-compress.md, "merge"; doc/decisions.md, D9) as pure
// functions; core/distill/merge.cpp also defines the SubMode that strings them together.
namespace gv::distill {

// A memory's retrieval bookkeeping as merge sees it: the larger count and later date of the
// frontmatter and the old index (D4).
struct Retrievals {
  std::int64_t count = 0;
  std::optional<Date> last;
};

[[nodiscard]] Retrievals effective_retrievals(const Memory& memory,
                                              const scoring::RetrievalOverrides& overrides);

// One merge candidate: two active memories of one topic cluster whose keyword overlap
// (max(|A∩B|/|A|, |A∩B|/|B|) over keyword keys) is at least 0.6. The primary is already
// determined (D9), so the pair's key is `PRIMARY+SECONDARY`.
struct MergePair {
  std::string cluster;
  std::string primary;
  std::string secondary;
  double overlap = 0.0;
  std::vector<std::string> shared_keywords;  // keyword keys, sorted

  [[nodiscard]] std::string key() const { return primary + "+" + secondary; }
};

// The facts the primary rule compares.
struct PrimaryFacts {
  std::string_view id;
  std::int64_t retrieval_count = 0;
  Date created;
};

// True when `a` is the primary of the pair {a, b}: the higher retrieval count, then the older
// `created`, then the id first in byte order.
[[nodiscard]] bool is_primary(const PrimaryFacts& a, const PrimaryFacts& b);

// The most merge candidates a run lists. A vault whose keywords are so alike that more pairs
// than this share 60% of them (tens of millions at 100,000 memories on a small vocabulary, a
// kilobyte or more each as candidates) is refused rather than filling the memory: overlap cannot
// tell its duplicates apart (doc/performance.md).
inline constexpr std::size_t k_most_merge_pairs = 500'000;

// Every merge candidate among the active memories of `memories` (tombstoned ones are skipped),
// sorted by cluster, overlap descending, primary, secondary. Pairs are found through an inverted
// keyword index per cluster, so the cost grows with the pairs that share a keyword, not with
// all pairs of a large cluster. Memories without keywords never pair. Throws Error once more
// than `most` pairs are found.
[[nodiscard]] std::vector<MergePair> merge_pairs(const std::vector<Memory>& memories,
                                                 const scoring::RetrievalOverrides& overrides,
                                                 std::size_t most = k_most_merge_pairs);

// `overlap` as the dry run and the primary's `**Overlap Score**` line show it: whole percent,
// rounded half up (0.8 -> `80%`, 2/3 -> `67%`).
[[nodiscard]] std::string overlap_percent(double overlap);

// One side of a merge: the file's current bytes and what they parse to.
struct MergeSide {
  std::string_view path;
  std::string_view bytes;
  const Memory& memory;
  Retrievals retrievals;
};

// What merging one pair produces. When `missing_keywords` is not empty the keyword superset
// invariant failed: the bytes are empty and nothing may be written.
struct MergedPair {
  std::string primary_bytes;
  std::string secondary_bytes;       // the secondary, tombstoned `merged_into:{primary}`
  std::size_t primary_keywords = 0;  // distinct keyword keys before
  std::size_t secondary_keywords = 0;
  std::size_t merged_keywords = 0;            // distinct keyword keys of the written primary
  std::vector<std::string> missing_keywords;  // keys, sorted
};

// Merges `secondary` into `primary` (doc/merge-and-compress.md, "merge"; doc/decisions.md, D9),
// with minimal edits: the primary's frontmatter changes only in `created` (earliest), `modified`
// (today), `tags` (union), `keywords` (union sorted by key, written only when the set grows),
// `retrieval_count` (sum) and `last_retrieved` (latest); its body keeps its bytes and gains a
// `## Merged From {secondary}` section after the main content, the secondary's History entries
// at the end of one `## History` section, and the secondary's Connections lines it lacked.
// The keyword superset invariant is checked on the written primary, re-parsed. Throws
// gv::Error `path:1:` when a file has no frontmatter block.
[[nodiscard]] MergedPair merge_memories(const MergeSide& primary, const MergeSide& secondary,
                                        double overlap, Date today);

// The keyword superset invariant (doc/merge-and-compress.md, "merge"): the keyword keys of
// `primary` or `secondary` that `written` (the merged primary as it reads back) lacks, sorted.
// Empty when the invariant holds.
[[nodiscard]] std::vector<std::string> missing_keywords(const Memory& primary,
                                                        const Memory& secondary,
                                                        const Memory& written);

// Merge chains (doc/decisions.md D14): for each secondary of `absorbed_into` (secondary id -> the
// primary it was merged into, in one run), the primary at the end of its chain, which is active
// after the run. B -> A and A -> C give B -> C and A -> C.
[[nodiscard]] std::map<std::string, std::string> final_primaries(
    const std::map<std::string, std::string>& absorbed_into);

// `bytes` with every wiki link to `from` in the body (`[[from]]`, `[[from|alias]]`,
// `[[from#anchor]]`) pointing at `to` instead; only the link targets change. Links inside
// fenced code and HTML comments are left alone, like wiki_links. nullopt when nothing changed.
[[nodiscard]] std::optional<std::string> rewrite_links(std::string_view bytes,
                                                       std::string_view from, std::string_view to);

}  // namespace gv::distill
