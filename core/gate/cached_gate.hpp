#pragma once

#include <filesystem>
#include <vector>

#include "core/finding.hpp"
#include "core/gate/gate.hpp"

namespace gv {

class Snapshot;

namespace git {
class Repo;
}

// The gate as the pre-commit hook and `git vault check` run it: with the repository's persisted
// parse cache (core/vault/parse_cache_file.hpp), so the cost follows the size of the change,
// not of the vault. A vault state checked before is answered from the cache without parsing;
// otherwise only memory files whose blob ids are new are parsed. The cache is written back when
// it changed; failing to write it never fails the gate. `options.cache` is ignored.
[[nodiscard]] std::vector<Finding> run_cached_gate(const Snapshot& snapshot,
                                                   const std::filesystem::path& cache_file,
                                                   GateOptions options);

// Reading a blob makes libgit2 re-hash it with collision-detecting SHA-1, which for the
// multi-megabyte generated index files costs more than the rest of a check. git itself does
// not verify objects on read either (`git fsck` does), so the gate turns it off for the
// process. Called by run_cached_gate and run_range_gate.
void skip_blob_hash_verification();

// `<common git dir>/git-vault/parse-cache` of `repo`.
[[nodiscard]] std::filesystem::path gate_cache_file(const git::Repo& repo);

}  // namespace gv
