#pragma once

#include <filesystem>
#include <vector>

#include "core/finding.hpp"
#include "core/gate/gate.hpp"

namespace gv {

class Snapshot;
class PersistentParseCache;

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

// The cache file as the gate with `options` trusts it: keyed by its check set, so a file
// written by a binary with other checks (or other versions of them) is read as empty.
[[nodiscard]] PersistentParseCache load_gate_cache(const std::filesystem::path& cache_file,
                                                   const GateOptions& options);

// `<common git dir>/git-vault/parse-cache` of `repo`.
[[nodiscard]] std::filesystem::path gate_cache_file(const git::Repo& repo);

}  // namespace gv
