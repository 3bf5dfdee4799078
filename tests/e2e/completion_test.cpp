// Shell completion (`git vault completion bash|zsh`, installed by install.sh and the package):
// it offers every command and flag the help shows, and completes as bash would run it.
#include <algorithm>
#include <catch2/catch.hpp>
#include <map>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "tests/e2e/sandbox.hpp"
#include "tests/e2e/vault_fixture.hpp"

namespace completion_test {

using gv::test::Result;
using gv::test::Sandbox;

namespace {

// The names in the "Subcommands:" section of a help text, and the flags of its "Options:".
struct Help {
  std::vector<std::string> subcommands;
  std::set<std::string> flags;
};

Help help_of(const Sandbox& sandbox, std::vector<std::string> path) {
  path.push_back("-h");
  const Result result = sandbox.vault(path);
  INFO(result.err);
  REQUIRE(result.code == 0);
  Help help;
  std::istringstream lines(result.out);
  std::string section;
  const std::regex flag(R"((^|[ ,])(--?[A-Za-z][A-Za-z0-9-]*))");
  for (std::string line; std::getline(lines, line);) {
    if (!line.empty() && line.back() == ':' && line.front() != ' ') {
      section = line;
      continue;
    }
    if (section == "Subcommands:" && line.starts_with("  ") && line[2] != ' ') {
      help.subcommands.push_back(line.substr(2, line.find(' ', 2) - 2));
    } else if (section == "Options:" && line.starts_with("  ") && line[2] == '-') {
      // The names come before the option's type and description: `  -v,--verbose   Explain`.
      const std::string names = line.substr(2, line.find("  ", 2) - 2);
      for (auto it = std::sregex_iterator(names.begin(), names.end(), flag);
           it != std::sregex_iterator(); ++it) {
        help.flags.insert((*it)[2]);
      }
    }
  }
  return help;
}

// The words each `case` arm of a bash lookup function echoes, by command path.
std::map<std::string, std::set<std::string>> arms(const std::string& script,
                                                  const std::string& function) {
  std::map<std::string, std::set<std::string>> out;
  const std::size_t start = script.find(function + "() {");
  REQUIRE(start != std::string::npos);
  std::istringstream lines(script.substr(start, script.find("\n}\n", start) - start));
  const std::regex arm(R"(^  '([^']*)'\) echo '([^']*)' ;;$)");
  std::smatch match;
  for (std::string line; std::getline(lines, line);) {
    if (std::regex_match(line, match, arm)) {
      std::istringstream words(match[2].str());
      for (std::string word; words >> word;) {
        out[match[1].str()].insert(word);
      }
    }
  }
  return out;
}

// What bash completes for the words of `line` (the last one being completed).
std::vector<std::string> complete(const Sandbox& sandbox, const std::string& line) {
  const std::string script =
      "source .completion.bash\n"
      "read -ra COMP_WORDS <<<\"$LINE\"\n"
      "[[ $LINE == *' ' ]] && COMP_WORDS+=('')\n"
      "COMP_CWORD=$((${#COMP_WORDS[@]} - 1))\n"
      "_git_vault\n"
      "printf '%s\\n' \"${COMPREPLY[@]}\"\n";
  sandbox.write(".complete.sh", script);
  const Result result = sandbox.sh("LINE='" + line + "' bash .complete.sh");
  INFO(result.err);
  REQUIRE(result.code == 0);
  std::vector<std::string> words;
  std::istringstream lines(result.out);
  for (std::string word; std::getline(lines, word);) {
    if (!word.empty()) {
      words.push_back(word);
    }
  }
  return words;
}

// What zsh completes for the words of `line`, with zsh's completion widgets replaced by functions
// that print what they were given and, as the widgets do, keep only what starts with the word
// being completed: `_describe` the names of its array, `compadd -a` its array, `_files`
// "(files)". For `git vault …` the words start at "vault", as zsh's git completion hands them to
// _git-vault.
std::vector<std::string> complete_zsh(const Sandbox& sandbox, const std::string& line) {
  const std::string script =
      "__matching() {\n"
      "  local c\n"
      "  for c; do [[ $c == ${words[CURRENT]}* ]] && print -r -- $c; done\n"
      "  return 0\n"
      "}\n"
      "_describe() { local name=${@[-1]}; __matching ${(P)name%%:*}; }\n"
      "compadd() { [[ $1 == -a ]] && __matching ${(P)2}; }\n"
      "_files() { print -r -- '(files)'; }\n"
      "words=(${(z)LINE})\n"
      "[[ $LINE == *' ' ]] && words+=('')\n"
      "[[ $words[1] == git ]] && shift words\n"
      "CURRENT=${#words}\n"
      "source ./_git-vault\n";
  sandbox.write(".complete.zsh", script);
  const Result result = sandbox.sh("LINE='" + line + "' zsh -f .complete.zsh");
  INFO(result.err);
  REQUIRE(result.code == 0);
  std::vector<std::string> words;
  std::istringstream lines(result.out);
  for (std::string word; std::getline(lines, word);) {
    if (!word.empty()) {
      words.push_back(word);
    }
  }
  return words;
}

}  // namespace

TEST_CASE("the completion offers every command and flag the help shows", "[completion]") {
  Sandbox sandbox;
  const Result bash = sandbox.vault({"completion", "bash"});
  const Result zsh = sandbox.vault({"completion", "zsh"});
  REQUIRE(bash.code == 0);
  REQUIRE(zsh.code == 0);
  const auto commands = arms(bash.out, "__git_vault_commands");
  const auto options = arms(bash.out, "__git_vault_options");

  // Breadth first over `git vault -h`, `git vault <command> -h`, `git vault <command> <sub> -h`.
  std::vector<std::vector<std::string>> queue{{}};
  std::size_t checked = 0;
  while (!queue.empty()) {
    const std::vector<std::string> path = queue.back();
    queue.pop_back();
    std::string key;
    for (const std::string& word : path) {
      key += (key.empty() ? "" : " ") + word;
    }
    const Help help = help_of(sandbox, path);
    for (const std::string& sub : help.subcommands) {
      INFO("git vault " << key << " -h lists " << sub);
      CHECK(commands.contains(key));
      CHECK((commands.contains(key) && commands.at(key).contains(sub)));
      CHECK_THAT(zsh.out, Catch::Contains("'" + sub + ":"));
      std::vector<std::string> next = path;
      next.push_back(sub);
      queue.push_back(next);
    }
    for (const std::string& flag : help.flags) {
      INFO("git vault " << key << " -h shows " << flag);
      CHECK((options.contains(key) && options.at(key).contains(flag)));
      CHECK_THAT(zsh.out, Catch::Contains("'" + flag + ":"));
      ++checked;
    }
  }
  CHECK(checked > 100);  // the walk reached every command's options
}

TEST_CASE("bash completes commands, flags and memory ids for git vault", "[completion]") {
  Sandbox sandbox;
  REQUIRE(sandbox.vault({"init"}).code == 0);
  gv::test::write_scored_vault(sandbox);
  sandbox.write(".completion.bash", sandbox.vault({"completion", "bash"}).out);

  CHECK(complete(sandbox, "git vault rec") == std::vector<std::string>{"recall"});
  CHECK(complete(sandbox, "git-vault rec") == std::vector<std::string>{"recall"});
  CHECK(complete(sandbox, "git -C . vault recall mai") == std::vector<std::string>{"maintain"});
  // A global option's value is not taken for a command.
  CHECK(complete(sandbox, "git vault --today 2026-12-01 dis") ==
        std::vector<std::string>{"distill"});
  const std::vector<std::string> flags = complete(sandbox, "git vault show --");
  CHECK(std::find(flags.begin(), flags.end(), "--record") != flags.end());
  CHECK(std::find(flags.begin(), flags.end(), "--json") != flags.end());  // a global one

  // Every command of the table and its subcommands, none listed by hand; the entry points of
  // git's and the agents' hooks, which the help leaves out, are not offered.
  CHECK(complete(sandbox, "git vault li") == std::vector<std::string>{"list"});
  CHECK(complete(sandbox, "git vault st") == std::vector<std::string>{"status"});
  CHECK(complete(sandbox, "git vault events a") == std::vector<std::string>{"add"});
  std::vector<std::string> di = complete(sandbox, "git vault di");
  std::sort(di.begin(), di.end());
  CHECK(di == std::vector<std::string>{"diff", "distill"});
  CHECK(complete(sandbox, "git vault ho") == std::vector<std::string>{"hooks"});
  CHECK(complete(sandbox, "git vault ag").empty());

  const std::vector<std::string> ids = complete(sandbox, "git vault show MEM-");
  REQUIRE_FALSE(ids.empty());
  for (const std::string& id : ids) {
    CHECK(sandbox.exists(".memory/10-Memories/" + id + ".md"));
  }
}

TEST_CASE("zsh completes commands, flags and memory ids for git vault", "[completion]") {
  Sandbox sandbox;
  REQUIRE(sandbox.vault({"init"}).code == 0);
  gv::test::write_scored_vault(sandbox);
  const Result zsh = sandbox.vault({"completion", "zsh"});
  REQUIRE(zsh.code == 0);
  CHECK_THAT(zsh.out, Catch::StartsWith("#compdef git-vault\n"));
  sandbox.write("_git-vault", zsh.out);
  if (sandbox.sh("command -v zsh").code != 0) {
    WARN("zsh is not installed: the zsh completion is not run");
    return;
  }
  REQUIRE(sandbox.sh("zsh -n _git-vault").code == 0);

  CHECK(complete_zsh(sandbox, "git-vault rec") == std::vector<std::string>{"recall"});
  CHECK(complete_zsh(sandbox, "git vault recall mai") == std::vector<std::string>{"maintain"});
  CHECK(complete_zsh(sandbox, "git vault --today 2026-12-01 dis") ==
        std::vector<std::string>{"distill"});
  const std::vector<std::string> flags = complete_zsh(sandbox, "git vault show --");
  CHECK(std::find(flags.begin(), flags.end(), "--record") != flags.end());
  CHECK(std::find(flags.begin(), flags.end(), "--json") != flags.end());  // a global one
  CHECK(complete_zsh(sandbox, "git vault --today ") == std::vector<std::string>{"(files)"});

  // The ids come from the repository, through git: the function keeps PATH as it found it.
  const std::vector<std::string> ids = complete_zsh(sandbox, "git vault show MEM-");
  REQUIRE_FALSE(ids.empty());
  for (const std::string& id : ids) {
    CHECK(sandbox.exists(".memory/10-Memories/" + id + ".md"));
  }
}

TEST_CASE("completion takes only bash or zsh", "[completion]") {
  Sandbox sandbox;
  CHECK(sandbox.vault({"completion", "fish"}).code == 129);
}

}  // namespace completion_test
