#include "core/gate/cached_gate.hpp"

#include "core/gate/baseline.hpp"
#include "core/git/repo.hpp"
#include "core/vault/generated_records.hpp"
#include "core/vault/parse_cache_file.hpp"

namespace gv {

PersistentParseCache load_gate_cache(const std::filesystem::path& cache_file,
                                     const GateOptions& options) {
  return PersistentParseCache::load(cache_file, check_set_key(checks_to_run(options)));
}

std::vector<Finding> run_cached_gate(const Snapshot& snapshot,
                                     const std::filesystem::path& cache_file, GateOptions options) {
  if (options.skip_all) {
    return {};  // nothing runs, so there is nothing to load or remember
  }
  // Loaded only when a memory must be read or a state looked up: a commit answered from the
  // gate's baseline never maps the parse cache.
  std::optional<PersistentParseCache> cache;
  options.cache = nullptr;
  options.load_cache = [&]() {
    if (!cache) {
      cache = load_gate_cache(cache_file, options);
    }
    return &*cache;
  };
  // Kept beside the parse cache, in `<common git dir>/git-vault/`.
  const std::filesystem::path common_dir = cache_file.parent_path().parent_path();
  const GeneratedRecords generated = GeneratedRecords::load(generated_records_path(common_dir));
  options.generated = &generated;
  options.baseline_file = gate_baseline_path(common_dir);
  std::vector<Finding> findings = run_gate(snapshot, options);
  if (cache) {
    (void)cache->save(cache_file);
  }
  return findings;
}

std::filesystem::path gate_cache_file(const git::Repo& repo) {
  return parse_cache_path(repo.common_dir());
}

}  // namespace gv
