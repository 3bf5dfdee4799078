#include "core/gate/range.hpp"

#include <set>
#include <tuple>

#include "core/gate/cached_gate.hpp"
#include "core/git/repo.hpp"
#include "core/snapshot/tree_snapshot.hpp"
#include "core/vault/parse_cache_file.hpp"

namespace gv {

std::vector<CommitFindings> first_introduced(std::vector<CommitFindings> commits) {
  std::set<std::tuple<std::string, std::string, std::string>> seen;
  std::vector<CommitFindings> out;
  for (CommitFindings& commit : commits) {
    CommitFindings kept{std::move(commit.commit), {}};
    for (Finding& finding : commit.findings) {
      if (seen.emplace(finding.path, finding.check, finding.message).second) {
        kept.findings.push_back(std::move(finding));
      }
    }
    if (!kept.findings.empty()) {
      out.push_back(std::move(kept));
    }
  }
  return out;
}

std::vector<CommitFindings> run_range_gate(const git::Repo& repo, std::string_view range,
                                           const std::filesystem::path& cache_file,
                                           GateOptions options) {
  if (options.skip_all) {
    return {};
  }
  PersistentParseCache cache = load_gate_cache(cache_file, options);
  options.cache = &cache;
  std::vector<CommitFindings> commits;
  for (const std::string& commit : repo.resolve_range(range)) {
    const TreeSnapshot snapshot(repo, commit);
    commits.push_back(CommitFindings{commit, run_gate(snapshot, options)});
  }
  (void)cache.save(cache_file);
  return first_introduced(std::move(commits));
}

}  // namespace gv
