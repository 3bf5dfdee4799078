#include <fcntl.h>
#include <fmt/format.h>
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <filesystem>
#include <memory>
#include <nlohmann/json.hpp>

#include "cmd/command.hpp"
#include "core/ci/github_workflow.hpp"
#include "core/error.hpp"
#include "core/git/repo.hpp"
#include "core/hooks/installer.hpp"
#include "core/session/session.hpp"
#include "core/setup/scaffold.hpp"
#include "core/util/json_output.hpp"
#include "core/util/message.hpp"

namespace gv::cmd {
namespace {

struct Options {
  bool recall = false;
  bool no_hooks = false;
  bool allow_global_hooks_path = false;
  std::string ci;  // `github`: also write the CI workflow
  ci::GithubWorkflowOptions workflow;
};

// Creates `path` with `bytes` only if nothing is there: O_EXCL makes "never rewrite an
// existing file" hold even against a file created a moment ago.
bool create_new(const std::filesystem::path& path, const std::string& bytes) {
  std::filesystem::create_directories(path.parent_path());
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
  if (fd < 0) {
    if (errno == EEXIST) {
      return false;
    }
    throw Error("{}: cannot create: {}", path.string(), std::strerror(errno));
  }
  std::size_t done = 0;
  while (done < bytes.size()) {
    const ssize_t n = ::write(fd, bytes.data() + done, bytes.size() - done);
    if (n < 0) {
      ::close(fd);
      std::filesystem::remove(path);
      throw Error("{}: cannot write: {}", path.string(), std::strerror(errno));
    }
    done += static_cast<std::size_t>(n);
  }
  ::close(fd);
  return true;
}

int run(const Options& options, Session& session) {
  git::Repo& repo = session.repo();
  const OutputSettings& output = session.output();
  std::vector<ScaffoldFile> files = vault_scaffold();
  if (options.recall) {
    for (ScaffoldFile& file : recall_scaffold()) {
      files.push_back(std::move(file));
    }
  }
  if (options.ci == "github") {
    files.push_back(
        {std::string(ci::k_github_workflow_path), ci::github_workflow(options.workflow)});
  }
  std::vector<std::string> created;
  for (const ScaffoldFile& file : files) {
    if (create_new(repo.workdir() / file.path, file.bytes)) {
      created.push_back(file.path);
    }
  }
  // Hooks and merge drivers last: the vault files exist by then, whatever the hooks decide.
  nlohmann::ordered_json hooks_json = nullptr;
  if (!options.no_hooks) {
    hooks::InstallOptions install_options;
    install_options.allow_global_hooks_path = options.allow_global_hooks_path;
    const hooks::InstallReport report = hooks::install_hooks(repo, install_options);
    if (!report.refusal.empty()) {
      util::print_warning(fmt::format("hooks not installed: {}", report.refusal));
    }
    hooks_json = {{"installed", report.ok()}, {"hooks_dir", report.location.dir.string()}};
    if (output.verbose) {
      for (const std::string& line : report.notes) {
        util::print_note(line);
      }
    }
  }
  if (output.json) {
    util::print_json(
        nlohmann::ordered_json{{"schema", 1}, {"created", created}, {"hooks", hooks_json}});
  } else if (output.verbose) {
    for (const std::string& path : created) {
      util::print_note(fmt::format("created {}", path));
    }
    if (created.empty()) {
      util::print_note("the vault is already set up; nothing to do");
    }
  }
  return exit_code::k_ok;
}

}  // namespace

Runner define_init(CLI::App& app) {
  auto options = std::make_shared<Options>();
  app.add_flag("--recall", options->recall,
               "Also scaffold the tiered working memory (CLAUDE.local.md, memory/)");
  app.add_flag("--no-hooks", options->no_hooks,
               "Do not install the git hooks and merge drivers (see `git vault hooks`)");
  app.add_flag("--allow-global-hooks-path", options->allow_global_hooks_path,
               "Install into a core.hooksPath set in global config (it serves every repository)");
  app.add_option("--ci", options->ci,
                 "Also write a CI workflow running the gate and the review (github: "
                 ".github/workflows/git-vault.yml)")
      ->check(CLI::IsMember(std::vector<std::string>{"github"}));
  app.add_option("--ci-source", options->workflow.source,
                 "URL of the git-vault sources the workflow builds (default: the repository "
                 "variable GIT_VAULT_SOURCE)");
  app.add_option("--ci-ref", options->workflow.ref,
                 "Tag or commit of git-vault the workflow builds")
      ->capture_default_str();
  return [options](const Globals& globals) { return run(*options, *globals.session); };
}

}  // namespace gv::cmd
