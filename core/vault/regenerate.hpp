#pragma once

#include <optional>
#include <set>
#include <string>
#include <vector>

#include "core/dates.hpp"
#include "core/plan.hpp"
#include "core/vault/generated_records.hpp"
#include "core/vault/index_reader.hpp"
#include "core/vault/vault.hpp"

namespace gv {

class Snapshot;

struct Regeneration {
  Vault after;                           // the vault once the plan is applied
  std::vector<std::string> regenerated;  // generated index files added to the plan
  std::vector<std::string> carried;      // memories whose retrieval counts came from `existing`
  // The blob ids of the regenerated files for the state `before` + plan, for the repository's
  // records (core/vault/generated_records.hpp); the writer that lands the plan saves it.
  std::optional<GeneratedRecord> record;
};

// The one index regeneration every writer uses (`git vault index`, every action commit, the
// post-merge reindex): adds to `plan` the three index files regenerated over the state
// `before` + `plan`, after carrying retrieval counts the old index held into frontmatter (D4)
// and refreshing `token_count` in every memory file the plan writes (D3), except the
// `verbatim` paths (a revert's restored files). Files whose content would not change are not
// added. Pure: reads only `before`; `cache` may be null. Throws gv::Error, naming them, while a
// memory file cannot be read (its entry would be dropped), unless `keep_unreadable_out`.
[[nodiscard]] Regeneration regenerate_index_files(Plan& plan, const Snapshot& before,
                                                  const std::optional<ExistingIndex>& existing,
                                                  Date today, ParseCache* cache,
                                                  const std::set<std::string>& verbatim = {},
                                                  bool keep_unreadable_out = false);

// The same, carrying over from the index `before` holds (nothing when it is absent or cannot
// be read).
[[nodiscard]] Regeneration regenerate_index_files(Plan& plan, const Snapshot& before, Date today,
                                                  ParseCache* cache,
                                                  bool keep_unreadable_out = false);

// D3 for memories no plan touches: each memory of `vault` whose frontmatter states a
// `token_count` other than the one its body counts gets it refreshed in `plan` (read from
// `before`, minimal edit), so that after `git vault index` the frontmatter says what the index
// says. Returns their ids. Reads every memory file with a `token_count` line: for `index`, which
// reads the vault anyway, never for a hook.
std::vector<std::string> refresh_stated_token_counts(Plan& plan, const Snapshot& before,
                                                     const Vault& vault);

// The index `snapshot` holds, when it has one that can be read.
[[nodiscard]] std::optional<ExistingIndex> read_existing_index(const Snapshot& snapshot);

}  // namespace gv
