#include <fmt/format.h>

#include <cstdio>
#include <exception>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/gate/gate.hpp"
#include "core/git/repo.hpp"
#include "core/hooks/reindex.hpp"
#include "core/landing/land.hpp"
#include "core/session/session.hpp"
#include "core/snapshot/index_snapshot.hpp"
#include "core/snapshot/tree_snapshot.hpp"
#include "core/vault/vault.hpp"
#include "hooks/hooks.hpp"

namespace gv::hooks {
namespace {

void warn(const std::string& text) {
  std::fputs(fmt::format("git-vault: post-merge: {}\n", text).c_str(), stderr);
}

// Working-memory and memory ids the merged tree holds more than once: both branches gave an
// entry the same id, or the same entry arrived twice. Reported, never rewritten.
void report_duplicates(const Snapshot& merged) {
  GateOptions options;
  for (const Finding& finding : run_gate(merged, options)) {
    if (finding.check != "duplicate-id") {
      continue;
    }
    const std::string where =
        finding.line ? fmt::format("{}:{}", finding.path, *finding.line) : finding.path;
    warn(fmt::format("{}: the merge left a duplicate id {}: {}", where, finding.id,
                     finding.message));
    if (!finding.fix.empty()) {
      warn(fmt::format("  fix: {}", finding.fix));
    }
  }
}

void reindex(git::Repo& repo, const Snapshot& merged, bool squash, const Date& today,
             git::ReadState read_state) {
  if (merged.list(".memory/").empty()) {
    return;  // no vault in this repository
  }
  std::optional<Reindex> reindex = build_reindex(merged, today, nullptr);
  if (!reindex) {
    return;
  }
  if (squash) {
    warn(
        "the generated index files are stale; run `git vault index` before you commit the "
        "squashed merge");
    return;
  }
  // Conflicts or the user's own uncommitted vault edits: committing now would mix them in.
  const std::vector<std::string> dirty = repo.dirty_paths({".memory/"});
  if (!dirty.empty()) {
    warn(
        fmt::format("the generated index files are stale, but {} has uncommitted changes or "
                    "conflicts; resolve and commit them, then run `git vault index`",
                    dirty.front()));
    return;
  }
  landing::Built built;
  built.plan = std::move(reindex->plan);
  built.regenerated = std::move(reindex->regenerated);
  built.carried = std::move(reindex->carried);
  landing::Target target;
  target.guarded_paths = {".memory/"};
  target.read_state = std::move(read_state);
  const landing::Landed landed = landing::apply(repo, std::move(built), target);
  const std::string carried =
      landed.carried.empty() ? std::string{}
                             : fmt::format(" (retrieval counts carried into {} memory file(s))",
                                           landed.carried.size());
  warn(fmt::format("regenerated {} index file(s){} as {} {}", landed.regenerated.size(), carried,
                   landed.commit.value_or("").substr(0, 12), landed.plan.subject));
}

}  // namespace

int run_post_merge(Session& session, std::span<const std::string> git_args) {
  // git passes "1" when the merge was a squash: nothing was committed, so neither is ours.
  const bool squash = !git_args.empty() && git_args.front() == "1";
  try {
    git::Repo& repo = session.repo();
    if (!repo.head_commit()) {
      return 0;
    }
    git::ReadState read_state = git::capture_read_state(repo, {".memory/"});
    // A squash merge leaves its result staged, not committed.
    std::unique_ptr<Snapshot> merged;
    if (squash) {
      merged = std::make_unique<IndexSnapshot>(repo);
    } else {
      merged = std::make_unique<TreeSnapshot>(repo, "HEAD");
    }
    report_duplicates(*merged);
    reindex(repo, *merged, squash, session.clock().today, std::move(read_state));
  } catch (const std::exception& e) {
    // Advisory: the merge itself has succeeded, so a failure here must not look like it failed.
    warn(fmt::format("warning: {}", e.what()));
  }
  return 0;
}

}  // namespace gv::hooks
