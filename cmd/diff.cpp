// `git vault diff`: `git diff` with memory files rendered one frontmatter field and one list
// item per line, for this one command (doc/decisions.md, D23: plain git stays plain).
#include <CLI/CLI.hpp>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "cmd/command.hpp"
#include "core/git/repo.hpp"
#include "core/hooks/diff_driver.hpp"
#include "core/session/session.hpp"

namespace gv::cmd {

std::optional<int> run_rendered_diff_line(int argc, char** argv) {
  // git-vault's global options may come first; of them only -P / --no-pager means anything to
  // git diff. The values of the ones that take one are skipped with them.
  int at = 1;
  bool no_pager = false;
  for (; at < argc; ++at) {
    const std::string_view arg = argv[at];
    if (arg == "--today" || arg == "--now" || arg == "--limit") {
      ++at;
    } else if (arg == "-P" || arg == "--no-pager") {
      no_pager = true;
    } else if (!arg.starts_with("-")) {
      break;
    }
  }
  if (at >= argc || std::string_view(argv[at]) != "diff") {
    return std::nullopt;
  }
  for (int i = at + 1; i < argc; ++i) {
    const std::string_view arg = argv[i];
    if (arg == "--") {
      break;  // paths from here on, a file named -h among them
    }
    if (arg == "-h" || arg == "--help") {
      return std::nullopt;  // our help, from the parser
    }
  }
  // Every argument is git's, `--` and option-like paths included: passed on as they are.
  const git::Repo repo = git::Repo::discover(std::filesystem::current_path());
  hooks::run_rendered_diff(repo, std::vector<std::string>(argv + at + 1, argv + argc), no_pager);
}

Runner define_diff(CLI::App& app) {
  // Reached only for `-h` (run_rendered_diff_line takes every other command line): the help.
  app.allow_extras();
  app.footer(
      "Every argument goes to git diff as it is (git vault diff HEAD~1 -- .memory). `git vault "
      "init --diff-driver` makes plain git diff and git log -p of this clone render memory files "
      "the same way.");
  return [&app](const Globals& globals) -> int {
    hooks::run_rendered_diff(globals.session->repo(), app.remaining(), false);
  };
}

}  // namespace gv::cmd
