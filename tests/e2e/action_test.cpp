// The GitHub Action (action.yml): its YAML, and its steps run the way a runner runs a composite
// action's steps: in order, each `run:` under `bash --noprofile --norc -eo pipefail`, with its
// `env:` expressions filled in, GITHUB_OUTPUT / GITHUB_PATH / GITHUB_STEP_SUMMARY pointing at
// files, the folders a step added to GITHUB_PATH on PATH for the later steps, and a step after a
// failure run only when its `if:` asks for it.
#include <fmt/format.h>
#include <yaml-cpp/yaml.h>

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "tests/e2e/sandbox.hpp"
#include "tests/e2e/vault_fixture.hpp"

namespace action_test {

using gv::test::Result;
using gv::test::Sandbox;

namespace {

namespace fs = std::filesystem;

// What the runner knows of the event and the machine.
struct Event {
  std::string action_path;
  std::string tool_cache;
  std::string base_sha;
  std::string head_sha;
  std::map<std::string, std::string> inputs;
};

struct StepRun {
  std::string name;
  bool ran = false;
  Result result;
};

std::string shell_quoted(const std::string& text) {
  std::string out = "'";
  for (const char c : text) {
    out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  }
  return out + "'";
}

std::string trim(std::string text) {
  text.erase(0, text.find_first_not_of(" \n"));
  text.erase(text.find_last_not_of(" \n") + 1);
  return text;
}

class Runner {
 public:
  Runner(const Sandbox& sandbox, Event event) : m_sandbox(sandbox), m_event(std::move(event)) {
    const YAML::Node action = YAML::LoadFile(std::string(GIT_VAULT_SOURCE_DIR) + "/action.yml");
    for (const auto& input : action["inputs"]) {
      const std::string name = input.first.as<std::string>();
      if (!m_event.inputs.contains(name)) {
        m_event.inputs[name] = input.second["default"].as<std::string>();
      }
    }
    m_steps = action["runs"]["steps"];
  }

  // Runs the first `count` steps (all by default).
  std::vector<StepRun> run(std::size_t count = 100) {
    std::vector<StepRun> runs;
    bool failed = false;
    int n = 0;
    for (const YAML::Node& step : m_steps) {
      if (runs.size() == count) {
        break;
      }
      StepRun run;
      run.name = step["name"].as<std::string>();
      const std::string condition = step["if"] ? step["if"].as<std::string>() : "success()";
      const bool status_function = condition.find("cancelled()") != std::string::npos ||
                                   condition.find("always()") != std::string::npos;
      if ((failed && !status_function) || !holds(condition) || !step["run"]) {
        runs.push_back(run);  // a `uses:` step (actions/cache) restores nothing here
        continue;
      }
      const std::string run_text = step["run"].as<std::string>();
      INFO(run.name);
      CHECK(run_text.find("${{") == std::string::npos);  // kept in env:, never in run:
      CHECK(step["shell"].as<std::string>() == "bash");
      const std::string dir = fmt::format(".runner/{}", n++);
      m_sandbox.write(dir + "/script.sh", run_text);
      m_sandbox.write(dir + "/output", "");
      m_sandbox.write(".runner/path", "");  // a runner gives each step an empty GITHUB_PATH
      std::string line = "env";
      for (const auto& [name, value] : files(dir)) {
        line += " " + name + "=" + shell_quoted(value);
      }
      for (const auto& pair : step["env"]) {
        line += " " + pair.first.as<std::string>() + "=" +
                shell_quoted(expand(pair.second.as<std::string>()));
      }
      line += " PATH=" + shell_quoted(m_path) + "\"$PATH\"";
      line += " bash --noprofile --norc -eo pipefail " +
              shell_quoted(m_sandbox.path(dir + "/script.sh").string());
      run.ran = true;
      run.result = m_sandbox.sh(line);
      failed = failed || run.result.code != 0;
      if (step["id"]) {
        read_outputs(step["id"].as<std::string>(), dir + "/output");
      }
      for (std::istringstream paths(m_sandbox.read(".runner/path")); std::getline(paths, line);) {
        if (!line.empty() && m_path.find(line + ":") == std::string::npos) {
          m_path = line + ":" + m_path;
        }
      }
      runs.push_back(run);
    }
    return runs;
  }

 private:
  std::map<std::string, std::string> files(const std::string& dir) const {
    return {{"GITHUB_OUTPUT", m_sandbox.path(dir + "/output").string()},
            {"GITHUB_PATH", m_sandbox.path(".runner/path").string()},
            {"GITHUB_STEP_SUMMARY", m_sandbox.path(".runner/summary.md").string()},
            {"RUNNER_OS", "Linux"},
            {"RUNNER_ARCH", "X64"},
            {"ImageOS", "ubuntu24"}};
  }

  void read_outputs(const std::string& id, const std::string& file) {
    std::istringstream lines(m_sandbox.read(file));
    for (std::string line; std::getline(lines, line);) {
      const std::size_t equals = line.find('=');
      REQUIRE(equals != std::string::npos);
      m_outputs["steps." + id + ".outputs." + line.substr(0, equals)] = line.substr(equals + 1);
    }
  }

  // The value of one expression; the action may use only those a runner gives it.
  std::string value_of(const std::string& expression) {
    const std::string name = trim(expression);
    if (name == "github.action_path") {
      return m_event.action_path;
    }
    if (name == "runner.tool_cache") {
      return m_event.tool_cache;
    }
    if (name == "github.event.pull_request.base.sha") {
      return m_event.base_sha;
    }
    if (name == "github.event.pull_request.head.sha") {
      return m_event.head_sha;
    }
    if (name.starts_with("inputs.")) {
      REQUIRE(m_event.inputs.contains(name.substr(7)));
      return m_event.inputs.at(name.substr(7));
    }
    if (name.starts_with("steps.")) {
      return m_outputs.contains(name) ? m_outputs.at(name) : "";
    }
    FAIL("the action uses an expression the test runner does not know: " << name);
    return "";
  }

  std::string expand(std::string text) {
    for (std::size_t at = text.find("${{"); at != std::string::npos; at = text.find("${{", at)) {
      const std::size_t end = text.find("}}", at);
      REQUIRE(end != std::string::npos);
      const std::string value = value_of(text.substr(at + 3, end - at - 3));
      text.replace(at, end + 2 - at, value);
      at += value.size();
    }
    return text;
  }

  // `if:` conditions of the forms the action uses: terms joined by &&, each a status function
  // or `<expression> == '<text>'` / `!=`.
  bool holds(std::string condition) {
    condition = trim(condition);
    if (condition.starts_with("${{")) {
      condition = trim(condition.substr(3, condition.rfind("}}") - 3));
    }
    std::size_t start = 0;
    while (start <= condition.size()) {
      const std::size_t end = std::min(condition.find("&&", start), condition.size());
      const std::string term = trim(condition.substr(start, end - start));
      start = end + 2;
      if (term == "!cancelled()" || term == "always()" || term == "success()") {
        continue;
      }
      const bool equal = term.find("==") != std::string::npos;
      const std::size_t op = term.find(equal ? "==" : "!=");
      REQUIRE(op != std::string::npos);
      std::string literal = trim(term.substr(op + 2));
      REQUIRE(literal.size() >= 2);
      literal = literal.substr(1, literal.size() - 2);
      if ((value_of(term.substr(0, op)) == literal) != equal) {
        return false;
      }
    }
    return true;
  }

  const Sandbox& m_sandbox;
  Event m_event;
  YAML::Node m_steps;
  std::map<std::string, std::string> m_outputs;
  std::string m_path;
};

std::string rev(const Sandbox& sandbox, const std::string& name) {
  return trim(sandbox.git({"rev-parse", name}).out);
}

// An action checkout whose install.sh, instead of building, puts the git-vault under test where
// it was asked to and counts its runs; the locate step finds the files it digests.
void fake_action(const Sandbox& sandbox) {
  sandbox.write("action/CMakeLists.txt", "project(git-vault VERSION 9.8.7 LANGUAGES CXX)\n");
  for (const char* folder : {"cmake", "cmd", "core", "hooks"}) {
    sandbox.write(fmt::format("action/{}/x", folder), folder);
  }
  sandbox.write("action/doc/git-vault.1", ".TH GIT-VAULT 1\n");
  sandbox.write("action/install.sh", fmt::format(R"(#!/bin/sh
set -e
echo "$PREFIX" >>"{}"
mkdir -p "$PREFIX/bin"
ln -s "{}" "$PREFIX/bin/git-vault"
)",
                                                 sandbox.path("installs").string(), GIT_VAULT_BIN));
  REQUIRE(sandbox.sh("chmod +x action/install.sh").code == 0);
}

void start_repository(Sandbox& sandbox) {
  REQUIRE(sandbox.vault({"init", "--recall"}).code == 0);
  sandbox.write(".git/info/exclude", ".home/\n.runner/\naction/\ncache/\ninstalls\n");
  REQUIRE(sandbox.git({"add", "-f", "CLAUDE.local.md"}).code == 0);
  gv::test::write_scored_vault(sandbox);
  REQUIRE(sandbox.git({"checkout", "-q", "-b", "feature"}).code == 0);
}

Event pull_request(const Sandbox& sandbox) {
  return {sandbox.path("action").string(),
          sandbox.path("cache").string(),
          rev(sandbox, "main"),
          rev(sandbox, "feature"),
          {}};
}

}  // namespace

TEST_CASE("the action's YAML is a composite action with the documented inputs", "[ci][action]") {
  const YAML::Node action = YAML::LoadFile(std::string(GIT_VAULT_SOURCE_DIR) + "/action.yml");
  CHECK(action["runs"]["using"].as<std::string>() == "composite");
  CHECK(action["inputs"]["range"]["default"].as<std::string>().empty());
  CHECK(action["inputs"]["review"]["default"].as<std::string>() == "true");
  const YAML::Node cache = action["runs"]["steps"][1];
  CHECK(cache["uses"].as<std::string>() == "actions/cache@v4");
  CHECK(cache["with"]["key"].as<std::string>() == "${{ steps.locate.outputs.key }}");
}

TEST_CASE("the action builds git-vault once per version, then gates and reviews", "[ci][action]") {
  Sandbox sandbox;
  start_repository(sandbox);
  fake_action(sandbox);
  sandbox.write(".memory/10-Memories/MEM-new.md",
                gv::test::memory_file("New", "2026-11-29", "fresh", 0, "null"));
  REQUIRE(sandbox.vault({"index"}).code == 0);
  sandbox.commit_all("add MEM-new");

  const std::vector<StepRun> first = Runner(sandbox, pull_request(sandbox)).run();
  REQUIRE(first.size() == 5);
  for (const StepRun& step : first) {
    INFO(step.name << ": " << step.result.out << step.result.err);
    CHECK((step.ran || step.name == "Restore git-vault from the cache"));
    CHECK((!step.ran || step.result.code == 0));
  }
  const std::string prefix = trim(sandbox.read("installs"));
  CHECK_THAT(prefix, Catch::StartsWith(sandbox.path("cache/git-vault/9.8.7-").string()));
  CHECK_THAT(first[2].result.out, Catch::Contains("git-vault version"));
  const std::string summary = sandbox.read(".runner/summary.md");
  CHECK_THAT(summary, Catch::StartsWith("## git-vault review `"));
  CHECK_THAT(summary, Catch::Contains("| `MEM-new` | New | PATTERN | tests/e2e | 15 |"));

  // The cache gives the same folder back: nothing is built the second time.
  const std::vector<StepRun> second = Runner(sandbox, pull_request(sandbox)).run();
  CHECK(second[2].result.code == 0);
  CHECK(sandbox.read("installs") == prefix + "\n");
}

TEST_CASE("the action annotates the findings of a pull request that breaks the vault",
          "[ci][action]") {
  Sandbox sandbox;
  start_repository(sandbox);
  fake_action(sandbox);
  sandbox.write("CLAUDE.local.md", sandbox.read("CLAUDE.local.md") + "- an entry with no id\n");
  sandbox.commit_all("untagged entry");

  const std::vector<StepRun> runs = Runner(sandbox, pull_request(sandbox)).run();
  const Result& gate = runs[3].result;
  INFO(gate.out << gate.err);
  CHECK(gate.code == 1);
  CHECK_THAT(gate.out, Catch::Contains("::error file=CLAUDE.local.md,line="));
  // The review still runs, and shows the finding at the tip (an entry without an id is no
  // entry added: the review lists working-memory entries by id).
  REQUIRE(runs[4].ran);
  CHECK(runs[4].result.code == 0);
  const std::string summary = sandbox.read(".runner/summary.md");
  CHECK_THAT(summary, Catch::Contains("gate fails (1 error)"));
  CHECK_THAT(summary, Catch::Contains("entry has no id: \"an entry with no id\""));
}

TEST_CASE("the action's gate judges what a pull request delivers, not each commit",
          "[ci][action]") {
  Sandbox sandbox;
  start_repository(sandbox);
  fake_action(sandbox);
  // A commit in the middle of the range breaks the gate and a later one repairs it: the branch
  // delivers a clean vault, so the gate passes and names the repaired finding as a notice
  // (doc/decisions.md, D22).
  const std::string working = sandbox.read("CLAUDE.local.md");
  sandbox.write("CLAUDE.local.md", working + "- an entry with no id\n");
  sandbox.commit_all("untagged entry");
  sandbox.write("CLAUDE.local.md", working + "- an entry with no id ^tr00000000ab\n");
  sandbox.commit_all("tag the entry");

  const std::vector<StepRun> repaired = Runner(sandbox, pull_request(sandbox)).run();
  const Result& passed = repaired[3].result;
  INFO(passed.out << passed.err);
  CHECK(passed.code == 0);
  CHECK_THAT(passed.out, Catch::Contains("::notice file=CLAUDE.local.md,line="));
  CHECK_THAT(passed.out, Catch::Contains("::entry has no id"));
  // The review shows the gate at the tip, which the repair made clean.
  REQUIRE(repaired[4].ran);
  CHECK(repaired[4].result.code == 0);
  CHECK_THAT(sandbox.read(".runner/summary.md"), Catch::Contains("No findings"));
  CHECK_THAT(sandbox.read(".runner/summary.md"), Catch::Contains("entries added (1)"));

  // A break the tip still has fails it.
  sandbox.write("CLAUDE.local.md", working + "- an entry with no id ^tr00000000ab\n- another\n");
  sandbox.commit_all("another untagged entry");
  const std::vector<StepRun> broken = Runner(sandbox, pull_request(sandbox)).run();
  INFO(broken[3].result.out << broken[3].result.err);
  CHECK(broken[3].result.code == 1);
  CHECK_THAT(broken[3].result.out, Catch::Contains("::error file=CLAUDE.local.md,line="));
}

TEST_CASE("the action says what to give it outside a pull request", "[ci][action]") {
  Sandbox sandbox;
  start_repository(sandbox);
  fake_action(sandbox);
  Event push = pull_request(sandbox);
  push.base_sha.clear();
  push.head_sha.clear();
  const std::vector<StepRun> runs = Runner(sandbox, push).run();
  CHECK(runs[3].result.code == 1);
  CHECK_THAT(runs[3].result.out, Catch::Contains("::error::git-vault: no range to check"));
  CHECK_FALSE(runs[4].ran);  // no range: nothing to review

  push.inputs["range"] = "main..feature";
  const std::vector<StepRun> given = Runner(sandbox, push).run();
  INFO(given[3].result.out << given[3].result.err);
  CHECK(given[3].result.code == 0);
  CHECK(given[4].ran);
}

TEST_CASE("the action's cache key follows the version and the sources", "[ci][action]") {
  Sandbox sandbox;
  Event event{GIT_VAULT_SOURCE_DIR, sandbox.path("cache").string(), "", "", {}};
  // The locate step only: the next would build git-vault from these sources.
  const std::vector<StepRun> runs = Runner(sandbox, event).run(1);
  INFO(runs[0].result.err);
  REQUIRE(runs[0].result.code == 0);
  const std::string outputs = sandbox.read(".runner/0/output");
  CHECK_THAT(outputs, Catch::Matches("prefix=.*/cache/git-vault/[0-9.]+-[0-9a-f]{16}\n"
                                     "key=git-vault-[0-9.]+-[0-9a-f]{16}-ubuntu24-X64\n"));
}

}  // namespace action_test
