#pragma once

#include <optional>
#include <string>
#include <vector>

#include "core/finding.hpp"
#include "core/vault/index_files.hpp"

namespace gv {

class Snapshot;

// The bytes of the three generated files as a snapshot holds them; nullopt when absent.
struct CommittedIndexFiles {
  std::optional<std::string> index_json;
  std::optional<std::string> index_md;
  std::optional<std::string> memories_readme;
};

// Validate-on-read (D4). A generated file is stale when a regeneration would write it, i.e.
// exactly when plan_index_writes lists it: a missing file; memory-index.json whose bytes differ
// from the fresh rendering once its own `generated_at` is kept (so a `version: 1` index, an
// unsorted one or a reformatted one is stale, while one from another day is not); an index.md or
// README.md whose bytes differ at all. Each stale file gives at least one finding (check
// `stale-index`, severity error, fix `git vault index`) naming what differs: ids missing from
// the index, orphaned ids, per-entry field drift, header fields, order, else formatting. An
// existing memory-index.json that is not valid JSON gives one finding with the line of the
// fault. A vault with no generated files at all is stale too; callers decide whether a vault
// exists before checking it.
[[nodiscard]] std::vector<Finding> check_index_files(const IndexFiles& fresh,
                                                     const CommittedIndexFiles& committed);

// The three generated files as `snapshot` holds them.
[[nodiscard]] CommittedIndexFiles read_index_files(const Snapshot& snapshot);

struct FileWrite {
  std::string path;  // repo-relative
  std::string bytes;
};

// What `git vault index` writes, in the order json, index.md, README.md: each file whose
// content would change. memory-index.json is rewritten (with the fresh `generated_at`) only
// when something other than `generated_at` changes, so running on another day writes nothing.
[[nodiscard]] std::vector<FileWrite> plan_index_writes(const IndexFiles& fresh,
                                                       const CommittedIndexFiles& committed);

}  // namespace gv
