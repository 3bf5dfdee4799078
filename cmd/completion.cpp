// `git vault completion bash|zsh`: prints the shell completion script, written from the command
// table and each command's own options, so it cannot fall behind them. The build writes both
// scripts with it and installs them (CMakeLists.txt); a person can also source its output.
#include "core/setup/completion.hpp"

#include <CLI/CLI.hpp>
#include <cstdio>
#include <memory>
#include <string>

#include "cmd/command.hpp"
#include "core/error.hpp"

namespace gv::cmd {
namespace completion_command {

setup::CompletionOption option_of(const CLI::Option& option) {
  setup::CompletionOption out;
  for (const std::string& name : option.get_snames()) {
    out.names.push_back("-" + name);
  }
  for (const std::string& name : option.get_lnames()) {
    out.names.push_back("--" + name);
  }
  out.description = option.get_description();
  out.takes_value = option.get_type_size_max() > 0;  // a flag takes none
  return out;
}

// The command's options and, with `recurse`, its subcommands; what help hides stays out.
setup::CompletionCommand describe(const CLI::App& app, bool recurse) {
  setup::CompletionCommand out;
  out.name = app.get_name();
  out.summary = app.get_description();
  for (const CLI::Option* option : app.get_options()) {
    if (option->get_group().empty()) {
      continue;
    }
    if (option->get_positional()) {
      out.memory_ids = out.memory_ids || option->get_description().starts_with("Memory id");
    } else {
      out.options.push_back(option_of(*option));
    }
  }
  if (recurse) {
    for (const CLI::App* sub : app.get_subcommands([](const CLI::App*) { return true; })) {
      if (!sub->get_group().empty()) {
        out.subcommands.push_back(describe(*sub, true));
      }
    }
  }
  return out;
}

int run(const std::string& shell, const CLI::App& root_app) {
  // main defines only the options of the command it runs; every visible command is defined
  // here on a parser of its own.
  setup::CompletionCommand root = describe(root_app, false);
  CLI::App all;
  for (const Command& command : command_table()) {
    if (command.hidden) {
      continue;
    }
    CLI::App* sub = all.add_subcommand(std::string{command.name}, std::string{command.summary});
    (void)command.define(*sub);
    root.subcommands.push_back(describe(*sub, true));
  }
  const std::string script =
      shell == "bash" ? setup::bash_completion(root) : setup::zsh_completion(root);
  std::fwrite(script.data(), 1, script.size(), stdout);
  return exit_code::k_ok;
}

}  // namespace completion_command

Runner define_completion(CLI::App& app) {
  using namespace completion_command;  // this file's own helpers
  auto shell = std::make_shared<std::string>();
  app.add_option("shell", *shell, "bash or zsh")
      ->required()
      ->check(CLI::IsMember(std::vector<std::string>{"bash", "zsh"}));
  const CLI::App* root = app.get_parent();
  return [shell, root](const Globals&) { return run(*shell, *root); };
}

}  // namespace gv::cmd
