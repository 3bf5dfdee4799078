#include "cmd/support.hpp"

#include <fmt/format.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <nlohmann/json.hpp>

#include "cmd/command.hpp"
#include "core/gate/cached_gate.hpp"

namespace gv::cmd {

git::Repo open_repo() { return git::Repo::discover(std::filesystem::current_path()); }

Clock clock_of(const Globals& globals) { return resolve_clock(globals.today, globals.now); }

void print_json(const nlohmann::ordered_json& document) {
  std::fputs(
      (document.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n").c_str(),
      stdout);
}

void print_json(const nlohmann::json& document) {
  std::fputs(
      (document.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n").c_str(),
      stdout);
}

void warn(std::string_view message) {
  std::fputs(fmt::format("git-vault: warning: {}\n", message).c_str(), stderr);
}

void note(std::string_view message) {
  std::fputs(fmt::format("git-vault: {}\n", message).c_str(), stderr);
}

RepoParseCache::RepoParseCache(const git::Repo& repo)
    : m_file(gate_cache_file(repo)), m_cache(load_gate_cache(m_file, GateOptions{})) {}

RepoParseCache::~RepoParseCache() {
  // A cache that cannot be written only costs speed next time; it never fails the command.
  if (m_cache.dirty()) {
    (void)m_cache.save(m_file);
  }
}

bool interactive() { return isatty(STDIN_FILENO) != 0 && isatty(STDOUT_FILENO) != 0; }

}  // namespace gv::cmd
