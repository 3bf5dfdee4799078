#include <fmt/format.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <filesystem>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <vector>

#include "cmd/command.hpp"
#include "core/agent/mcp_config.hpp"
#include "core/agent/wiring.hpp"
#include "core/ci/github_workflow.hpp"
#include "core/error.hpp"
#include "core/gate/cached_gate.hpp"
#include "core/git/repo.hpp"
#include "core/hooks/installer.hpp"
#include "core/landing/land.hpp"
#include "core/memory/legacy.hpp"
#include "core/memory/parse.hpp"
#include "core/recall/doctor.hpp"
#include "core/recall/gate.hpp"
#include "core/session/session.hpp"
#include "core/setup/gitignore.hpp"
#include "core/setup/kept_prose.hpp"
#include "core/setup/scaffold.hpp"
#include "core/snapshot/worktree_snapshot.hpp"
#include "core/util/file.hpp"
#include "core/util/json_output.hpp"
#include "core/util/message.hpp"
#include "core/util/text.hpp"
#include "core/vault/index_files.hpp"
#include "core/vault/vault.hpp"

namespace gv::cmd {
namespace init_command {

struct Options {
  bool recall = false;
  bool no_hooks = false;
  bool allow_global_hooks_path = false;
  std::string ci;                   // `github`: also write the CI workflow
  bool mcp = false;                 // also configure the MCP server for Claude Code (.mcp.json)
  bool diff_driver = false;         // also the rendered memory diff for this clone (D23)
  std::vector<std::string> agents;  // --agent: wire these agents to the vault
  bool no_agent = false;            // --no-agent: take every agent's wiring out again
  ci::GithubWorkflowOptions workflow;
};

// `init --no-agent`: only the agents' wiring comes out (doc/agent.md, "Wiring an agent").
int run_no_agent(Session& session) {
  const std::filesystem::path root = session.repo().workdir();
  const agent::WiringPlan plan = agent::plan_uninstall(root);
  const std::vector<std::string> done = agent::apply_wiring(root, plan);
  for (const std::string& note : plan.notes) {
    util::print_note(note);
  }
  if (session.output().json) {
    util::print_json(nlohmann::ordered_json{{"schema", 1}, {"done", done}, {"notes", plan.notes}});
  } else if (!session.output().quiet) {
    std::string out;
    for (const std::string& line : done) {
      out += line + "\n";
    }
    if (done.empty()) {
      out += "no agent is wired to this repository; nothing to do\n";
    }
    std::fputs(out.c_str(), stdout);
  }
  return exit_code::k_ok;
}

// Generated index files an earlier tool left were kept by the scaffold, which never overwrites;
// when they do not match the memories, the gate would block the very commit init suggests. They
// are regenerated as `git vault index` does, unreadable memories left out as the scaffold leaves
// them out, and retrieval counts the old index recorded carried into the memories so that the
// regeneration loses none (doc/decisions.md D4).
struct KeptIndex {
  std::vector<std::string> regenerated;  // generated files rewritten that init had not created
  std::vector<std::string> carried;      // memory files given the old index's retrieval counts
  std::vector<std::string> said;         // what init says about them, one line each
  std::vector<std::string> kept;         // notes files init wrote with text it did not generate
};

// Where the text a person wrote into a generated file is kept when init regenerates it.
std::string notes_path_for(std::string_view generated) {
  return generated == k_index_json_path ? std::string()
         : generated == k_index_md_path ? ".memory/20-Indices/index-notes.md"
                                        : ".memory/20-Indices/memories-readme-notes.md";
}

// What init says about a generated file it replaced, with line counts, and the text of it that
// no regeneration writes, kept in a notes file beside it (never overwritten: when that file
// exists, init says the text is only in the history).
void describe_replaced(const git::Repo& repo, const std::string& path, const std::string& before,
                       const std::string& after, KeptIndex& kept) {
  std::string line = fmt::format("replaced {} ({} → {}): it did not match the memories", path,
                                 util::plural(line_count(before), "line", "lines"),
                                 util::plural(line_count(after), "line", "lines"));
  if (path == k_index_json_path && before.find("\"version\": 1,") != std::string::npos) {
    line += "; version 1 is written \"1.0.0\"";
  }
  if (const std::optional<std::string> prose = prose_not_generated(before, after)) {
    const std::string notes = notes_path_for(path);
    if (!notes.empty() && util::create_file_exclusive(repo.workdir() / notes, *prose)) {
      kept.kept.push_back(notes);
      line += fmt::format("; the {} of it git-vault does not generate are kept in {}",
                          util::plural(line_count(*prose), "line", "lines"), notes);
    } else if (!notes.empty()) {
      line += fmt::format(
          "; {} of it are not generated and stay only in the history ({} "
          "exists already)",
          util::plural(line_count(*prose), "line", "lines"), notes);
    }
  }
  kept.said.push_back(std::move(line));
}

KeptIndex regenerate_kept_index(Session& session, const std::vector<std::string>& created) {
  // The generated files as they were, to say what replacing them changes.
  std::map<std::string, std::string> before;
  for (const std::string_view path : {k_index_json_path, k_index_md_path, k_memories_readme_path}) {
    if (std::find(created.begin(), created.end(), path) == created.end()) {
      if (std::optional<std::string> bytes =
              util::read_file_if_exists(session.repo().workdir() / path)) {
        before.emplace(path, std::move(*bytes));
      }
    }
  }
  landing::Context context;
  context.clock = session.clock();
  context.cache = session.parse_cache();
  landing::IndexRegeneration draft;
  draft.keep_unreadable_out = true;
  landing::Target target;
  target.commit = false;
  target.allow_dirty = true;
  target.read_state = git::capture_read_state(session.repo(), {std::string(vault_path::k_root)});
  const landing::Landed landed =
      landing::land(session.repo(), WorktreeSnapshot(session.repo().workdir()), std::move(draft),
                    context, target);
  KeptIndex kept;
  for (const auto& [path, bytes] : landed.plan.changes) {
    if (std::find(created.begin(), created.end(), path) != created.end()) {
      continue;
    }
    const bool generated =
        path == k_index_json_path || path == k_index_md_path || path == k_memories_readme_path;
    (generated ? kept.regenerated : kept.carried).push_back(path);
    const auto old = before.find(path);
    if (generated && old != before.end() && bytes) {
      describe_replaced(session.repo(), path, old->second, *bytes, kept);
    }
  }
  return kept;
}

// Memory files in an older layout (no frontmatter, `**Category**:` lines, the early `date:`
// fields) that `git vault migrate` converts: the vault's unreadable files, read once more.
std::size_t older_layout_memories(const git::Repo& repo, const Vault& existing) {
  std::set<std::string> unreadable;
  for (const Finding& finding : existing.findings) {
    if (finding.severity == Severity::error) {
      unreadable.insert(finding.path);
    }
  }
  std::size_t count = 0;
  const WorktreeSnapshot work_tree(repo.workdir());
  for (const std::string& path : unreadable) {
    const std::optional<std::string> bytes = work_tree.read(path);
    if (!bytes) {
      continue;
    }
    const legacy::Layout layout =
        legacy::convert(path, *bytes, [] { return std::string("2000-01-01"); }).layout;
    count += layout == legacy::Layout::bold_fields || layout == legacy::Layout::old_fields;
  }
  return count;
}

// What to do about errors already in the repository that will block the commit init suggests.
// When each has a git-vault command for its fix (a working memory's ids: respelled by `recall
// doctor --fix`, added by `recall init-ids`), the commands in the order they work in; doctor's
// commit needs --allow-dirty beside the files init just created (it takes only those it fixes).
std::string gate_advice(const std::vector<Finding>& blocking, std::size_t errors,
                        const std::vector<std::string>& created, std::size_t to_migrate) {
  const std::string counted = fmt::format(
      "before committing: the gate blocks the commit until {} already in the repository {} "
      "fixed",
      util::plural(errors, "error", "errors"), errors == 1 ? "is" : "are");
  if (to_migrate > 0) {
    // Its commit converts them and writes the index files; the files init created stay for the
    // commit init suggests.
    return counted + fmt::format(
                         "; first run:\n        git vault migrate --allow-dirty   "
                         "(converts the {} in an older layout and writes the index "
                         "files, one commit)\n",
                         util::plural(to_migrate, "memory", "memories"));
  }
  constexpr std::string_view k_doctor = recall::k_doctor_fix_command;
  constexpr std::string_view k_init_ids = recall::k_init_ids_command;
  bool doctor = false;
  bool init_ids = false;
  for (const Finding& finding : blocking) {
    if (finding.severity != Severity::error) {
      continue;
    }
    if (finding.fix == k_doctor) {
      doctor = true;
    } else if (finding.fix == k_init_ids) {
      init_ids = true;
    } else {
      return counted + fmt::format("; `git vault check --worktree` lists {}\n",
                                   errors == 1 ? "it with its fix" : "them with the fix for each");
    }
  }
  const bool created_working_memory =
      std::any_of(created.begin(), created.end(), [](const std::string& path) {
        return path.starts_with("memory/") || path == "CLAUDE.local.md";
      });
  std::string out = counted + "; first run:\n";
  if (doctor) {
    out += created_working_memory
               ? fmt::format(
                     "        {} --allow-dirty   (one commit of what it fixes, beside the "
                     "files init created)\n",
                     k_doctor)
               : fmt::format("        {}\n", k_doctor);
  }
  if (init_ids) {
    out +=
        fmt::format("        {}   (tags the entries without an id, for the commit)\n", k_init_ids);
  }
  return out;
}

// A working memory (CLAUDE.local.md, memory/registers/, memory/archive/) and no `.memory/`.
bool keeps_working_memory_only(const git::Repo& repo) {
  const std::filesystem::path root = repo.workdir();
  std::error_code ec;
  if (std::filesystem::exists(root / vault_path::k_root, ec)) {
    return false;
  }
  return std::filesystem::exists(root / "CLAUDE.local.md", ec) ||
         std::filesystem::is_directory(root / "memory" / "registers", ec) ||
         std::filesystem::is_directory(root / "memory" / "archive", ec);
}

int run(const Options& options, Session& session) {
  if (options.no_agent) {
    return run_no_agent(session);
  }
  git::Repo& repo = session.repo();
  const OutputSettings& output = session.output();
  // A vault older tools made has memories and perhaps no index: the index written is theirs.
  const Vault existing = load_vault(WorktreeSnapshot(repo.workdir()));
  const std::size_t to_migrate = older_layout_memories(repo, existing);
  // A repository that keeps a working memory and no vault gets what it keeps: `--recall` there
  // sets up the working memory's files and hooks, and `init` without it adds a vault.
  const bool working_memory_only = options.recall && keeps_working_memory_only(repo);
  std::vector<ScaffoldFile> files = working_memory_only
                                        ? std::vector<ScaffoldFile>()
                                        : vault_scaffold(existing.memories, session.clock().today);
  if (to_migrate > 0) {
    // `git vault migrate` converts those memories and writes the index files in one commit;
    // index files written now would be uncommitted changes that commit has to rewrite, and it
    // refuses to.
    std::erase_if(files, [](const ScaffoldFile& file) {
      return file.path == k_index_json_path || file.path == k_index_md_path ||
             file.path == k_memories_readme_path;
    });
  }
  if (options.recall) {
    for (ScaffoldFile& file : recall_scaffold()) {
      files.push_back(std::move(file));
    }
  }
  std::vector<std::string> ci_to_do;
  if (options.ci == "github") {
    ci::GithubWorkflow workflow = ci::github_workflow(options.workflow);
    files.push_back({std::string(ci::k_github_workflow_path), std::move(workflow.text)});
    ci_to_do = std::move(workflow.to_do);
  }
  // An .mcp.json init cannot merge into stops it before anything is written, so that fixing it
  // and running init again finds nothing half done.
  if (options.mcp) {
    const std::optional<std::string> config =
        util::read_file_if_exists(repo.workdir() / agent::k_mcp_config_path);
    (void)agent::merge_mcp_config(config);
  }
  // The agents' files are planned now for the same reason: one init cannot merge into stops it
  // before anything is written.
  std::vector<agent::WiringPlan> wiring;
  for (const std::string& name : options.agents) {
    wiring.push_back(agent::plan_install(repo.workdir(), *agent::agent_named(name)));
  }
  std::vector<std::string> created;
  for (const ScaffoldFile& file : files) {
    if (util::create_file_exclusive(repo.workdir() / file.path, file.bytes)) {
      created.push_back(file.path);
    }
  }
  const KeptIndex kept = existing.memories.empty() || to_migrate > 0
                             ? KeptIndex()
                             : regenerate_kept_index(session, created);
  std::string ignore_line;
  bool ignored_working_memory = false;  // CLAUDE.local.md added to .gitignore: not to commit
  if (options.recall) {
    const IgnoreOutcome ignore = ignore_unless_tracked(repo, "CLAUDE.local.md");
    ignored_working_memory = ignore == IgnoreOutcome::added;
    switch (ignore) {
      case IgnoreOutcome::added:
        ignore_line = "added CLAUDE.local.md to .gitignore (private working memory)";
        break;
      case IgnoreOutcome::tracked:
        ignore_line = "CLAUDE.local.md is tracked: not added to .gitignore";
        break;
      case IgnoreOutcome::already_ignored:
        break;
    }
  }
  if (options.mcp && agent::configure_mcp(repo.workdir())) {
    created.emplace_back(agent::k_mcp_config_path);
  }
  std::vector<std::string> wired;        // announced lines
  std::vector<std::string> wired_paths;  // files written, for the commit init suggests
  for (const agent::WiringPlan& plan : wiring) {
    for (const std::string& line : agent::apply_wiring(repo.workdir(), plan)) {
      wired.push_back(line);
    }
    for (const agent::WiringChange& change : plan.changes) {
      wired_paths.push_back(change.path);
    }
    for (const std::string& note : plan.notes) {
      util::print_note(note);
    }
  }
  // Hooks and merge drivers last: the vault files exist by then, whatever the hooks decide.
  // --no-hooks still sets up the drivers: they matter whoever runs the hooks.
  hooks::InstallOptions install_options;
  install_options.allow_global_hooks_path = options.allow_global_hooks_path;
  install_options.hooks = !options.no_hooks;
  install_options.diff_driver = options.diff_driver;
  hooks::InstallReport report = hooks::install_hooks(repo, install_options);
  if (!report.refusal.empty()) {
    // The hooks are refused (a hooks path shared by every repository), not the merge drivers: they
    // work whoever runs the hooks, and without them every merge of two vaults conflicts on the
    // index files.
    install_options.hooks = false;
    const hooks::InstallReport drivers = hooks::install_hooks(repo, install_options);
    report.notes = drivers.notes;
    report.gitattributes_written = drivers.gitattributes_written;
  }

  // Everything init does is announced, one line each (doc/decisions.md D17).
  std::vector<std::string> done;
  for (const std::string& path : created) {
    done.push_back(path == k_index_json_path && !existing.memories.empty()
                       ? fmt::format("created {} ({})", path,
                                     util::plural(existing.memories.size(), "memory", "memories"))
                       : fmt::format("created {}", path));
  }
  for (const std::string& line : kept.said) {
    done.push_back(line);
  }
  if (!kept.carried.empty()) {
    std::vector<std::string> ids;
    for (const std::string& path : kept.carried) {
      ids.push_back(memory_id_from_path(path));
    }
    done.push_back(fmt::format(
        "carried the retrieval counts the old index recorded into the frontmatter of {} "
        "(retrieval_count and last_retrieved, and token_count where one was stated): {}",
        util::plural(kept.carried.size(), "memory", "memories"), util::join(ids, ", ")));
  }
  if (!ignore_line.empty()) {
    done.push_back(ignore_line);
  }
  done.insert(done.end(), wired.begin(), wired.end());
  std::set<std::string> unreadable;
  for (const Finding& finding : existing.findings) {
    if (finding.severity == Severity::error) {
      unreadable.insert(finding.path);
    }
  }
  // Those in an older layout are migrate's (the advice below); the rest cannot be read at all.
  const std::size_t broken = unreadable.size() - std::min(unreadable.size(), to_migrate);
  if (broken > 0) {
    util::print_warning(fmt::format(
        "{} cannot be read and {} left out of the index; `git vault check` names each",
        util::plural(broken, "memory file", "memory files"), broken == 1 ? "is" : "are"));
  }
  bool hooks_dir_named = false;
  for (const hooks::HookChange& change : report.hooks) {
    if (change.outcome == hooks::HookOutcome::already_installed) {
      continue;
    }
    if (!hooks_dir_named) {
      done.push_back(fmt::format("hooks directory: {}", report.location.dir.string()));
      hooks_dir_named = true;
    }
    done.push_back(change.message);
  }
  for (const std::string& line : report.notes) {
    done.push_back(line);
  }
  if (working_memory_only) {
    done.emplace_back(
        "no .memory/ vault created: this repository keeps a working memory only (`git vault "
        "init` without --recall adds a vault)");
  }
  if (!report.refusal.empty()) {
    util::print_warning(fmt::format("hooks not installed: {}", report.refusal));
  }
  // What the workflow written now still needs before it can run (core/ci/github_workflow.hpp).
  if (std::find(created.begin(), created.end(), ci::k_github_workflow_path) != created.end()) {
    for (const std::string& line : ci_to_do) {
      util::print_warning(fmt::format("still to do: {}", line));
    }
  }
  if (output.json) {
    nlohmann::ordered_json hooks_json = nullptr;
    if (!options.no_hooks) {
      hooks_json = {{"installed", report.ok()}, {"hooks_dir", report.location.dir.string()}};
    }
    util::print_json(nlohmann::ordered_json{
        {"schema", 1}, {"created", created}, {"hooks", hooks_json}, {"done", done}});
  } else if (!output.quiet) {
    if (done.empty()) {
      done.emplace_back(report.refusal.empty()
                            ? "the vault is already set up; nothing to do"
                            : "the vault is set up, but its hooks are not installed (see above)");
    }
    std::string out;
    for (const std::string& line : done) {
      out += line + "\n";
    }
    // What init wrote is untracked until committed, and the gate and the merge drivers work on
    // what is committed: the next step, as a command to paste.
    std::set<std::string> to_commit;
    for (const std::vector<std::string>* paths : {&kept.regenerated, &kept.carried, &kept.kept}) {
      for (const std::string& path : *paths) {
        to_commit.insert(path.substr(0, path.find('/')));
      }
    }
    for (const std::string& path : created) {
      const std::string top = path.substr(0, path.find('/'));
      if (top != "CLAUDE.local.md" || !ignored_working_memory) {
        to_commit.insert(top);
      }
    }
    if (ignored_working_memory) {
      to_commit.insert(".gitignore");
    }
    for (const std::string& path : wired_paths) {
      to_commit.insert(path.substr(0, path.find('/')));
    }
    if (report.gitattributes_written) {
      to_commit.insert(".gitattributes");
    }
    if (!to_commit.empty()) {
      // A vault or working memory that was there before may already hold what the gate refuses
      // (unreadable memories, entries without ids): said now, not by a blocked commit.
      const std::vector<Finding> blocking =
          run_cached_gate(WorktreeSnapshot(repo.workdir()), gate_cache_file(repo), {});
      const auto errors = std::count_if(blocking.begin(), blocking.end(), [](const Finding& f) {
        return f.severity == Severity::error;
      });
      // The ids init-ids adds land in the files the findings name, and their records in
      // memory/.recall/metadata.json: the commit takes them too.
      for (const Finding& finding : blocking) {
        if (finding.severity != Severity::error || finding.fix != recall::k_init_ids_command) {
          continue;
        }
        // A file git ignores (CLAUDE.local.md, once init put it in .gitignore) is not for
        // `git add`, which would refuse it and with it the whole line.
        const std::string top = finding.path.substr(0, finding.path.find('/'));
        if (!repo.is_ignored(top) || repo.index_blob_id(top)) {
          to_commit.insert(top);
        }
        if (!repo.is_ignored("memory")) {
          to_commit.insert("memory");
        }
      }
      // Paths as typed where the user is: `../../.memory` from two folders down.
      std::vector<std::string> to_add;
      for (const std::string& path : to_commit) {
        to_add.push_back(util::path_from_cwd(repo.workdir(), path));
      }
      // What must run first is said first: the commit line is the last step.
      if (errors > 0) {
        out += gate_advice(blocking, static_cast<std::size_t>(errors), created, to_migrate);
      }
      out += fmt::format("next: git add {} && git commit -m \"Add the memory vault\"\n",
                         util::join(to_add, " "));
    }
    std::fputs(out.c_str(), stdout);
  }
  return exit_code::k_ok;
}

}  // namespace init_command

Runner define_init(CLI::App& app) {
  using namespace init_command;  // this file's own helpers
  auto options = std::make_shared<Options>();
  app.add_flag("--recall", options->recall,
               "Also scaffold the tiered working memory (CLAUDE.local.md, memory/)");
  app.add_flag("--no-hooks", options->no_hooks,
               "Do not install the git hooks (the merge drivers are still set up), for "
               "repositories whose hooks another tool runs (see `git vault hooks`)");
  app.add_flag("--allow-global-hooks-path", options->allow_global_hooks_path,
               "Install into a core.hooksPath set in global config (it serves every repository)");
  app.add_option("--ci", options->ci,
                 "Also write a CI workflow running the gate and the review (github: "
                 ".github/workflows/git-vault.yml)")
      ->check(CLI::IsMember(std::vector<std::string>{"github"}));
  app.add_flag("--mcp", options->mcp,
               "Also add the git-vault MCP server to .mcp.json (Claude Code), merging with an "
               "existing file");
  app.add_flag("--diff-driver", options->diff_driver,
               "Also make git diff and git log -p of this clone show memory files one "
               "frontmatter field per line (git vault diff does it once)");
  CLI::Option* agent_option =
      app.add_option("--agent", options->agents,
                     "Wire an agent to the vault: its MCP configuration, hooks that put memory in "
                     "its prompts and record what goes wrong, and a skill (claude, cursor, vscode, "
                     "gemini, codex; repeat for several)")
          ->check(CLI::IsMember(
              std::vector<std::string>{"claude", "cursor", "vscode", "gemini", "codex"}));
  app.add_flag("--no-agent", options->no_agent,
               "Take out every agent's wiring --agent added (and nothing else), then stop")
      ->excludes(agent_option);
  app.add_option("--ci-source", options->workflow.source,
                 "GitHub repository of git-vault whose action the workflow runs (OWNER/REPO or "
                 "its URL; default: the one this git-vault was built from)");
  app.add_option("--ci-ref", options->workflow.ref,
                 "Tag or commit of git-vault's action the workflow runs")
      ->capture_default_str();
  return [options](const Globals& globals) { return run(*options, *globals.session); };
}

}  // namespace gv::cmd
