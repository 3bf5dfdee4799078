#include <fmt/format.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>
#include <string>

#include "cmd/command.hpp"
#include "core/error.hpp"
#include "core/gate/annotations.hpp"
#include "core/gate/cached_gate.hpp"
#include "core/gate/gate.hpp"
#include "core/gate/index_behind.hpp"
#include "core/gate/print.hpp"
#include "core/gate/range.hpp"
#include "core/gate/registry.hpp"
#include "core/git/index_file.hpp"
#include "core/git/ref_lock.hpp"
#include "core/git/repo.hpp"
#include "core/git/transaction.hpp"
#include "core/hooks/commit_gate.hpp"
#include "core/hooks/skip.hpp"
#include "core/session/session.hpp"
#include "core/snapshot/worktree_snapshot.hpp"
#include "core/util/json_output.hpp"
#include "core/util/shell_word.hpp"
#include "core/vault/vault.hpp"

namespace gv::cmd {
namespace check_command {

enum class Format { text, json, github };

struct CheckOptions {
  bool staged = false;
  bool worktree = false;
  std::optional<std::string> range;
  bool every_commit = false;
  std::string format;  // empty: not given
};

void print(const std::string& text) { std::fputs(text.c_str(), stdout); }

int finish(const std::vector<Finding>& findings) {
  return blocks(findings) ? exit_code::k_no : exit_code::k_ok;
}

std::string short_id(const std::string& commit) { return commit.substr(0, 12); }

// The line under a note in `--range`: which commit removed what an earlier one introduced.
std::string fixed_line(const git::Repo& repo, const std::string& commit) {
  return commit.empty()
             ? std::string("a later commit of the range fixed it")
             : fmt::format("fixed by {} {}", short_id(commit), repo.commit_info(commit).summary);
}

// The notes' closing line: they never fail the range, and which flag makes them.
std::string notes_line(const std::vector<Finding>& findings) {
  const auto notes = std::count_if(findings.begin(), findings.end(), [](const Finding& finding) {
    return finding.severity == Severity::note;
  });
  if (notes == 0) {
    return {};
  }
  return fmt::format(
      "{} introduced and fixed again inside the range: {} not fail it (--every-commit makes "
      "every commit's findings count)\n",
      notes == 1 ? std::string("1 finding was") : fmt::format("{} findings were", notes),
      notes == 1 ? "it does" : "they do");
}

int run_range(const git::Repo& repo, const std::string& range, const GateOptions& options,
              const CheckOptions& check, Format format, const OutputSettings& output) {
  RangeOptions range_options;
  range_options.every_commit = check.every_commit;
  const std::vector<CommitFindings> commits =
      run_range_gate(repo, range, gate_cache_file(repo), options, range_options);
  std::vector<Finding> all;
  for (const CommitFindings& commit : commits) {
    all.insert(all.end(), commit.findings.begin(), commit.findings.end());
  }
  if (format == Format::json) {
    nlohmann::ordered_json document = findings_json(all);
    std::size_t at = 0;
    for (const CommitFindings& commit : commits) {
      for (std::size_t i = 0; i < commit.findings.size(); ++i, ++at) {
        nlohmann::ordered_json& item = document["findings"][at];
        item["commit"] = commit.commit;
        const std::string& fixed = commit.fixed_in.at(i);
        item["fixed_in"] = fixed.empty() ? nlohmann::ordered_json() : nlohmann::ordered_json(fixed);
      }
    }
    print(util::dump_json(document));
    return finish(all);
  }
  std::string out;
  for (const CommitFindings& commit : commits) {
    const std::string heading = fmt::format("commit {} {}", short_id(commit.commit),
                                            repo.commit_info(commit.commit).summary);
    if (format == Format::github) {
      for (std::size_t i = 0; i < commit.findings.size(); ++i) {
        const Finding& finding = commit.findings[i];
        std::string detail = "introduced by " + heading.substr(7);
        if (finding.severity == Severity::note) {
          detail += "; " + fixed_line(repo, commit.fixed_in.at(i));
        }
        out += format_github_annotation(finding, detail);
      }
      continue;
    }
    out += heading + "\n";
    // Notes are printed apart from the rest, each with the commit that fixed it.
    std::vector<Finding> delivered;
    for (std::size_t i = 0; i < commit.findings.size(); ++i) {
      if (commit.findings[i].severity != Severity::note) {
        delivered.push_back(commit.findings[i]);
      }
    }
    out += format_finding_lines(delivered, {output.limit, output.color_stdout});
    for (std::size_t i = 0; i < commit.findings.size(); ++i) {
      if (commit.findings[i].severity == Severity::note) {
        out += format_finding_line(commit.findings[i], output.color_stdout) + "\n";
        out += "  " + fixed_line(repo, commit.fixed_in.at(i)) + "\n";
      }
    }
  }
  out += format_summary(all) + notes_line(all);
  print(out);
  return finish(all);
}

// Vault files the git index holds unmerged (a conflict `git merge` left), one finding each.
std::vector<Finding> unmerged_vault_paths(const git::Repo& repo) {
  std::vector<Finding> findings;
  const std::optional<git::IndexFile> index = git::IndexFile::read(repo.index_path());
  if (!index) {
    return findings;
  }
  std::set<std::string, std::less<>> seen;
  for (const git::IndexFile::Entry& entry : index->entries()) {
    const std::string_view path = entry.path();
    const bool vault = path.starts_with(vault_path::k_root) || path == "CLAUDE.local.md" ||
                       path.starts_with("memory/");
    if (entry.stage == 0 || !vault || !seen.emplace(path).second) {
      continue;
    }
    Finding finding;
    finding.check = "unmerged";
    finding.path = std::string(path);
    finding.message = "a merge conflict is not resolved (git holds this file unmerged)";
    const bool generated = path == vault_path::k_index_json || path == vault_path::k_index_md ||
                           path == vault_path::k_memories_readme;
    // Only memories feed the index files; working memory has nothing to regenerate.
    const bool vault_file = path.starts_with(vault_path::k_root);
    finding.fix = generated    ? "resolve the memories first, then: git vault index && git add "
                                 ":/.memory"
                  : vault_file ? "resolve it (edit it, then git add it); then: git vault index && "
                                 "git add :/.memory"
                               : fmt::format("resolve it (edit it, then git add {}), then commit",
                                             util::shell_word(path));
    findings.push_back(std::move(finding));
  }
  return findings;
}

// git's lock on the branch a commit moves, which a git process killed mid-update leaves behind
// (a git-vault landing's own is settled before this runs): every commit fails until it is gone.
std::vector<Finding> ref_lock_findings(const git::Repo& repo) {
  const std::optional<std::filesystem::path> lock = git::head_ref_lock(repo);
  if (!lock) {
    return {};
  }
  std::string shown = lock->lexically_relative(repo.workdir()).generic_string();
  if (shown.empty() || shown.starts_with("..")) {
    shown = lock->string();
  }
  Finding finding;
  finding.check = "ref-lock";
  finding.path = shown;
  finding.message =
      "git's lock on the branch is left behind (a git command was killed while it moved the "
      "branch): `git commit` and every git-vault action fail while it is there";
  finding.fix = fmt::format("if no git command is running: rm {}", util::shell_word(shown));
  return {std::move(finding)};
}

// A `.memory` that is a symbolic link, staged or on disk: git-vault neither reads nor writes
// through a link, so the vault would read as empty and pass every check.
std::vector<Finding> linked_vault_findings(const git::Repo& repo) {
  // vault_path::k_root without its slash: the folder itself.
  const std::string folder(vault_path::k_root.substr(0, vault_path::k_root.size() - 1));
  bool linked = false;
  if (!repo.is_bare()) {
    std::error_code ec;
    linked = std::filesystem::is_symlink(repo.workdir() / folder, ec);
  }
  if (const std::optional<git::IndexFile> index = git::IndexFile::read(repo.index_path())) {
    for (const git::IndexFile::Entry& entry : index->entries()) {
      linked = linked || (entry.path() == folder && (entry.mode() & 0170000) == 0120000);
    }
  }
  if (!linked) {
    return {};
  }
  Finding finding;
  finding.check = "vault-link";
  finding.path = folder;
  finding.message =
      "is a symbolic link: git-vault reads and writes the vault only in a real folder, so "
      "through this link the vault reads as empty and nothing in it is checked";
  finding.fix = fmt::format(
      "replace the link with the folder it points to (git rm --cached {} "
      "and move the folder there), then git vault check",
      folder);
  return {std::move(finding)};
}

// --format, or --json (the same as --format json).
Format format_of(const CheckOptions& check, const OutputSettings& output) {
  if (check.format.empty()) {
    return output.json ? Format::json : Format::text;
  }
  if (output.json && check.format != "json") {
    throw UsageError("check: --json and --format {} exclude each other", check.format);
  }
  return check.format == "github" ? Format::github
         : check.format == "json" ? Format::json
                                  : Format::text;
}

int run_check(const CheckOptions& check, Session& session) {
  if (static_cast<int>(check.staged) + static_cast<int>(check.worktree) +
          static_cast<int>(check.range.has_value()) >
      1) {
    throw UsageError("check: --staged, --worktree and --range exclude each other");
  }
  if (check.every_commit && !check.range) {
    throw UsageError("check: --every-commit judges the commits of a range; give --range A..B");
  }
  const Format format = format_of(check, session.output());
  // GIT_DIR, GIT_WORK_TREE and GIT_INDEX_FILE as a hook sees them: `git commit -a` stages into
  // a temporary index, and that is what is being committed.
  git::Repo& repo = session.repo();
  if (format == Format::text && std::getenv("GIT_INDEX_FILE") == nullptr) {
    session.page();  // not inside a hook: git's own output is on that terminal
  }
  // An interrupted landing is settled first, unless a hook runs this on git's own index.
  if (std::getenv("GIT_INDEX_FILE") == nullptr) {
    if (!git::recover_interrupted_landing(repo) && git::landing_in_progress(repo)) {
      throw Error(
          "another git-vault run is half-way through landing a commit (.git/vault-journal, "
          ".git/vault.lock): the repository is between two states, so there is nothing to check "
          "yet; run git vault check again when it has finished (a run that was killed is "
          "settled by the next git-vault command)");
    }
  }

  std::vector<Finding> findings;
  std::string unstaged_note;  // under the findings: a fix in the work tree the gate cannot see
  if (check.range || check.worktree) {
    const hooks::SkipSpec skip = hooks::skip_from_environment(&repo);
    std::fputs(hooks::skip_notice(skip).c_str(), stderr);
    if (check.range) {
      return run_range(repo, *check.range, skip.gate_options(), check, format, session.output());
    }
    if (repo.is_bare()) {
      throw UsageError("check: --worktree needs a work tree; this repository is bare");
    }
    const WorktreeSnapshot snapshot(repo.workdir());
    findings = run_cached_gate(snapshot, gate_cache_file(repo), skip.gate_options());
  } else if (std::vector<Finding> unmerged = unmerged_vault_paths(repo); !unmerged.empty()) {
    // A vault file git has not merged is absent from the staged snapshot: checked anyway, it
    // would read as a deleted memory (an orphaned index entry) with a fix that cannot work yet.
    findings = std::move(unmerged);
  } else {
    // The pre-commit hook's own function.
    hooks::CommitGate gate = hooks::run_commit_gate(repo);
    std::fputs(hooks::skip_notice(gate.skip).c_str(), stderr);
    if (blocks(gate.findings)) {
      unstaged_note = hooks::unstaged_fix_note(hooks::unstaged_blocked_files(repo, gate.findings));
    }
    findings = std::move(gate.findings);
    // Only outside a hook: during a commit the index is meant to differ from HEAD.
    if (std::getenv("GIT_INDEX_FILE") == nullptr) {
      const std::vector<Finding> behind = index_behind_head_findings(repo);
      findings.insert(findings.end(), behind.begin(), behind.end());
    }
  }
  if (std::getenv("GIT_INDEX_FILE") == nullptr && !repo.is_bare()) {
    const std::vector<Finding> locked = ref_lock_findings(repo);
    findings.insert(findings.end(), locked.begin(), locked.end());
  }
  const std::vector<Finding> linked = linked_vault_findings(repo);
  findings.insert(findings.begin(), linked.begin(), linked.end());
  if (format == Format::json) {
    print(util::dump_json(findings_json(findings)));
  } else if (format == Format::github) {
    std::string out;
    for (const Finding& finding : findings) {
      out += format_github_annotation(finding);
    }
    print(out + format_summary(findings));
  } else {
    print(format_findings(findings, {session.output().limit, session.output().color_stdout}));
  }
  std::fflush(stdout);
  std::fputs(unstaged_note.c_str(), stderr);
  return finish(findings);
}

// The checks GIT_VAULT_SKIP takes, from the gate's table.
std::string skip_help() {
  std::string out =
      "GIT_VAULT_SKIP=check[,check...] skips the named checks, GIT_VAULT_SKIP=all skips every\n"
      "check (an unknown name is a usage error). The checks:\n";
  for (const GateCheck& gate_check : builtin_gate_checks()) {
    out += fmt::format("  {:<18} {:<8} {}\n", gate_check.name,
                       gate_check.severity == Severity::error ? "error" : "warning",
                       gate_check.description);
  }
  out +=
      "Outside a commit, `check --staged` also reports index-behind-head (error, not skipped):\n"
      "HEAD is an action whose files the index still holds at their old versions; and, with\n"
      "--worktree too, ref-lock (error, not skipped): git's lock on HEAD's branch, left by a\n"
      "git command that was killed while it moved the branch.\n";
  return out;
}

}  // namespace check_command

Runner define_check(CLI::App& app) {
  using namespace check_command;  // this file's own helpers
  auto options = std::make_shared<CheckOptions>();
  app.add_flag("--staged", options->staged,
               "Check the index being committed (default; honours GIT_INDEX_FILE)");
  app.add_flag("--worktree", options->worktree, "Check the files on disk");
  app.add_option("--range", options->range,
                 "Check what the commits in A..B deliver: the tip, and each finding under the "
                 "commit that introduced it (one a later commit removed is a note)");
  app.add_flag("--every-commit", options->every_commit,
               "With --range: every commit's findings count, not only what the tip still has");
  app.add_option("--format", options->format,
                 "text (default), json (the same as --json), or github (workflow commands that "
                 "annotate a pull request's lines)")
      ->check(CLI::IsMember(std::vector<std::string>{"text", "json", "github"}));
  app.footer("Exit status: 0 when nothing blocks (warnings allowed), 1 when a gate rejects.\n" +
             skip_help());
  return [options](const Globals& globals) -> int { return run_check(*options, *globals.session); };
}

}  // namespace gv::cmd
