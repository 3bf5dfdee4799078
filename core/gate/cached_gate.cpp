#include "core/gate/cached_gate.hpp"

#include <git2.h>

#include "core/git/repo.hpp"
#include "core/vault/parse_cache_file.hpp"

namespace gv {

void skip_blob_hash_verification() {
  (void)git_libgit2_opts(GIT_OPT_ENABLE_STRICT_HASH_VERIFICATION, 0);
}

std::vector<Finding> run_cached_gate(const Snapshot& snapshot,
                                     const std::filesystem::path& cache_file, GateOptions options) {
  skip_blob_hash_verification();
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
