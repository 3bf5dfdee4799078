#include "core/setup/completion.hpp"

#include <fmt/format.h>

#include <string>
#include <string_view>
#include <vector>

namespace gv::setup {
namespace {

// `text` in single quotes for either shell.
std::string quote(std::string_view text) {
  std::string out = "'";
  for (const char c : text) {
    out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  }
  return out + "'";
}

// One command of the tree with its path below `git vault` ("" for the root, "recall maintain").
struct Visit {
  std::string path;
  const CompletionCommand* command;
};

std::vector<Visit> flatten(const CompletionCommand& root) {
  std::vector<Visit> out{{"", &root}};
  for (std::size_t at = 0; at < out.size(); ++at) {
    const Visit visit = out[at];
    for (const CompletionCommand& sub : visit.command->subcommands) {
      out.push_back({visit.path.empty() ? sub.name : visit.path + " " + sub.name, &sub});
    }
  }
  return out;
}

// The `case` arm of a lookup function: `'path') <body> ;;`.
std::string arm(std::string_view path, std::string_view body) {
  return fmt::format("  {}) {} ;;\n", quote(path), body);
}

// "path --option" for every option that takes a value, as one shell pattern list.
std::string valued_patterns(const std::vector<Visit>& visits) {
  std::string out;
  for (const Visit& visit : visits) {
    for (const CompletionOption& option : visit.command->options) {
      if (!option.takes_value) {
        continue;
      }
      for (const std::string& name : option.names) {
        out += (out.empty() ? "" : " | ") + quote(visit.path + " " + name);
      }
    }
  }
  return out.empty() ? quote("#none") : out;  // matches no path: every path is "" or has a name
}

// The shell function both scripts share (bash and zsh read it alike): whether option $2 of the
// command at path $1, or a global option, takes the next word.
std::string takes_value_function(const std::vector<Visit>& visits) {
  return fmt::format(
      R"sh(# Whether option $2 of the command at path $1 (or a global option) takes the next word.
__git_vault_takes_value() {{
  case "$1 $2" in
  {0}) return 0 ;;
  esac
  case " $2" in
  {0}) return 0 ;;
  esac
  return 1
}}
)sh",
      valued_patterns(visits));
}

std::string id_patterns(const std::vector<Visit>& visits) {
  std::string out;
  for (const Visit& visit : visits) {
    if (visit.command->memory_ids) {
      out += (out.empty() ? "" : " | ") + quote(visit.path);
    }
  }
  return out.empty() ? quote("#none") : out;
}

}  // namespace

std::string bash_completion(const CompletionCommand& root) {
  const std::vector<Visit> visits = flatten(root);
  std::string commands;
  std::string options;
  for (const Visit& visit : visits) {
    std::string names;
    for (const CompletionCommand& sub : visit.command->subcommands) {
      names += (names.empty() ? "" : " ") + sub.name;
    }
    if (!names.empty()) {
      commands += arm(visit.path, "echo " + quote(names));
    }
    std::string flags;
    for (const CompletionOption& option : visit.command->options) {
      for (const std::string& name : option.names) {
        flags += (flags.empty() ? "" : " ") + name;
      }
    }
    if (!flags.empty()) {
      options += arm(visit.path, "echo " + quote(flags));
    }
  }
  return fmt::format(
      R"sh(# bash completion for git-vault. `git vault <Tab>` goes through git's own completion, which
# calls _git_vault (and loads this file, installed as git-vault, when it needs it);
# `git-vault <Tab>` comes here directly. Written by `git vault completion bash` from the
# command table: regenerate it rather than edit it.

# The subcommands and the options of the command at path $1 ("" is git vault itself).
__git_vault_commands() {{
  case $1 in
{commands}  esac
}}

__git_vault_options() {{
  case $1 in
{options}  esac
}}

{takes_value}
# The memory ids of the repository the shell is in, from the vault's file names.
__git_vault_memory_ids() {{
  local top file
  top=$(git rev-parse --show-toplevel 2>/dev/null) || return 0
  for file in "$top"/.memory/10-Memories/MEM-*.md; do
    [[ -e $file ]] || continue
    file=${{file##*/}}
    echo "${{file%.md}}"
  done
}}

_git_vault() {{
  local cur=${{COMP_WORDS[COMP_CWORD]}} start=1 i word path=''
  if [[ ${{COMP_WORDS[0]##*/}} != git-vault ]]; then
    # `git [-C dir] vault …`: the command's words start after "vault".
    for ((i = 1; i < COMP_CWORD; i++)); do
      if [[ ${{COMP_WORDS[i]}} == vault ]]; then
        start=$((i + 1))
        break
      fi
    done
  fi
  for ((i = start; i < COMP_CWORD; i++)); do
    word=${{COMP_WORDS[i]}}
    if [[ $word == -* ]]; then
      if [[ $word != *=* ]] && __git_vault_takes_value "$path" "$word"; then
        i=$((i + 1))
      fi
    elif [[ " $(__git_vault_commands "$path") " == *" $word "* ]]; then
      path=${{path:+$path }}$word
    fi
  done
  local prev=${{COMP_WORDS[COMP_CWORD - 1]}}
  if ((COMP_CWORD > start)) && [[ $prev == -* ]] && __git_vault_takes_value "$path" "$prev"; then
    COMPREPLY=($(compgen -f -- "$cur"))
    return 0
  fi
  if [[ $cur == -* ]]; then
    COMPREPLY=($(compgen -W "$(__git_vault_options "$path") $(__git_vault_options '')" -- "$cur"))
    return 0
  fi
  local subcommands
  subcommands=$(__git_vault_commands "$path")
  if [[ -n $subcommands ]]; then
    COMPREPLY=($(compgen -W "$subcommands" -- "$cur"))
    return 0
  fi
  case $path in
  {ids}) COMPREPLY=($(compgen -W "$(__git_vault_memory_ids)" -- "$cur")) ;;
  *) COMPREPLY=($(compgen -f -- "$cur")) ;;
  esac
  return 0
}}

complete -o bashdefault -o default -F _git_vault git-vault
)sh",
      fmt::arg("commands", commands), fmt::arg("options", options),
      fmt::arg("takes_value", takes_value_function(visits)), fmt::arg("ids", id_patterns(visits)));
}

std::string zsh_completion(const CompletionCommand& root) {
  const std::vector<Visit> visits = flatten(root);
  const auto described = [](std::string_view name, std::string_view description) {
    std::string entry(name);
    entry += ':';
    entry += description;
    return quote(entry);
  };
  std::string commands;
  std::string options;
  for (const Visit& visit : visits) {
    std::string names;
    for (const CompletionCommand& sub : visit.command->subcommands) {
      names += "\n      " + described(sub.name, sub.summary);
    }
    if (!names.empty()) {
      commands += arm(visit.path, "reply=(" + names + "\n    )");
    }
    std::string flags;
    for (const CompletionOption& option : visit.command->options) {
      for (const std::string& name : option.names) {
        flags += "\n      " + described(name, option.description);
      }
    }
    if (!flags.empty()) {
      options += arm(visit.path, "reply=(" + flags + "\n    )");
    }
  }
  return fmt::format(
      R"sh(#compdef git-vault
# zsh completion for git-vault: `git-vault <Tab>`, and `git vault <Tab>` through zsh's git
# completion, which calls _git-vault. Written by `git vault completion zsh` from the command
# table: regenerate it rather than edit it.

# The subcommands and the options of the command at path $1 ("" is git vault itself), as
# name:description pairs in $reply.
__git_vault_commands() {{
  reply=()
  case $1 in
{commands}  esac
}}

__git_vault_options() {{
  reply=()
  case $1 in
{options}  esac
}}

{takes_value}
_git-vault() {{
  # Not `path`: zsh ties that name to PATH, and a local one would empty it.
  local -a reply names opts ids
  local i at='' word top
  for ((i = 2; i < CURRENT; i++)); do
    word=${{words[i]}}
    if [[ $word == -* ]]; then
      if [[ $word != *=* ]] && __git_vault_takes_value "$at" "$word"; then
        ((i++))
      fi
    else
      __git_vault_commands "$at"
      names=(${{reply%%:*}})
      if ((${{names[(Ie)$word]}})); then
        at=${{at:+$at }}$word
      fi
    fi
  done
  if ((CURRENT > 2)) && [[ ${{words[CURRENT-1]}} == -* ]] &&
    __git_vault_takes_value "$at" "${{words[CURRENT-1]}}"; then
    _files
    return
  fi
  if [[ ${{words[CURRENT]}} == -* ]]; then
    __git_vault_options "$at"
    opts=($reply)
    __git_vault_options ''
    opts+=($reply)
    _describe -t options 'git vault option' opts
    return
  fi
  __git_vault_commands "$at"
  if (($#reply)); then
    _describe -t commands 'git vault command' reply
    return
  fi
  case $at in
  {ids})
    top=$(git rev-parse --show-toplevel 2>/dev/null) || return 1
    ids=($top/.memory/10-Memories/MEM-*.md(N:t:r))
    compadd -a ids
    ;;
  *) _files ;;
  esac
}}

_git-vault "$@"
)sh",
      fmt::arg("commands", commands), fmt::arg("options", options),
      fmt::arg("takes_value", takes_value_function(visits)), fmt::arg("ids", id_patterns(visits)));
}

}  // namespace gv::setup
