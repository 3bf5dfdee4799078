#include <fmt/format.h>
#include <fmt/ranges.h>

#include <CLI/CLI.hpp>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "cmd/command.hpp"
#include "core/agent/wiring.hpp"
#include "core/error.hpp"
#include "core/git/repo.hpp"
#include "core/hooks/installer.hpp"
#include "core/hooks/shim.hpp"
#include "core/session/session.hpp"
#include "core/util/json_output.hpp"
#include "core/util/message.hpp"

namespace gv::cmd {
namespace hooks_command {

struct Options {
  bool allow_global_hooks_path = false;
  bool json = false;
};

std::string_view source_name(git::HooksPathSource source) {
  switch (source) {
    case git::HooksPathSource::default_dir:
      return "default";
    case git::HooksPathSource::repository:
      return "core.hooksPath (repository)";
    case git::HooksPathSource::outside:
      return "core.hooksPath (global or system)";
  }
  return "unknown";
}

std::string_view source_key(git::HooksPathSource source) {
  switch (source) {
    case git::HooksPathSource::default_dir:
      return "default";
    case git::HooksPathSource::repository:
      return "local";
    case git::HooksPathSource::outside:
      return "global";
  }
  return "unknown";
}

int print_report(const hooks::InstallReport& report) {
  if (!report.refusal.empty()) {
    util::print_error(report.refusal);
    return exit_code::k_no;
  }
  std::fputs(fmt::format("hooks directory: {} ({})\n", report.location.dir.string(),
                         source_name(report.location.source))
                 .c_str(),
             stdout);
  for (const hooks::HookChange& change : report.hooks) {
    std::fputs(fmt::format("{}\n", change.message).c_str(), stdout);
  }
  for (const std::string& note : report.notes) {
    std::fputs(fmt::format("{}\n", note).c_str(), stdout);
  }
  return report.ok() ? exit_code::k_ok : exit_code::k_no;
}

int run_install(const Options& options, Session& session) {
  return print_report(hooks::install_hooks(
      session.repo(), {options.allow_global_hooks_path, /*gitattributes=*/true}));
}

int run_uninstall(const Options& options, Session& session) {
  const int code = print_report(
      hooks::uninstall_hooks(session.repo(), {options.allow_global_hooks_path, false}));
  // The agents' hooks go too: what `init --agent` wired, exactly (doc/agent.md).
  if (session.repo().is_bare()) {
    return code;
  }
  try {
    const std::filesystem::path root = session.repo().workdir();
    const agent::WiringPlan plan = agent::plan_uninstall(root);
    for (const std::string& line : agent::apply_wiring(root, plan)) {
      std::fputs(fmt::format("{}\n", line).c_str(), stdout);
    }
    for (const std::string& note : plan.notes) {
      util::print_note(note);
    }
  } catch (const Error& e) {
    // The git hooks are out by now; an agent's settings file that cannot be read keeps its part.
    util::print_warning(fmt::format("the agents' hooks were not removed: {}", e.what()));
    return exit_code::k_no;
  }
  return code;
}

// `hooks install` refuses a core.hooksPath from global or system config without the flag.
std::string install_command(const hooks::HooksStatus& status) {
  return status.location.source == git::HooksPathSource::outside
             ? "git vault hooks install --allow-global-hooks-path"
             : "git vault hooks install";
}

// lefthook moves any hook it did not write to `<hook>.old` and never runs it; the way back is
// to let lefthook run git-vault, or to chain lefthook's hook behind ours.
std::vector<std::string> displaced_names(const std::vector<std::string>& names) {
  std::vector<std::string> out;
  out.reserve(names.size());
  for (const std::string& name : names) {
    out.push_back(hooks::displaced_name(name));
  }
  return out;
}

std::string displaced_advice(const std::vector<std::string>& names) {
  if (names.empty()) {
    return {};
  }
  std::string out = fmt::format(
      "  git-vault's {} moved aside as {} (lefthook does this on `lefthook install`), "
      "and nothing runs {}. Either add to lefthook.yml:\n",
      names.size() == 1 ? "hook was" : "hooks were", fmt::join(displaced_names(names), ", "),
      names.size() == 1 ? "it" : "them");
  for (const std::string& name : names) {
    // `{0}` is lefthook's placeholder for git's arguments (post-merge's squash flag).
    out += fmt::format(
        "    {0}:\n      commands:\n        git-vault:\n          run: git-vault hook {0} {{0}}\n",
        name);
  }
  out +=
      "  or run `git vault hooks install`, which puts git-vault's hook back and runs "
      "lefthook's from it.\n";
  return out;
}

// A hook git-vault did not write, which does not run git-vault: the gate is off. Where git-vault
// writes hooks, `hooks install` chains the hook in place behind its own; in a tracked folder
// (husky) only the user adds the line.
std::string foreign_advice(const hooks::HooksStatus& status, const std::vector<std::string>& names,
                           const std::filesystem::path& workdir) {
  if (names.empty()) {
    return {};
  }
  if (status.shared) {
    std::string out;
    for (const std::string& name : names) {
      const std::filesystem::path file =
          std::filesystem::weakly_canonical(status.edited_dir / name)
              .lexically_relative(std::filesystem::weakly_canonical(workdir));
      out += fmt::format("  nothing runs git-vault's {}: add this line to {}: {}\n", name,
                         file.string(), hooks::tracked_hook_line(name));
    }
    return out;
  }
  return fmt::format(
      "  nothing runs git-vault's {0}: run `{1}`, which puts it back and runs "
      "the hook in place from it (with the pre-commit framework, adding hook id git-vault to "
      ".pre-commit-config.yaml works too)\n",
      fmt::join(names, " or "), install_command(status));
}

// What `hooks install` puts in place that status found missing: hooks not written yet (in a
// tracked folder only the user adds them, see foreign_advice), the merge drivers, the
// .gitattributes lines.
std::string missing_advice(const hooks::HooksStatus& status, std::vector<std::string> missing) {
  if (missing.empty()) {
    return {};
  }
  std::string out = fmt::format("  `{}` puts ", install_command(status));
  for (std::size_t i = 0; i < missing.size(); ++i) {
    out += i == 0 ? "" : i + 1 == missing.size() ? " and " : ", ";
    out += missing[i];
  }
  out += " in place";
  if (status.location.source == git::HooksPathSource::outside) {
    out +=
        " (core.hooksPath is set in global or system config: hooks written there serve every "
        "repository that uses it)";
  }
  return out + "\n";
}

std::string_view diff_driver_key(hooks::DiffDriverState state) {
  switch (state) {
    case hooks::DiffDriverState::plain:
      return "plain";
    case hooks::DiffDriverState::rendered:
      return "rendered";
    case hooks::DiffDriverState::legacy:
      return "legacy";
  }
  return "plain";
}

// The rendered memory diff is opt-in (D23): say which view `git diff` gives, and how to change it.
std::string diff_driver_line(hooks::DiffDriverState state) {
  switch (state) {
    case hooks::DiffDriverState::plain:
      return "off (git diff shows memory files as they are; git vault diff renders them, git "
             "vault init --diff-driver always)";
    case hooks::DiffDriverState::rendered:
      return "on for this clone (git diff renders memory files; git vault hooks uninstall "
             "turns it off)";
    case hooks::DiffDriverState::legacy:
      return "set by an earlier git-vault for every clone (git diff output of memory files "
             "does not apply as a patch); git vault hooks install removes it, git vault init "
             "--diff-driver keeps it";
  }
  return {};
}

int run_status(const Options& options, Session& session) {
  const hooks::HooksStatus status = hooks::hooks_status(session.repo());
  const bool bare = session.repo().is_bare();
  // A bare repository has no work tree to hold .gitattributes, and no commits made in it.
  const bool attributes_ok = status.gitattributes_complete || bare;
  bool all_running = true;
  for (const hooks::HookStatusLine& line : status.hooks) {
    all_running = all_running && hooks::is_running(line.state);
  }
  const int code = all_running && status.merge_drivers_configured && attributes_ok
                       ? exit_code::k_ok
                       : exit_code::k_no;
  if (options.json || session.output().json) {
    nlohmann::ordered_json doc;
    doc["schema"] = 1;
    doc["hooks_dir"] = status.location.dir.string();
    doc["hooks_path_source"] = source_key(status.location.source);
    doc["hooks"] = nlohmann::ordered_json::array();
    for (const hooks::HookStatusLine& line : status.hooks) {
      doc["hooks"].push_back({{"name", line.name},
                              {"state", hooks::to_string(line.state)},
                              {"running", hooks::is_running(line.state)}});
    }
    doc["merge_drivers"] = status.merge_drivers_configured;
    doc["gitattributes"] = status.gitattributes_complete;
    doc["diff_driver"] = diff_driver_key(status.diff_driver);
    doc["complete"] = code == exit_code::k_ok;
    util::print_json(doc);
    return code;
  }
  std::string out = fmt::format("hooks directory: {} ({})\n", status.location.dir.string(),
                                source_name(status.location.source));
  std::vector<std::string> displaced;
  std::vector<std::string> foreign;
  std::vector<std::string> missing;
  for (const hooks::HookStatusLine& line : status.hooks) {
    out += fmt::format("{}: {}\n", line.name, hooks::to_string(line.state));
    if (line.state == hooks::HookState::displaced) {
      displaced.push_back(line.name);
    } else if (line.state == hooks::HookState::foreign ||
               (line.state == hooks::HookState::not_installed && status.shared)) {
      foreign.push_back(line.name);
    } else if (line.state == hooks::HookState::not_installed) {
      missing.push_back(line.name);
    }
  }
  out += displaced_advice(displaced);
  out += foreign_advice(status, foreign, bare ? std::filesystem::path() : session.repo().workdir());
  out += fmt::format("merge drivers: {}\n",
                     status.merge_drivers_configured ? "configured" : "not configured");
  if (!status.merge_drivers_configured) {
    missing.emplace_back("the merge drivers");
  }
  out += fmt::format(".gitattributes: {}\n", bare ? "none (a bare repository)"
                                             : status.gitattributes_complete ? "complete"
                                                                             : "lines missing");
  if (!attributes_ok) {
    missing.emplace_back("the .gitattributes lines");
  }
  out += fmt::format("diff driver: {}\n", diff_driver_line(status.diff_driver));
  out += missing_advice(status, missing);
  std::fputs(out.c_str(), stdout);
  return code;
}

}  // namespace hooks_command

Runner define_hooks(CLI::App& app) {
  using namespace hooks_command;  // this file's own helpers
  auto options = std::make_shared<Options>();
  app.require_subcommand(1);
  CLI::App* install = app.add_subcommand("install", "Install the pre-commit and post-merge hooks");
  install->add_flag("--allow-global-hooks-path", options->allow_global_hooks_path,
                    "Write into a core.hooksPath set in global or system config (it serves "
                    "every repository)");
  CLI::App* uninstall =
      app.add_subcommand("uninstall", "Remove the hooks and restore what was there before");
  uninstall->add_flag("--allow-global-hooks-path", options->allow_global_hooks_path,
                      "Remove from a core.hooksPath set in global or system config");
  CLI::App* status = app.add_subcommand("status", "Show which hooks are installed and where");
  status->add_flag("--json", options->json, "Print one JSON document on stdout");
  return [options, install, uninstall](const Globals& globals) {
    if (install->parsed()) {
      return run_install(*options, *globals.session);
    }
    if (uninstall->parsed()) {
      return run_uninstall(*options, *globals.session);
    }
    return run_status(*options, *globals.session);
  };
}

}  // namespace gv::cmd
