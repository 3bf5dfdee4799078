#include "core/gate/cached_gate.hpp"

#include "core/git/repo.hpp"
#include "core/vault/parse_cache_file.hpp"

namespace gv {

PersistentParseCache load_gate_cache(const std::filesystem::path& cache_file,
                                     const GateOptions& options) {
  return PersistentParseCache::load(cache_file, check_set_key(gate_checks(options)));
}

std::vector<Finding> run_cached_gate(const Snapshot& snapshot,
                                     const std::filesystem::path& cache_file, GateOptions options) {
  if (options.skip_all) {
    return {};  // nothing runs, so there is nothing to load or remember
  }
  PersistentParseCache cache = load_gate_cache(cache_file, options);
  options.cache = &cache;
  std::vector<Finding> findings = run_gate(snapshot, options);
  (void)cache.save(cache_file);
  return findings;
}

std::filesystem::path gate_cache_file(const git::Repo& repo) {
  return parse_cache_path(repo.common_dir());
}

}  // namespace gv
