#pragma once

#include <chrono>
#include <cstddef>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace gv::util {

// A command line run as `/bin/sh -c <command>`: what git-vault runs only when the user named it
// in git config (the summariser, `vault.summarizer`), never from a tracked file.
struct ShellRun {
  std::string command;
  std::string label;  // how errors name it, e.g. "summarizer `fmt`"
  std::vector<std::pair<std::string, std::string>> env;  // added to the inherited environment
  std::string_view input;                                // written to its stdin, then closed
  std::chrono::milliseconds timeout{30000};
  std::size_t max_output = 16 * 1024 * 1024;  // stdout beyond this stops it
};

struct ShellResult {
  enum class Ending {
    exited,           // status is the exit status
    signaled,         // status is the signal
    timed_out,        // killed at the deadline
    too_much_output,  // killed after printing more than max_output bytes
  };
  Ending ending = Ending::exited;
  int status = 0;
  std::string out;
  std::string err;  // its first 64 KiB
};

// Runs the command in its own process group with stdin, stdout and stderr on pipes, feeding
// input and reading both outputs at once (a command that fills one pipe never deadlocks), and
// kills the whole group at the deadline or the output limit, so a pipeline the command started
// goes too. SIGPIPE is ignored while it runs: a command that stops reading its input is not an
// error of ours. Throws gv::Error ("<label>: cannot start: ...") only when the system refuses.
[[nodiscard]] ShellResult run_shell(const ShellRun& run);

// Replaces this process with the program `argv[0]`, looked up on PATH, as git runs one of its
// commands: its output, pager and exit status are the program's own. Flushes stdout and stderr
// first. Returns only by throwing gv::Error ("<argv[0]>: cannot run: <reason>").
[[noreturn]] void exec_program(const std::vector<std::string>& argv);

}  // namespace gv::util
