#pragma once

#include <functional>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "core/session/session.hpp"

namespace CLI {
class App;
}

namespace gv::cmd {

// Options every subcommand understands; parsed by main before the runner is called.
struct Globals {
  std::optional<std::string> today;  // --today YYYY-MM-DD
  std::optional<std::string> now;    // --now YYYY-MM-DDTHH:MM:SSZ
  bool json = false;                 // --json: one document on stdout
  bool verbose = false;              // -v
  bool quiet = false;                // -q: only errors and the results asked for
  std::optional<std::size_t> limit;  // --limit N: rows per list in human output (0: all)
  // The process's Session (core/session/session.hpp), created by main after parsing: the one
  // open repository, clock, parse cache and output settings. Never null inside a runner.
  Session* session = nullptr;
};

// What a subcommand's define function returns: run once after parsing, returns the exit code.
using Runner = std::function<int(const Globals&)>;

// One row of the command table in main.cpp. `define` adds flags to the subcommand's App and
// returns the runner bound to them.
struct Command {
  std::string_view name;
  std::string_view summary;
  Runner (*define)(CLI::App&);
  // What main has the Session open before the runner starts, so a command run outside a
  // repository fails at once with one clear message.
  Need needs = Need::nothing;
  bool hidden = false;  // plumbing for git (hooks, drivers): left out of the command list
};

Runner define_init(CLI::App& app);
Runner define_hooks(CLI::App& app);
Runner define_check(CLI::App& app);
Runner define_status(CLI::App& app);
Runner define_index(CLI::App& app);
Runner define_distill(CLI::App& app);
Runner define_recall(CLI::App& app);
Runner define_log(CLI::App& app);
Runner define_revert(CLI::App& app);
Runner define_review(CLI::App& app);
Runner define_diff(CLI::App& app);
// `git-vault diff [<git diff arguments>]` answered before the parser, so that every argument
// (`--`, option-like paths) reaches git diff as it was typed (cmd/diff.cpp). nullopt for any
// other command line, or one that asks for help.
std::optional<int> run_rendered_diff_line(int argc, char** argv);
Runner define_search(CLI::App& app);
Runner define_events(CLI::App& app);
Runner define_show(CLI::App& app);
Runner define_list(CLI::App& app);
Runner define_context(CLI::App& app);
Runner define_learn(CLI::App& app);
Runner define_mcp(CLI::App& app);
Runner define_migrate(CLI::App& app);
Runner define_hook(CLI::App& app);
Runner define_agent_hook(CLI::App& app);
// `git-vault hook <name> [<git's arguments>]`, the exact line the installed shims run, answered
// without building the command-line parser (cmd/hook.cpp). nullopt when argv has another shape;
// main then parses it as any other command line.
std::optional<int> run_installed_hook(int argc, char** argv);
Runner define_merge_driver(CLI::App& app);
Runner define_diff_text(CLI::App& app);
Runner define_completion(CLI::App& app);

// The command table of main.cpp in help order, for `git vault completion` (cmd/completion.cpp).
std::span<const Command> command_table();

}  // namespace gv::cmd
