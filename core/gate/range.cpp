#include "core/gate/range.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <iterator>
#include <set>
#include <string>
#include <string_view>
#include <tuple>

#include "core/gate/cached_gate.hpp"
#include "core/git/repo.hpp"
#include "core/snapshot/tree_snapshot.hpp"
#include "core/vault/parse_cache_file.hpp"

namespace gv {
namespace {

using Identity = std::tuple<std::string, std::string, std::string>;

// Path, check and message, without the line. A dangling link is the same finding whether its
// target is missing or tombstoned (a gc turns one into the other): `link [[target]]` is its
// identity.
Identity identity(const Finding& finding) {
  std::string_view message = finding.message;
  if (finding.check == "dangling-link") {
    if (const std::size_t end = message.find("]]"); end != std::string_view::npos) {
      message = message.substr(0, end + 2);
    }
  }
  return {finding.path, finding.check, std::string(message)};
}

}  // namespace

std::vector<CommitFindings> first_introduced(std::vector<CommitFindings> commits,
                                             const std::vector<Finding>& baseline) {
  std::set<Identity> seen;
  for (const Finding& finding : baseline) {
    seen.insert(identity(finding));
  }
  std::vector<CommitFindings> out;
  for (CommitFindings& commit : commits) {
    CommitFindings kept{std::move(commit.commit), {}};
    for (Finding& finding : commit.findings) {
      if (seen.insert(identity(finding)).second) {
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
  const std::vector<std::string> ids = repo.resolve_range(range);
  // What the range starts from: each parent outside it (A of A..B, and what a merge in the
  // range brings in). A finding those trees already have is not the range's doing. A single
  // revision is checked in full.
  std::vector<Finding> baseline;
  if (range.find("..") != std::string_view::npos) {
    const std::set<std::string> in_range(ids.begin(), ids.end());
    std::set<std::string> outside;
    for (const std::string& id : ids) {
      for (const std::string& parent : repo.commit_info(id).parents) {
        if (!in_range.contains(parent) && outside.insert(parent).second) {
          std::vector<Finding> found = run_gate(TreeSnapshot(repo, parent), options);
          std::move(found.begin(), found.end(), std::back_inserter(baseline));
        }
      }
    }
  }
  std::vector<CommitFindings> commits;
  for (std::size_t i = 0; i < ids.size(); ++i) {
    const bool tip = i + 1 == ids.size();  // oldest first: the range's end comes last
    const bool merge = repo.commit_info(ids[i]).parents.size() > 1;
    if (merge && !tip) {
      continue;
    }
    const TreeSnapshot snapshot(repo, ids[i]);
    CommitFindings commit{ids[i], run_gate(snapshot, options)};
    if (merge) {
      for (Finding& finding : commit.findings) {
        if (finding.check == "stale-index") {
          finding.fix = std::string(k_stale_merge_fix);
        }
      }
    }
    commits.push_back(std::move(commit));
  }
  (void)cache.save(cache_file);
  std::vector<CommitFindings> introduced = first_introduced(std::move(commits), baseline);
  // Before the tip, `git vault index && git add .memory` cannot fix a commit any more.
  const std::size_t dots = range.find("..");
  const std::string base = dots == std::string_view::npos || dots == 0
                               ? std::string("<base>")
                               : std::string(range.substr(0, dots));
  if (ids.empty()) {
    return introduced;
  }
  // Once a commit before the tip needs the rewrite, so does a stale index at a tip that is not a
  // merge: a new commit on top would leave the earlier one failing.
  const auto stale = [](const CommitFindings& commit) {
    return std::any_of(commit.findings.begin(), commit.findings.end(),
                       [](const Finding& finding) { return finding.check == "stale-index"; });
  };
  const bool rewrite = std::any_of(
      introduced.begin(), introduced.end(),
      [&](const CommitFindings& commit) { return commit.commit != ids.back() && stale(commit); });
  const bool tip_is_merge = repo.commit_info(ids.back()).parents.size() > 1;
  for (CommitFindings& commit : introduced) {
    if (commit.commit == ids.back() && (!rewrite || tip_is_merge)) {
      continue;
    }
    for (Finding& finding : commit.findings) {
      if (finding.check == "stale-index") {
        finding.fix = fmt::format(fmt::runtime(k_stale_inner_fix), base);
      }
    }
  }
  return introduced;
}

}  // namespace gv
