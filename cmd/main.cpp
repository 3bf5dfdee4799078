#include <fmt/format.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <array>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <map>
#include <new>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "cmd/command.hpp"
#include "core/error.hpp"
#include "core/git/library.hpp"
#include "core/session/session.hpp"
#include "core/util/exhaustion.hpp"
#include "core/util/heap.hpp"
#include "core/util/memory_reserve.hpp"
#include "core/util/message.hpp"
#include "core/util/suggest.hpp"
#include "core/util/trace.hpp"
#include "core/version.hpp"

namespace gv::cmd {
namespace main_command {

constexpr Need k_repo = Need::repository;
constexpr Need k_work_tree = Need::repository | Need::work_tree;
constexpr Need k_vault = Need::repository | Need::work_tree | Need::parse_cache;

// Help order. Each subcommand lives in cmd/<name>.cpp and exports only define_<name>.
constexpr std::array k_commands{
    Command{"init", "Scaffold a vault, its git attributes and hooks", define_init, k_work_tree},
    Command{"status", "Where the vault stands, in one screen", define_status, k_vault},
    Command{"check", "Run the commit gates (ids, schema, stale index)", define_check, k_repo},
    Command{"index", "Regenerate the generated index files", define_index, k_vault},
    Command{"distill", "Health report, or one maintenance action as a commit", define_distill,
            k_vault},
    Command{"recall", "Working-memory ids and maintenance", define_recall, k_work_tree},
    Command{"log", "The distill log with each entry's commit", define_log, k_work_tree},
    Command{"revert", "Undo one maintenance action as a new commit", define_revert, k_vault},
    Command{"diff", "git diff with memory files shown one frontmatter field per line", define_diff,
            k_work_tree},
    Command{"review", "What a branch changes in the vault, for a pull request", define_review,
            k_repo | Need::parse_cache},
    // search opens the parse cache only for files its own search cache has not seen.
    Command{"search", "Find memories and working-memory entries", define_search, k_work_tree},
    Command{"show", "Print memories and working-memory entries by id", define_show, k_work_tree},
    Command{"list", "List memories with their metadata, filtered", define_list, k_vault},
    Command{"context", "The memory context block for a task, or a session briefing", define_context,
            k_vault},
    Command{"learn", "Create or update a memory from text, a file or stdin", define_learn, k_vault},
    Command{"mcp", "Serve the vault to an agent over MCP (stdio)", define_mcp, k_vault},
    Command{"migrate", "Convert memories in an older layout to frontmatter, as one commit",
            define_migrate, k_vault},
    Command{"events", "Query the event store specs/events.jsonl", define_events, k_work_tree},
    Command{"hooks", "Install, remove or inspect the git hooks", define_hooks, k_repo},
    // Hooks open the repository themselves from git's environment, inside their own error
    // handling (an advisory hook never fails the merge); the drivers get files, not a repository.
    Command{"hook", "Entry point of the installed hook shims", define_hook, Need::nothing, true},
    // Agents' hooks: the repository is found from the payload, inside the command's own error
    // handling (an agent is never blocked by a hook).
    Command{"agent-hook", "Entry point of the agents' hooks (payload on stdin)", define_agent_hook,
            Need::nothing, true},
    Command{"merge-driver", "Merge driver for the vault's generated and log files",
            define_merge_driver, Need::nothing, true},
    Command{"diff-text", "Textconv of the memory diff driver: frontmatter one field per line",
            define_diff_text, Need::nothing, true},
    Command{"completion", "Print the bash or zsh completion script", define_completion,
            Need::nothing, true},
};

// `git vault` alone, or `git vault help`: one line per command, as `git help` lists git's.
void print_command_list() {
  std::string out =
      "usage: git vault [--json] [-v | -q] [-P] [--limit N] [--today DATE] [--now INSTANT] "
      "<command> "
      "[<args>]\n\n"
      "Commands:\n";
  for (const Command& command : k_commands) {
    if (!command.hidden) {
      out += fmt::format("   {:<10}  {}\n", command.name, command.summary);
    }
  }
  out +=
      "\nSee 'git vault <command> -h' for a command's options and 'git help vault' for the "
      "manual.\n";
  std::fputs(out.c_str(), stdout);
}

// The words of argv that are not options, in order, skipping the values of the global options
// that take one (`--today DATE`, `--now INSTANT`).
std::vector<std::string_view> words(int argc, char** argv) {
  std::vector<std::string_view> found;
  for (int i = 1; i < argc; ++i) {
    const std::string_view arg = argv[i];
    if (arg == "--today" || arg == "--now" || arg == "--limit") {
      ++i;
    } else if (arg == "--") {
      break;
    } else if (!arg.starts_with("-")) {
      found.push_back(arg);
    }
  }
  return found;
}

// Whether `word` is the argument right after `before` on the command line (both words of it).
bool right_after(int argc, char** argv, std::string_view before, std::string_view word) {
  for (int i = 1; i + 1 < argc; ++i) {
    if (argv[i] == before) {
      return argv[i + 1] == word;
    }
  }
  return false;
}

std::vector<std::string> visible_names(const CLI::App& parent) {
  std::vector<std::string> names;
  for (const CLI::App* sub : parent.get_subcommands([](const CLI::App*) { return true; })) {
    if (!sub->get_group().empty()) {
      names.push_back(sub->get_name());
    }
  }
  return names;
}

// git's answer to a mistyped command: `'distil' is not a git vault command`, then the closest
// names. Checked before CLI11 parses, whose own message ("A subcommand is required") would not
// say which word was wrong. Covers the commands and one level below (`recall maintian`).
std::optional<std::string> misspelt(const CLI::App& app, int argc, char** argv) {
  const std::vector<std::string_view> given = words(argc, argv);
  if (given.empty()) {
    return std::nullopt;
  }
  const CLI::App* parent = &app;
  std::string path = "git vault";
  for (std::size_t depth = 0; depth < 2 && depth < given.size(); ++depth) {
    const std::vector<std::string> names = visible_names(*parent);
    if (names.empty()) {
      return std::nullopt;  // the rest are the command's own arguments
    }
    // A subcommand comes right after its command; a word after an option is that option's
    // value (`git vault events --category deviation`), not a misspelt subcommand.
    if (depth > 0 && !right_after(argc, argv, given[depth - 1], given[depth])) {
      return std::nullopt;
    }
    const CLI::App* next = nullptr;
    for (const CLI::App* sub : parent->get_subcommands([](const CLI::App*) { return true; })) {
      if (sub->get_name() == given[depth]) {
        next = sub;
      }
    }
    if (next == nullptr) {
      std::string message =
          fmt::format("'{}' is not a {} command. See '{} -h'.", given[depth], path, path);
      const std::vector<std::string> close = util::closest_names(given[depth], names);
      if (!close.empty()) {
        message += close.size() == 1 ? "\n\nThe most similar command is"
                                     : "\n\nThe most similar commands are";
        for (const std::string& name : close) {
          message += fmt::format("\n\t{} {}", path, name);
        }
      }
      return message;
    }
    path += " " + next->get_name();
    parent = next;
  }
  return std::nullopt;
}

// The command line's deepest parsed command, for "See 'git vault recall maintain -h'".
std::string help_target(const CLI::App& app) {
  std::string target;
  const CLI::App* at = &app;
  while (true) {
    const std::vector<CLI::App*> parsed = at->get_subcommands();
    if (parsed.empty()) {
      return target;
    }
    at = parsed.front();
    target += at->get_name() + " ";
  }
}

// The command being run, for the one line a fatal error ends with (out of memory, a full disk).
std::string g_command;

int run(int argc, char** argv) {
  // The installed hooks' line, `git-vault hook <name> …`, is answered before the parser runs.
  if (argc >= 3 && std::string_view(argv[1]) == "hook") {
    g_command = fmt::format("hook {}", argv[2]);
  }
  if (const std::optional<int> code = run_installed_hook(argc, argv)) {
    return *code;
  }
  if (const std::optional<int> code = run_rendered_diff_line(argc, argv)) {
    return *code;
  }
  CLI::App app{"git-vault: keep an agent's memory vault healthy inside git", "git vault"};
  app.require_subcommand(1);
  app.footer(
      "Use `git vault <command> -h` for a command's options (`--help` asks git for a man page).");
  app.set_version_flag("--version", fmt::format("git-vault version {}", version()),
                       "Print the version and exit");
  Globals globals;
  app.add_option("--today", globals.today, "Fix today's date (YYYY-MM-DD)");
  app.add_option("--now", globals.now, "Fix the current instant (YYYY-MM-DDTHH:MM:SSZ)");
  app.add_flag("--json", globals.json, "Print one JSON document on stdout");
  app.add_flag("-v,--verbose", globals.verbose, "Explain what happens");
  app.add_flag("-q,--quiet", globals.quiet, "Print only errors and the results asked for");
  bool no_pager = false;
  app.add_flag("-P,--no-pager", no_pager, "Do not send long output through the pager");
  app.add_option("--limit", globals.limit,
                 "Rows of each list in reports before a count of the rest (0: all; default 20 "
                 "on a terminal, all otherwise)")
      ->check(CLI::Range(0, 1000000000));

  const std::vector<std::string_view> given = words(argc, argv);
  std::map<const CLI::App*, Runner> runners;
  std::map<const CLI::App*, Need> needs;
  for (const Command& command : k_commands) {
    CLI::App* sub = app.add_subcommand(std::string{command.name}, std::string{command.summary});
    sub->fallthrough();
    if (command.hidden) {
      sub->group("");
    }
    // Only the command being run gets its options and subcommands: defining every command's
    // costs more than a pre-commit hook's own work on a small vault. The command list and the
    // misspelling check need only the names and summaries.
    if (!given.empty() && given[0] == command.name) {
      runners.emplace(sub, command.define(*sub));
      needs.emplace(sub, command.needs);
    }
  }

  const bool asks_help = std::any_of(argv + 1, argv + argc, [](std::string_view arg) {
    return arg == "-h" || arg == "--help" || arg == "--version";
  });
  // Only the global options and no command: the command list. An unknown option goes on to
  // the parser, which names it (`git vault --bogus` is a usage error, not a listing).
  const auto is_global = [](std::string_view arg) {
    return !arg.starts_with("-") || arg == "--json" || arg == "-v" || arg == "--verbose" ||
           arg == "-q" || arg == "--quiet" || arg == "-P" || arg == "--no-pager" ||
           arg == "--today" || arg == "--now" || arg == "--limit";
  };
  const auto unknown = std::find_if_not(argv + 1, argv + argc, is_global);
  if (!asks_help && given.empty() && unknown != argv + argc) {
    util::print_error(fmt::format("unknown option '{}'\nSee 'git vault -h'.", *unknown));
    return exit_code::k_usage;
  }
  if (!asks_help && (given.empty() || (given.size() == 1 && given[0] == "help"))) {
    print_command_list();
    return exit_code::k_ok;
  }
  if (given.size() == 1 && given[0] == "version") {
    std::fputs(fmt::format("git-vault version {}\n", version()).c_str(), stdout);
    return exit_code::k_ok;
  }
  if (const std::optional<std::string> message = misspelt(app, argc, argv)) {
    util::print_error(*message);
    return exit_code::k_usage;
  }
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForVersion& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    // Every error starts with `git-vault: error:`; usage errors exit 129, as git's do.
    util::print_error(fmt::format("{}\nSee 'git vault {}-h'.", e.what(), help_target(app)));
    return exit_code::k_usage;
  }
  for (const CLI::App* sub : app.get_subcommands()) {
    if (!runners.contains(sub)) {
      // Parsed without having been named first on the command line: not a shape git vault
      // takes (its options come after the command).
      util::print_error(
          fmt::format("put the command first: git vault {} [<options>]", sub->get_name()));
      return exit_code::k_usage;
    }
    Session::Options options;
    options.today = globals.today;
    options.now = globals.now;
    options.output = detect_output(globals.json, globals.verbose, globals.quiet, globals.limit);
    options.output.pager = !no_pager;
    Session session(std::move(options));
    session.provide(needs.at(sub));
    session.resolve_color();
    globals.session = &session;
    g_command = sub->get_name();
    return runners.at(sub)(globals);
  }
  return exit_code::k_usage;
}

// Where GIT_VAULT_TRACE_PERFORMANCE sends the timing lines (core/util/trace.hpp): stderr for
// `1`, `2` or `true`; appended to the file for an absolute path, so a caller whose stderr is
// taken (a hook, the benchmark) can still read them; nowhere when unset, empty, `0` or `false`.
// A file that cannot be opened turns tracing off rather than failing the command it watches;
// the file is closed on exec, so git and the pager do not inherit it.
std::FILE* g_trace_stream = nullptr;

void write_trace_line(std::string_view line) {
  std::fwrite(line.data(), 1, line.size(), g_trace_stream);
  std::fflush(g_trace_stream);
}

void install_performance_trace() {
  const char* value = std::getenv("GIT_VAULT_TRACE_PERFORMANCE");
  const std::string_view text = value == nullptr ? "" : value;
  if (text.empty() || text == "0" || text == "false") {
    return;
  }
  g_trace_stream = text.front() == '/' ? std::fopen(value, "ae") : stderr;
  if (g_trace_stream != nullptr) {
    util::set_performance_sink(write_trace_line);
  }
}

// The one line a fatal error ends a command with. Memory or room that ran out is named first,
// whatever failed for it (core/util/exhaustion.hpp). When even that line cannot be allocated,
// the message goes out as it is, piece by piece.
void print_fatal(const char* message) {
  try {
    util::Exhausted exhausted = util::exhausted_in(message);
    if (exhausted == util::Exhausted::nothing && util::file_system_full(".")) {
      exhausted = util::Exhausted::disk;
    }
    std::fputs(
        fmt::format("git-vault: error: {}\n", util::fatal_message(message, g_command, exhausted))
            .c_str(),
        stderr);
  } catch (const std::bad_alloc&) {
    std::fputs("git-vault: error: ", stderr);
    std::fputs(message, stderr);
    std::fputs("\n", stderr);
  }
}

}  // namespace main_command

std::span<const Command> command_table() { return main_command::k_commands; }

}  // namespace gv::cmd

// The heap is set up before any other static constructor runs: the C++ library's, libgit2's
// and the command-line parser's allocate, and their blocks should land in the tuned heap too
// rather than in small pages left behind below it (doc/performance.md, "The binary's layout").
// 101 is the first priority a program may use; the C library itself is ready by then.
__attribute__((constructor(101))) static void tune_heap_first() { gv::util::tune_heap(); }

int main(int argc, char** argv) {
  using namespace gv::cmd::main_command;  // this file's own helpers
  gv::util::keep_memory_reserve();
  install_performance_trace();
  try {
    gv::git::Library library;
    return run(argc, argv);
  } catch (const std::bad_alloc&) {
    // Whatever ran out, the command ends here with one line, as any fatal error; a landing it
    // interrupted was put back on the way (core/git/transaction.hpp). The pieces are printed one
    // by one: the heap may have nothing left for a formatted string.
    std::fputs("git-vault: error: out of memory while running git vault ", stderr);
    std::fputs(g_command.empty() ? "(starting)" : g_command.c_str(), stderr);
    std::fputs(" (a larger memory limit, `ulimit -v`, lets it finish)\n", stderr);
    return gv::exit_code::k_fatal;
  } catch (const gv::UsageError& e) {
    std::fputs(fmt::format("git-vault: error: {}\n", e.what()).c_str(), stderr);
    return gv::exit_code::k_usage;
  } catch (const std::exception& e) {
    print_fatal(e.what());
    return gv::exit_code::k_fatal;
  }
}
