#include <fmt/format.h>

#include <CLI/CLI.hpp>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "cmd/command.hpp"
#include "core/error.hpp"
#include "core/util/mapped_file.hpp"
#include "hooks/hooks.hpp"

namespace gv::cmd {
namespace hook_command {

struct Options {
  std::string name;
  std::vector<std::string> git_args;
};

int run(const Options& options, Session& session) {
  if (options.name == "pre-commit") {
    return hooks::run_pre_commit(session, options.git_args);
  }
  if (options.name == "post-merge") {
    return hooks::run_post_merge(session, options.git_args);
  }
  throw UsageError("unknown hook `{}` (known: pre-commit, post-merge)", options.name);
}

}  // namespace hook_command

std::optional<int> run_installed_hook(int argc, char** argv) {
  using namespace hook_command;  // this file's own helpers
  if (argc < 3 || std::string_view(argv[1]) != "hook" ||
      std::string_view(argv[2]).starts_with("-")) {
    return std::nullopt;
  }
  Options options;
  options.name = argv[2];
  if (options.name == "pre-commit") {
    // It maps the git index and the gate's baseline, and exits right after (below).
    util::MappedFile::keep_mappings_until_exit();
  }
  options.git_args.assign(argv + 3, argv + argc);
  Session::Options session_options;
  session_options.output = detect_output(false, false, false, std::nullopt);
  Session session(std::move(session_options));
  session.resolve_color();
  const int code = run(options, session);
  // A hook's whole run is a few milliseconds, and taking down what it built (the repository,
  // its object and config caches, libgit2) costs a tenth of that. What must outlive the process
  // is saved here; the rest goes with it (doc/performance.md, "The hook's start-up").
  session.save_parse_cache();
  std::fflush(stdout);
  std::fflush(stderr);
  std::_Exit(code);
}

Runner define_hook(CLI::App& app) {
  using namespace hook_command;  // this file's own helpers
  auto options = std::make_shared<Options>();
  app.add_option("name", options->name, "The hook git is running")->required();
  app.add_option("args", options->git_args, "The hook's arguments from git");
  // Hook arguments are git's (post-merge gets "0" or "1"; pre-commit none), never flags.
  app.prefix_command();
  return [options](const Globals& globals) { return run(*options, *globals.session); };
}

}  // namespace gv::cmd
