#include "core/hooks/commit_gate.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <optional>
#include <set>
#include <string>

#include "core/gate/cached_gate.hpp"
#include "core/gate/gate.hpp"
#include "core/git/repo.hpp"
#include "core/recall/metadata.hpp"
#include "core/snapshot/index_snapshot.hpp"
#include "core/util/file.hpp"
#include "core/util/shell_word.hpp"

namespace gv::hooks {
namespace {

bool is_warning(const Finding& finding) { return finding.severity == Severity::warning; }

// Keeps the warnings of files the commit changes: those whose staged blob differs from HEAD's.
void keep_warnings_of_changed_files(const git::Repo& repo, const GateRunInfo& info,
                                    std::vector<Finding>& findings) {
  if (std::none_of(findings.begin(), findings.end(), is_warning)) {
    return;
  }
  const std::optional<std::string> head = repo.head_tree();
  if (!head) {
    return;  // the first commit changes every file
  }
  // When the state the gate compared with is the one HEAD holds (the last commit went through
  // this hook), the files the commit changes are the ones that changed since: no tree of HEAD
  // need be read.
  if (info.baseline_tree && repo.subtree_id(*head, ".memory") == info.baseline_tree) {
    const std::vector<std::string>& changed = info.changed_since_baseline;
    std::erase_if(findings, [&](const Finding& finding) {
      return is_warning(finding) &&
             std::find(changed.begin(), changed.end(), finding.path) == changed.end();
    });
    return;
  }
  // Otherwise looked up per warning, so the cost follows the warnings, not the vault.
  std::erase_if(findings, [&](const Finding& finding) {
    return is_warning(finding) &&
           repo.index_blob_id(finding.path) == repo.tree_blob_id(*head, finding.path);
  });
}

}  // namespace

CommitGate run_commit_gate(const git::Repo& repo) {
  CommitGate gate;
  gate.skip = skip_from_environment(&repo);
  if (gate.skip.all) {
    return gate;
  }
  // The cached gate compares the staged entries with the state it checked last and checks only
  // what changed, so the hook costs what the commit changes, not what the vault holds.
  const IndexSnapshot snapshot(repo);
  GateRunInfo info;
  GateOptions options = gate.skip.gate_options();
  options.info = &info;
  gate.findings = run_cached_gate(snapshot, gate_cache_file(repo), options);
  keep_warnings_of_changed_files(repo, info, gate.findings);
  return gate;
}

std::vector<std::string> unstaged_blocked_files(const git::Repo& repo,
                                                const std::vector<Finding>& findings,
                                                std::size_t max_files) {
  std::vector<std::string> out;
  if (repo.is_bare()) {
    return out;
  }
  std::set<std::string> paths;
  for (const Finding& finding : findings) {
    if (finding.severity == Severity::error && !finding.path.empty()) {
      paths.insert(finding.path);
    }
  }
  std::size_t read = 0;
  for (const std::string& path : paths) {
    if (read++ == max_files) {
      break;
    }
    const std::optional<std::string> staged = repo.index_blob_id(path);
    if (!staged) {
      continue;  // not staged at all: nothing of it is being committed
    }
    // The raw bytes' id: a checkout filter (autocrlf) would make a clean file read as changed,
    // which costs one needless line of advice, never a wrong block.
    const std::optional<std::string> bytes = util::read_file_if_exists(repo.workdir() / path);
    if (bytes && git::hash_blob(*bytes) != *staged) {
      out.push_back(path);
    }
  }
  // `recall init-ids` records every id it writes in the metadata beside them: a commit of the
  // entries without their records would leave ids no record names.
  const bool working = std::any_of(out.begin(), out.end(), [](const std::string& path) {
    return path == "CLAUDE.local.md" || path.starts_with("memory/");
  });
  const std::string metadata(recall::k_metadata_path);
  if (working && std::find(out.begin(), out.end(), metadata) == out.end()) {
    const std::optional<std::string> bytes = util::read_file_if_exists(repo.workdir() / metadata);
    const std::optional<std::string> staged = repo.index_blob_id(metadata);
    if (bytes && (staged ? git::hash_blob(*bytes) != *staged : !repo.is_ignored(metadata))) {
      out.push_back(metadata);
    }
  }
  std::sort(out.begin(), out.end());
  return out;
}

std::string unstaged_fix_note(const std::vector<std::string>& files) {
  if (files.empty()) {
    return {};
  }
  std::string words;
  for (const std::string& file : files) {
    words += " " + util::shell_word(file);
  }
  return fmt::format(
      "git-vault: note: {} {} changes in the work tree that are not staged, and the gate checks "
      "what is staged; if they are your fix, stage them: git add{}\n",
      fmt::join(files, ", "), files.size() == 1 ? "has" : "have", words);
}

}  // namespace gv::hooks
