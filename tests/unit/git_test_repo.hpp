#pragma once

// A real repository in a temporary folder for the git layer's unit tests, built with libgit2
// directly so the tests do not depend on the code they check.

#include <catch2/catch.hpp>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/git/handle.hpp"
#include "core/git/library.hpp"

namespace gv::test {

// Sets (or unsets, with nullopt) an environment variable for one scope.
class EnvGuard {
 public:
  EnvGuard(std::string name, std::optional<std::string> value) : m_name(std::move(name)) {
    if (const char* old = std::getenv(m_name.c_str())) {
      m_old = old;
    }
    set(value);
  }
  ~EnvGuard() { set(m_old); }
  EnvGuard(const EnvGuard&) = delete;
  EnvGuard& operator=(const EnvGuard&) = delete;

 private:
  void set(const std::optional<std::string>& value) const {
    if (value) {
      ::setenv(m_name.c_str(), value->c_str(), 1);
    } else {
      ::unsetenv(m_name.c_str());
    }
  }
  std::string m_name;
  std::optional<std::string> m_old;
};

class TestRepo {
 public:
  TestRepo() {
    static git::Library library;  // libgit2 stays initialised for the whole test run
    std::string pattern = (std::filesystem::temp_directory_path() / "gv-git-XXXXXX").string();
    REQUIRE(::mkdtemp(pattern.data()) != nullptr);
    m_root = std::filesystem::canonical(pattern);
    git_repository* raw = nullptr;
    git_repository_init_options options = GIT_REPOSITORY_INIT_OPTIONS_INIT;
    options.initial_head = "main";
    REQUIRE(git_repository_init_ext(&raw, m_root.c_str(), &options) == 0);
    m_repo.reset(raw);
    git_config* raw_config = nullptr;
    REQUIRE(git_repository_config(&raw_config, m_repo.get()) == 0);
    const git::ConfigPtr config{raw_config};
    git_config* raw_local = nullptr;
    REQUIRE(git_config_open_level(&raw_local, config.get(), GIT_CONFIG_LEVEL_LOCAL) == 0);
    const git::ConfigPtr local{raw_local};
    REQUIRE(git_config_set_string(local.get(), "user.name", "Config User") == 0);
    REQUIRE(git_config_set_string(local.get(), "user.email", "config@example.com") == 0);
  }
  ~TestRepo() {
    m_repo.reset();
    std::error_code ignored;
    std::filesystem::remove_all(m_root, ignored);
  }
  TestRepo(const TestRepo&) = delete;
  TestRepo& operator=(const TestRepo&) = delete;

  [[nodiscard]] const std::filesystem::path& root() const { return m_root; }
  [[nodiscard]] git_repository* raw() const { return m_repo.get(); }

  void write(std::string_view path, std::string_view bytes) const {
    const auto full = m_root / path;
    std::filesystem::create_directories(full.parent_path());
    std::ofstream out(full, std::ios::binary | std::ios::trunc);
    out << bytes;
  }
  [[nodiscard]] std::string read(std::string_view path) const {
    std::ifstream in(m_root / path, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
  }
  [[nodiscard]] bool exists(std::string_view path) const {
    return std::filesystem::exists(std::filesystem::symlink_status(m_root / path));
  }

  // `git add <path>` (or `git rm --cached` when the file is gone) in the repository's index.
  void stage(std::string_view path) const {
    git_index* raw_index = nullptr;
    REQUIRE(git_repository_index(&raw_index, m_repo.get()) == 0);
    const git::IndexPtr index{raw_index};
    REQUIRE(git_index_read(index.get(), 1) == 0);
    const std::string p(path);
    if (exists(path)) {
      REQUIRE(git_index_add_bypath(index.get(), p.c_str()) == 0);
    } else {
      REQUIRE(git_index_remove_bypath(index.get(), p.c_str()) == 0);
    }
    REQUIRE(git_index_write(index.get()) == 0);
  }

  // `git add -A && git commit -m message`; returns the new commit id.
  std::string commit_all(std::string_view message) const {
    git_index* raw_index = nullptr;
    REQUIRE(git_repository_index(&raw_index, m_repo.get()) == 0);
    const git::IndexPtr index{raw_index};
    REQUIRE(git_index_read(index.get(), 1) == 0);
    REQUIRE(git_index_add_all(index.get(), nullptr, 0, nullptr, nullptr) == 0);
    REQUIRE(git_index_update_all(index.get(), nullptr, nullptr, nullptr) == 0);
    REQUIRE(git_index_write(index.get()) == 0);
    return commit_index(message);
  }

  // `git commit -m message` of what is staged.
  std::string commit_index(std::string_view message) const {
    git_index* raw_index = nullptr;
    REQUIRE(git_repository_index(&raw_index, m_repo.get()) == 0);
    const git::IndexPtr index{raw_index};
    REQUIRE(git_index_read(index.get(), 1) == 0);
    git_oid tree_id{};
    REQUIRE(git_index_write_tree(&tree_id, index.get()) == 0);
    git_tree* raw_tree = nullptr;
    REQUIRE(git_tree_lookup(&raw_tree, m_repo.get(), &tree_id) == 0);
    const git::TreePtr tree{raw_tree};
    git_signature* raw_sig = nullptr;
    REQUIRE(git_signature_new(&raw_sig, "Fixture", "fixture@example.com", 1'700'000'000 + m_tick++,
                              0) == 0);
    const git::SignaturePtr sig{raw_sig};
    git::CommitPtr parent;
    git_oid head{};
    if (git_reference_name_to_id(&head, m_repo.get(), "HEAD") == 0) {
      git_commit* raw_parent = nullptr;
      REQUIRE(git_commit_lookup(&raw_parent, m_repo.get(), &head) == 0);
      parent.reset(raw_parent);
    }
    const git_commit* parents[] = {parent.get()};
    const std::string text(message);
    git_oid id{};
    REQUIRE(git_commit_create(&id, m_repo.get(), "HEAD", sig.get(), sig.get(), nullptr,
                              text.c_str(), tree.get(), parent ? 1 : 0, parents) == 0);
    return git::to_hex(id);
  }

  [[nodiscard]] std::optional<std::string> head() const {
    git_oid id{};
    if (git_reference_name_to_id(&id, m_repo.get(), "HEAD") != 0) {
      return std::nullopt;
    }
    return git::to_hex(id);
  }

  // The blob id staged for `path` as the index file on disk has it, or "" when absent.
  [[nodiscard]] std::string staged(std::string_view path) const {
    git_index* raw_index = nullptr;
    REQUIRE(git_index_open(&raw_index, (m_root / ".git" / "index").c_str()) == 0);
    const git::IndexPtr index{raw_index};
    const std::string p(path);
    const git_index_entry* entry = git_index_get_bypath(index.get(), p.c_str(), 0);
    return entry == nullptr ? std::string{} : git::to_hex(entry->id);
  }

  // Every path in HEAD's tree, sorted, with its blob id.
  [[nodiscard]] std::vector<std::pair<std::string, std::string>> head_files() const {
    std::vector<std::pair<std::string, std::string>> out;
    git_oid id{};
    if (git_reference_name_to_id(&id, m_repo.get(), "HEAD") != 0) {
      return out;
    }
    git_commit* raw_commit = nullptr;
    REQUIRE(git_commit_lookup(&raw_commit, m_repo.get(), &id) == 0);
    const git::CommitPtr commit{raw_commit};
    git_tree* raw_tree = nullptr;
    REQUIRE(git_commit_tree(&raw_tree, commit.get()) == 0);
    const git::TreePtr tree{raw_tree};
    git_index* raw_index = nullptr;
    REQUIRE(git_index_new(&raw_index) == 0);
    const git::IndexPtr index{raw_index};
    REQUIRE(git_index_read_tree(index.get(), tree.get()) == 0);
    for (std::size_t i = 0; i < git_index_entrycount(index.get()); ++i) {
      const git_index_entry* entry = git_index_get_byindex(index.get(), i);
      out.emplace_back(entry->path, git::to_hex(entry->id));
    }
    return out;
  }

 private:
  std::filesystem::path m_root;
  git::RepositoryPtr m_repo;
  mutable int m_tick = 0;
};

}  // namespace gv::test
