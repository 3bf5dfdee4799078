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

void mark_fixed_later(std::vector<CommitFindings>& introduced,
                      const std::vector<CommitFindings>& checked) {
  // Which checked commits have each finding, by identity.
  std::vector<std::set<Identity>> present;
  present.reserve(checked.size());
  for (const CommitFindings& commit : checked) {
    std::set<Identity>& has = present.emplace_back();
    for (const Finding& finding : commit.findings) {
      has.insert(identity(finding));
    }
  }
  for (CommitFindings& commit : introduced) {
    commit.fixed_in.assign(commit.findings.size(), std::string());
    if (present.empty()) {
      continue;
    }
    const auto at = std::find_if(checked.begin(), checked.end(), [&](const CommitFindings& c) {
      return c.commit == commit.commit;
    });
    const std::size_t from = static_cast<std::size_t>(at - checked.begin());
    for (std::size_t i = 0; i < commit.findings.size(); ++i) {
      Finding& finding = commit.findings[i];
      const Identity key = identity(finding);
      if (present.back().contains(key)) {
        continue;  // the tip still has it: the branch delivers it
      }
      finding.severity = Severity::note;
      finding.fix.clear();  // a later commit already did it
      for (std::size_t later = from + 1; later < checked.size(); ++later) {
        if (!present[later].contains(key)) {
          commit.fixed_in[i] = checked[later].commit;
          break;
        }
      }
    }
  }
}

namespace {

// The parents outside the range: what it starts from (A of A..B, and what a merge in the range
// brings in). A finding those trees already have is not the range's doing. A single revision
// has none and is checked in full.
std::vector<Finding> base_findings(const git::Repo& repo, std::string_view range,
                                   const std::vector<std::string>& ids,
                                   const GateOptions& options) {
  std::vector<Finding> baseline;
  if (range.find("..") == std::string_view::npos) {
    return baseline;
  }
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
  return baseline;
}

bool has_stale_index(const CommitFindings& commit) {
  return std::any_of(commit.findings.begin(), commit.findings.end(), [](const Finding& finding) {
    return finding.check == "stale-index" && finding.severity != Severity::note;
  });
}

// The fix of each stale index file the range delivers: a merge at the tip needs the regeneration
// its hook would have made; otherwise a commit on top repairs the tip, unless every commit must
// pass, where an earlier commit can only be repaired by rewriting the branch.
void name_stale_fixes(std::vector<CommitFindings>& introduced, const std::string& tip,
                      bool tip_is_merge, std::string_view range, bool every_commit) {
  const std::size_t dots = range.find("..");
  const std::string base = dots == std::string_view::npos || dots == 0
                               ? std::string("<base>")
                               : std::string(range.substr(0, dots));
  // Once a commit before the tip needs the rewrite, so does a stale index at a tip that is not a
  // merge: a new commit on top would leave the earlier one failing.
  const bool rewrite =
      every_commit &&
      std::any_of(introduced.begin(), introduced.end(), [&](const CommitFindings& commit) {
        return commit.commit != tip && has_stale_index(commit);
      });
  for (CommitFindings& commit : introduced) {
    for (Finding& finding : commit.findings) {
      if (finding.check != "stale-index" || finding.severity == Severity::note) {
        continue;
      }
      if (rewrite && (commit.commit != tip || !tip_is_merge)) {
        finding.fix = fmt::format(fmt::runtime(k_stale_inner_fix), base);
      } else if (tip_is_merge) {
        finding.fix = std::string(k_stale_merge_fix);
      } else {
        finding.fix = std::string(k_stale_tip_fix);
      }
    }
  }
}

}  // namespace

std::vector<CommitFindings> run_range_gate(const git::Repo& repo, std::string_view range,
                                           const std::filesystem::path& cache_file,
                                           GateOptions options, RangeOptions range_options) {
  if (options.skip_all) {
    return {};
  }
  PersistentParseCache cache = load_gate_cache(cache_file, options);
  options.cache = &cache;
  const std::vector<std::string> ids = repo.resolve_range(range);
  const std::vector<Finding> baseline = base_findings(repo, range, ids, options);
  std::vector<CommitFindings> checked;
  for (std::size_t i = 0; i < ids.size(); ++i) {
    const bool tip = i + 1 == ids.size();  // oldest first: the range's end comes last
    const bool merge = repo.commit_info(ids[i]).parents.size() > 1;
    if (merge && !tip) {
      continue;
    }
    const TreeSnapshot snapshot(repo, ids[i]);
    checked.push_back(CommitFindings{ids[i], run_gate(snapshot, options), {}});
  }
  (void)cache.save(cache_file);
  if (ids.empty()) {
    return {};
  }
  std::vector<CommitFindings> introduced = first_introduced(checked, baseline);
  if (range_options.every_commit) {
    for (CommitFindings& commit : introduced) {
      commit.fixed_in.assign(commit.findings.size(), std::string());
    }
  } else {
    mark_fixed_later(introduced, checked);
  }
  const bool tip_is_merge = repo.commit_info(ids.back()).parents.size() > 1;
  name_stale_fixes(introduced, ids.back(), tip_is_merge, range, range_options.every_commit);
  return introduced;
}

}  // namespace gv
