#include <fcntl.h>
#include <unistd.h>

#include <filesystem>
#include <memory>

#include <CLI/CLI.hpp>
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "cmd/command.hpp"
#include "cmd/support.hpp"
#include "core/error.hpp"
#include "core/vault/scaffold.hpp"

namespace gv::cmd {
namespace {

struct Options {
  bool recall = false;
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

int run(const Options& options, const Globals& globals) {
  git::Repo repo = open_repo();
  if (repo.is_bare()) {
    throw Error("git vault init needs a work tree; this repository is bare");
  }
  std::vector<ScaffoldFile> files = vault_scaffold();
  if (options.recall) {
    for (ScaffoldFile& file : recall_scaffold()) {
      files.push_back(std::move(file));
    }
  }
  std::vector<std::string> created;
  for (const ScaffoldFile& file : files) {
    if (create_new(repo.workdir() / file.path, file.bytes)) {
      created.push_back(file.path);
    }
  }
  if (globals.json) {
    print_json(nlohmann::ordered_json{{"schema", 1}, {"created", created}});
  } else if (globals.verbose) {
    for (const std::string& path : created) {
      note(fmt::format("created {}", path));
    }
    if (created.empty()) {
      note("the vault is already set up; nothing to do");
    }
  }
  return exit_code::k_ok;
}

}  // namespace

Runner define_init(CLI::App& app) {
  auto options = std::make_shared<Options>();
  app.add_flag("--recall", options->recall,
               "Also scaffold the tiered working memory (CLAUDE.local.md, memory/)");
  return [options](const Globals& globals) { return run(*options, globals); };
}

}  // namespace gv::cmd
