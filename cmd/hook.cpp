#include <fmt/format.h>

#include <CLI/CLI.hpp>
#include <memory>
#include <string>
#include <vector>

#include "cmd/command.hpp"
#include "core/error.hpp"
#include "hooks/hooks.hpp"

namespace gv::cmd {
namespace {

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

}  // namespace

Runner define_hook(CLI::App& app) {
  auto options = std::make_shared<Options>();
  app.add_option("name", options->name, "The hook git is running")->required();
  app.add_option("args", options->git_args, "The hook's arguments from git");
  // Hook arguments are git's (post-merge gets "0" or "1"; pre-commit none), never flags.
  app.prefix_command();
  return [options](const Globals& globals) { return run(*options, *globals.session); };
}

}  // namespace gv::cmd
