#pragma once

#include <string>
#include <vector>

// Shell completion scripts for `git vault`, written from a description of the command line that
// `git vault completion` takes from the parser's own command table, so that a new command or
// flag is completed as soon as it exists (doc/architecture.md, "Shell completion").
namespace gv::setup {

struct CompletionOption {
  std::vector<std::string> names;  // "-v", "--verbose"
  std::string description;
  bool takes_value = false;  // `--today DATE`: the next word is its value, not a command
};

struct CompletionCommand {
  std::string name;  // empty for `git vault` itself
  std::string summary;
  std::vector<CompletionOption> options;
  std::vector<CompletionCommand> subcommands;
  bool memory_ids = false;  // its arguments are memory ids (`git vault show MEM-…`)
};

// A bash script defining `_git_vault`, which git's own completion calls for `git vault …`,
// and completing `git-vault …` with it too. Memory ids come from the file names under
// `.memory/10-Memories/` of the repository the shell is in.
[[nodiscard]] std::string bash_completion(const CompletionCommand& root);

// A zsh completion function file `_git-vault` (`#compdef git-vault`), which zsh's git
// completion calls for `git vault …`.
[[nodiscard]] std::string zsh_completion(const CompletionCommand& root);

}  // namespace gv::setup
