// `git vault status`: where the vault stands, in one screen, as `git status` and
// `git lfs status` do for theirs.
#include "core/status/status.hpp"

#include <CLI/CLI.hpp>
#include <cstdio>
#include <memory>
#include <nlohmann/json.hpp>

#include "cmd/command.hpp"
#include "core/error.hpp"
#include "core/session/session.hpp"
#include "core/util/json_output.hpp"

namespace gv::cmd {
namespace status_command {

int run(Session& session) {
  const status::VaultStatus status = status::gather(session);
  if (session.output().json) {
    util::print_json(status::render_json(status));
  } else {
    std::fputs(status::render_text(status, session.output().limit).c_str(), stdout);
  }
  return exit_code::k_ok;
}

}  // namespace status_command

Runner define_status(CLI::App& app) {
  using namespace status_command;  // this file's own helpers
  app.footer(
      "Memories, health and what the report recommends, working memory, vault files not yet "
      "committed, what the gate says about the work tree, the hooks and the agents wired to "
      "git-vault. Exit status 0 whatever it finds; `git vault check` answers yes or no.");
  return [](const Globals& globals) { return run(*globals.session); };
}

}  // namespace gv::cmd
