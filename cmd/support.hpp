#pragma once

#include <nlohmann/json_fwd.hpp>
#include <string>
#include <string_view>

#include "core/dates.hpp"
#include "core/git/repo.hpp"
#include "core/vault/parse_cache_file.hpp"

namespace gv::cmd {

struct Globals;

// The repository around the current directory. Throws gv::Error when there is none.
[[nodiscard]] git::Repo open_repo();

// Today and now for this run (flags, then GIT_VAULT_TODAY / GIT_VAULT_NOW, then the clock).
[[nodiscard]] Clock clock_of(const Globals& globals);

// Prints one JSON document and a newline on stdout (the `--json` contract).
void print_json(const nlohmann::ordered_json& document);
void print_json(const nlohmann::json& document);

// Diagnostics on stderr, prefixed like every git-vault message.
void warn(std::string_view message);
void note(std::string_view message);  // -v explanations

// The repository's persisted parse cache (the one the pre-commit gate keeps), loaded on
// construction and saved on destruction when it changed. A report or an action on a large vault
// then parses only the memory files that changed since the last run.
class RepoParseCache {
 public:
  explicit RepoParseCache(const git::Repo& repo);
  ~RepoParseCache();
  RepoParseCache(const RepoParseCache&) = delete;
  RepoParseCache& operator=(const RepoParseCache&) = delete;

  [[nodiscard]] ParseCache* get() { return &m_cache; }
  [[nodiscard]] PersistentParseCache* file() { return &m_cache; }

 private:
  std::filesystem::path m_file;
  PersistentParseCache m_cache;
};

// Whether stdin and stdout are both terminals, i.e. a person can answer a prompt.
[[nodiscard]] bool interactive();

}  // namespace gv::cmd
