#include "core/gate/cached_gate.hpp"

#include "core/git/repo.hpp"
#include "core/vault/parse_cache_file.hpp"

namespace gv {

std::vector<Finding> run_cached_gate(const Snapshot& snapshot,
                                     const std::filesystem::path& cache_file, GateOptions options) {
  PersistentParseCache cache = PersistentParseCache::load(cache_file);
  options.cache = &cache;
  std::vector<Finding> findings = run_gate(snapshot, options);
  (void)cache.save(cache_file);
  return findings;
}

std::filesystem::path gate_cache_file(const git::Repo& repo) {
  return parse_cache_path(repo.common_dir());
}

}  // namespace gv
