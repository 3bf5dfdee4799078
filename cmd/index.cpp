#include <fmt/format.h>

#include <CLI/CLI.hpp>
#include <memory>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <vector>

#include "cmd/command.hpp"
#include "core/error.hpp"
#include "core/gate/input.hpp"
#include "core/gate/print.hpp"
#include "core/gate/registry.hpp"
#include "core/git/repo.hpp"
#include "core/landing/land.hpp"
#include "core/session/session.hpp"
#include "core/snapshot/tree_snapshot.hpp"
#include "core/snapshot/worktree_snapshot.hpp"
#include "core/util/file.hpp"
#include "core/util/join_some.hpp"
#include "core/util/json_output.hpp"
#include "core/util/message.hpp"
#include "core/util/text.hpp"
#include "core/vault/generated_records.hpp"
#include "core/vault/index_check.hpp"
#include "core/vault/index_files.hpp"
#include "core/vault/regenerate.hpp"
#include "core/vault/vault.hpp"

namespace gv::cmd {
namespace index_command {

struct Options {
  bool check = false;
  bool commit = false;
};

// `index --commit`: the fix for a stale index a merge made elsewhere left on a branch.
constexpr const char* k_commit_subject = "vault(reindex): regenerate index files";
constexpr const char* k_commit_action = "reindex";
// Paths or ids a one-line note names before it counts the rest.
constexpr std::size_t k_named_in_a_line = 5;

// Schema errors stop a regeneration: an index built from a vault with unreadable notes would
// silently drop them, and the next commit would carry that loss.
void refuse_on_schema_errors(const Vault& vault, FindingStyle style) {
  std::vector<Finding> errors;
  std::set<std::string> files;  // one file can hold several errors
  for (const Finding& finding : vault.findings) {
    if (finding.severity == Severity::error) {
      errors.push_back(finding);
      files.insert(finding.path);
    }
  }
  if (!errors.empty()) {
    std::fputs(format_findings(errors, style).c_str(), stderr);
    throw Error("{} unreadable; fix {}, then run `git vault index` again",
                util::plural(files.size(), "memory file is", "memory files are"),
                files.size() == 1 ? "it" : "them");
  }
}

int run_check(Session& session, const Snapshot& snapshot) {
  // The gate's own stale-index check over the work tree: current at once when a recorded
  // regeneration wrote exactly these generated files from exactly these memories; otherwise the
  // memories the parse cache does not know are parsed on every core and the generated files are
  // compared by blob id, read and diagnosed only when they differ.
  const GeneratedRecords records =
      GeneratedRecords::load(generated_records_path(session.repo().common_dir()));
  GateInput input(snapshot, session.persistent_parse_cache(), &records);
  std::vector<Finding> findings = find_gate_check(builtin_gate_checks(), "stale-index")->run(input);
  // `git vault index` refuses while a memory file is unreadable, so a stale index names those
  // files first and the fix says so: what the gate's input parsed to find the index stale.
  std::vector<Finding> unreadable;
  if (!findings.empty()) {
    for (const Finding& finding : input.vault().parse_findings) {
      if (finding.severity == Severity::error) {
        unreadable.push_back(finding);
      }
    }
  }
  for (Finding& finding : findings) {
    // The work tree is what was checked: nothing to stage.
    finding.fix = unreadable.empty()
                      ? "git vault index"
                      : "fix the unreadable memory file(s) above, then run git vault index";
  }
  findings.insert(findings.begin(), unreadable.begin(), unreadable.end());
  if (session.output().json) {
    util::print_json(findings_json(findings));
  } else if (!findings.empty()) {
    // The findings are this command's result, so stdout, as `check` prints them.
    std::fputs(
        format_findings(findings, {session.output().limit, session.output().color_stdout}).c_str(),
        stdout);
  }
  return findings.empty() ? exit_code::k_ok : exit_code::k_no;
}

// `--json`, with or without --commit: what was written, carried and committed.
void print_landed_json(const landing::Landed& landed) {
  nlohmann::ordered_json out{{"schema", 1},
                             {"written", nlohmann::ordered_json::array()},
                             {"retrieval_counts_carried", landed.carried},
                             {"commit", landed.commit ? nlohmann::ordered_json(*landed.commit)
                                                      : nlohmann::ordered_json(nullptr)}};
  for (const auto& [path, bytes] : landed.plan.changes) {
    out["written"].push_back(path);
  }
  util::print_json(out);
}

// `index --commit`: the regeneration of what HEAD holds, as one commit. It is computed from
// HEAD's tree, not the work tree: after a plain `git vault index` the work tree already holds
// the regenerated files, and comparing with it would find nothing to commit while HEAD stays
// stale. Uncommitted vault files are refused, except generated files that already hold exactly
// what the commit writes (that `git vault index`'s output): the commit takes those as they are.
int run_commit(Session& session, std::optional<git::ReadState> read_state) {
  git::Repo& repo = session.repo();
  if (!repo.head_commit()) {
    throw Error("index --commit: the current branch has no commits; commit the vault first");
  }
  const TreeSnapshot head(repo, "HEAD");
  refuse_on_schema_errors(load_vault(head, session.parse_cache()),
                          {session.output().limit, session.output().color_stderr});
  landing::Context context;
  context.clock = session.clock();
  context.cache = session.parse_cache();
  landing::IndexRegeneration draft;
  draft.plan.subject = k_commit_subject;
  draft.plan.action = k_commit_action;
  landing::Built built = landing::build(std::move(draft), head, context);

  const std::vector<std::string> dirty = repo.dirty_paths({std::string(vault_path::k_root)});
  const WorktreeSnapshot work_tree(repo.workdir());
  std::vector<std::string> in_the_way;
  for (const std::string& path : dirty) {
    const auto planned = built.plan.changes.find(path);
    if (planned == built.plan.changes.end() || work_tree.read(path) != planned->second) {
      in_the_way.push_back(path);
    }
  }
  if (!in_the_way.empty()) {
    throw Error(
        "index --commit: {} {} uncommitted changes; commit or stash {} first (the commit "
        "regenerates the index files of what HEAD holds)",
        util::join(in_the_way, ", "), in_the_way.size() == 1 ? "has" : "have",
        in_the_way.size() == 1 ? "it" : "them");
  }
  landing::Target target;
  target.guarded_paths = {std::string(vault_path::k_root)};
  target.allow_dirty = !dirty.empty();  // only generated files holding these very bytes
  target.offers_allow_dirty = false;
  target.read_state = std::move(read_state);
  const landing::Landed landed = landing::apply(repo, std::move(built), target);
  const Plan& plan = landed.plan;
  if (session.output().json) {
    print_landed_json(landed);
  } else if (!session.output().quiet) {
    if (!landed.commit) {
      util::print_note("the index files HEAD holds are up to date; nothing to commit");
    } else {
      util::print_note(fmt::format("committed {} file(s) as {} {}", plan.changes.size(),
                                   landed.commit->substr(0, 12), plan.subject));
    }
  }
  return exit_code::k_ok;
}

int run(const Options& options, Session& session) {
  git::Repo& repo = session.repo();
  if (options.check && options.commit) {
    throw UsageError("index: --check and --commit exclude each other");
  }
  std::optional<git::ReadState> read_state;
  if (!options.check) {
    read_state = git::capture_read_state(repo, {std::string(vault_path::k_root)});
  }
  const WorktreeSnapshot snapshot(repo.workdir());
  if (options.check) {
    return run_check(session, snapshot);
  }
  if (options.commit) {
    return run_commit(session, std::move(read_state));
  }
  const Vault vault = load_vault(snapshot, session.parse_cache());
  refuse_on_schema_errors(vault, {session.output().limit, session.output().color_stderr});

  // The same regeneration an action commit makes, retrieval carry-over included (D4), written
  // to the work tree only: `index` is the fix the gate names, and the user stages it. With
  // --commit it is one commit instead, from clean vault paths, so the commit holds exactly the
  // regeneration of what HEAD holds.
  landing::Context context;
  context.clock = session.clock();
  context.cache = session.parse_cache();
  landing::IndexRegeneration draft;
  // A memory edited by hand keeps the token_count its frontmatter stated; the index holds the
  // count of its body (D3), and the frontmatter is brought to say the same.
  const std::vector<std::string> refreshed =
      refresh_stated_token_counts(draft.plan, snapshot, vault);
  landing::Target target;
  target.commit = false;
  target.allow_dirty = true;
  target.read_state = std::move(read_state);
  const landing::Landed landed = landing::land(repo, snapshot, std::move(draft), context, target);
  const Plan& plan = landed.plan;
  if (session.output().json) {
    print_landed_json(landed);
  } else if (!session.output().quiet) {
    // Said without -v: a command that rewrites files says which, and what to do next.
    if (plan.empty()) {
      util::print_note("index files are up to date");
    } else {
      std::vector<std::string> paths;
      for (const auto& [path, bytes] : plan.changes) {
        paths.push_back(path);
      }
      // One line each, however large the vault: a few names and a count (`--json` lists every
      // file, `git diff` every refreshed memory).
      util::print_note(fmt::format(
          "wrote {}: {}; stage them with `git add {}`", util::plural(paths.size(), "file", "files"),
          util::join_some(paths, ", ", k_named_in_a_line),
          util::path_from_cwd(session.repo().workdir(), vault_path::k_root)));
      if (!refreshed.empty()) {
        util::print_note(fmt::format("token_count refreshed to what the body counts in {}",
                                     util::join_some(refreshed, ", ", k_named_in_a_line)));
      }
    }
  }
  return exit_code::k_ok;
}

}  // namespace index_command

Runner define_index(CLI::App& app) {
  using namespace index_command;  // this file's own helpers
  auto options = std::make_shared<Options>();
  app.add_flag("--check", options->check,
               "Only report whether the generated files are stale (exit 1 when they are)");
  app.add_flag("--commit", options->commit,
               "Commit the regeneration of what HEAD holds as `vault(reindex): ...` instead of "
               "leaving it in the work tree (other vault changes must be committed first)");
  return [options](const Globals& globals) { return run(*options, *globals.session); };
}

}  // namespace gv::cmd
