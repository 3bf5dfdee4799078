#include <fmt/format.h>

#include <CLI/CLI.hpp>
#include <array>
#include <cstdio>
#include <exception>
#include <map>

#include "cmd/command.hpp"
#include "core/error.hpp"
#include "core/git/library.hpp"
#include "core/session/session.hpp"

namespace gv::cmd {
namespace {

// Help order. Each subcommand lives in cmd/<name>.cpp and exports only define_<name>.
constexpr Need k_repo = Need::repository;
constexpr Need k_work_tree = Need::repository | Need::work_tree;
constexpr Need k_vault = Need::repository | Need::work_tree | Need::parse_cache;

// Help order. Each subcommand lives in cmd/<name>.cpp and exports only define_<name>.
constexpr std::array k_commands{
    Command{"init", "Scaffold a vault, its git attributes and hooks", define_init, k_work_tree},
    Command{"check", "Run the commit gates (ids, schema, stale index)", define_check, k_repo},
    Command{"index", "Regenerate the generated index files", define_index, k_vault},
    Command{"distill", "Health report, or one maintenance action as a commit", define_distill,
            k_vault},
    Command{"recall", "Working-memory ids and maintenance", define_recall, k_work_tree},
    Command{"log", "The distill log with each entry's commit", define_log, k_work_tree},
    Command{"revert", "Undo one maintenance action as a new commit", define_revert, k_vault},
    Command{"review", "What a branch changes in the vault, for a pull request", define_review,
            k_repo | Need::parse_cache},
    Command{"search", "Find memories", define_search, k_vault},
    Command{"hooks", "Install, remove or inspect the git hooks", define_hooks, k_repo},
    // Hooks open the repository themselves from git's environment, inside their own error
    // handling (an advisory hook never fails the merge); the drivers get files, not a repository.
    Command{"hook", "Entry point of the installed hook shims", define_hook, Need::nothing, true},
    Command{"merge-driver", "Merge driver for the vault's generated and log files",
            define_merge_driver, Need::nothing, true},
    Command{"diff-text", "Textconv of the memory diff driver: frontmatter one field per line",
            define_diff_text, Need::nothing, true},
};

int run(int argc, char** argv) {
  CLI::App app{"git-vault: keep an agent's memory vault healthy inside git", "git vault"};
  app.require_subcommand(1);
  app.footer(
      "Use `git vault <command> -h` for a command's options (`--help` asks git for a man page).");
  Globals globals;
  app.add_option("--today", globals.today, "Fix today's date (YYYY-MM-DD)");
  app.add_option("--now", globals.now, "Fix the current instant (YYYY-MM-DDTHH:MM:SSZ)");
  app.add_flag("--json", globals.json, "Print one JSON document on stdout");
  app.add_flag("-v,--verbose", globals.verbose, "Explain what happens");
  app.add_flag("-q,--quiet", globals.quiet, "Print only errors and the results asked for");

  std::map<const CLI::App*, Runner> runners;
  std::map<const CLI::App*, Need> needs;
  for (const Command& command : k_commands) {
    CLI::App* sub = app.add_subcommand(std::string{command.name}, std::string{command.summary});
    sub->fallthrough();
    if (command.hidden) {
      sub->group("");
    }
    runners.emplace(sub, command.define(*sub));
    needs.emplace(sub, command.needs);
  }

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    // CLI11's own codes run 100-127; git users expect 129 for usage errors.
    return app.exit(e) == 0 ? exit_code::k_ok : exit_code::k_usage;
  }
  for (const CLI::App* sub : app.get_subcommands()) {
    Session::Options options;
    options.today = globals.today;
    options.now = globals.now;
    options.output = detect_output(globals.json, globals.verbose, globals.quiet);
    Session session(std::move(options));
    session.provide(needs.at(sub));
    globals.session = &session;
    return runners.at(sub)(globals);
  }
  return exit_code::k_usage;
}

}  // namespace
}  // namespace gv::cmd

int main(int argc, char** argv) {
  try {
    gv::git::Library library;
    return gv::cmd::run(argc, argv);
  } catch (const gv::UsageError& e) {
    std::fputs(fmt::format("git-vault: error: {}\n", e.what()).c_str(), stderr);
    return gv::exit_code::k_usage;
  } catch (const std::exception& e) {
    std::fputs(fmt::format("git-vault: error: {}\n", e.what()).c_str(), stderr);
    return gv::exit_code::k_fatal;
  }
}
