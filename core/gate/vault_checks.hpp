#pragma once

#include <string>
#include <vector>

#include "core/finding.hpp"
#include "core/snapshot/snapshot.hpp"
#include "core/vault/parse_cache_file.hpp"
#include "core/vault/vault.hpp"

namespace gv {

// The pieces of run_gate that look at `.memory/`, separated so each can be tested alone.

// A digest of every path and blob id under `.memory/`: equal digests mean the vault part of the
// gate gives equal findings, so they can be remembered per digest.
[[nodiscard]] std::string vault_state_digest(const std::vector<SnapshotEntry>& vault_entries);

// Memory files whose ids differ only in ASCII case: they are one file on macOS and Windows.
// One `id-case-collision` error per file after the first of each group (paths in byte order).
[[nodiscard]] std::vector<Finding> case_collision_findings(
    const std::vector<SnapshotEntry>& vault_entries);

// `[[target]]` links in active memories that name no memory (or a tombstoned one): warnings
// (`dangling-link`). A target names a memory when, with any folders and a trailing `.md`
// removed, it equals a memory id; a target that names another file under `.memory/` (an index,
// a template) is not a memory link and is left alone. The line is found by reading the file.
[[nodiscard]] std::vector<Finding> dangling_link_findings(
    const Snapshot& snapshot, const std::vector<Memory>& memories,
    const std::vector<SnapshotEntry>& vault_entries);

// Validate-on-read of the three generated files against `memories` (sorted by id). The fresh
// memory-index.json carries the committed file's own `generated_at`, so an up-to-date index
// compares equal byte for byte and is never parsed as JSON. With a cache, it is first assembled
// from remembered per-memory entry texts (core/gate/index_json.hpp); only when that differs
// from the committed file is it rendered in full to explain the difference.
[[nodiscard]] std::vector<Finding> stale_index_findings(const Snapshot& snapshot,
                                                        const std::vector<Memory>& memories,
                                                        PersistentParseCache* cache = nullptr);

}  // namespace gv
