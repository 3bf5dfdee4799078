#include <sys/stat.h>

#include <catch2/catch.hpp>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>

#include "core/hooks/hook_files.hpp"
#include "core/hooks/shim.hpp"

namespace hooks_files_test {

namespace fs = std::filesystem;
using gv::hooks::hook_state;
using gv::hooks::HookOutcome;
using gv::hooks::HookState;
using gv::hooks::install_shim;
using gv::hooks::uninstall_shim;

namespace {

struct TempDir {
  TempDir() {
    std::string pattern = (fs::temp_directory_path() / "gv-hooks-XXXXXX").string();
    REQUIRE(::mkdtemp(pattern.data()) != nullptr);
    path = pattern;
  }
  ~TempDir() {
    std::error_code ignored;
    fs::remove_all(path, ignored);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  fs::path path;
};

void write(const fs::path& path, const std::string& bytes, mode_t mode) {
  std::ofstream(path, std::ios::binary) << bytes;
  REQUIRE(::chmod(path.c_str(), mode) == 0);
}

std::string read(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

mode_t mode_of(const fs::path& path) {
  struct stat info {};
  REQUIRE(::stat(path.c_str(), &info) == 0);
  return info.st_mode & 07777;
}

}  // namespace

TEST_CASE("installing into a missing hooks directory creates it and an executable shim",
          "[hooks]") {
  TempDir temp;
  const fs::path dir = temp.path / "custom" / "hooks";
  const auto change = install_shim(dir, "pre-commit");
  CHECK(change.outcome == HookOutcome::installed);
  CHECK(read(dir / "pre-commit") == gv::hooks::render_shim("pre-commit", false));
  CHECK(mode_of(dir / "pre-commit") == 0755);
  CHECK(hook_state(dir, "pre-commit") == HookState::installed);
  CHECK(hook_state(dir, "post-merge") == HookState::not_installed);
}

TEST_CASE("installing twice writes nothing the second time", "[hooks]") {
  TempDir temp;
  REQUIRE(install_shim(temp.path, "post-merge").outcome == HookOutcome::installed);
  const auto before = fs::last_write_time(temp.path / "post-merge");
  const auto again = install_shim(temp.path, "post-merge");
  CHECK(again.outcome == HookOutcome::already_installed);
  CHECK(again.message == "post-merge: already installed");
  CHECK(fs::last_write_time(temp.path / "post-merge") == before);
}

TEST_CASE("an older shim of ours is rewritten", "[hooks]") {
  TempDir temp;
  write(temp.path / "pre-commit", "#!/bin/sh\n# git-vault hook shim v1\nexec old\n", 0755);
  CHECK(install_shim(temp.path, "pre-commit").outcome == HookOutcome::updated);
  CHECK(read(temp.path / "pre-commit") == gv::hooks::render_shim("pre-commit", false));
}

TEST_CASE("a foreign hook is moved aside, chained, and restored byte for byte with its mode",
          "[hooks]") {
  TempDir temp;
  const std::string foreign = "#!/bin/bash\r\necho mine\r\n";  // CRLF on purpose: kept as is
  write(temp.path / "pre-commit", foreign, 0750);

  const auto change = install_shim(temp.path, "pre-commit");
  CHECK(change.outcome == HookOutcome::chained);
  CHECK(read(temp.path / "pre-commit.pre-git-vault") == foreign);
  CHECK(mode_of(temp.path / "pre-commit.pre-git-vault") == 0750);
  CHECK(read(temp.path / "pre-commit") == gv::hooks::render_shim("pre-commit", true));
  CHECK(hook_state(temp.path, "pre-commit") == HookState::chained);
  CHECK(install_shim(temp.path, "pre-commit").outcome == HookOutcome::already_installed);

  const auto removed = uninstall_shim(temp.path, "pre-commit");
  CHECK(removed.outcome == HookOutcome::restored);
  CHECK(read(temp.path / "pre-commit") == foreign);
  CHECK(mode_of(temp.path / "pre-commit") == 0750);
  CHECK_FALSE(fs::exists(temp.path / "pre-commit.pre-git-vault"));
  CHECK(hook_state(temp.path, "pre-commit") == HookState::foreign);
}

TEST_CASE("a foreign hook with its backup name already taken is refused and left untouched",
          "[hooks]") {
  TempDir temp;
  write(temp.path / "pre-commit", "#!/bin/sh\necho new\n", 0755);
  write(temp.path / "pre-commit.pre-git-vault", "#!/bin/sh\necho old\n", 0755);
  const auto change = install_shim(temp.path, "pre-commit");
  CHECK(change.outcome == HookOutcome::refused);
  CHECK(read(temp.path / "pre-commit") == "#!/bin/sh\necho new\n");
  CHECK(read(temp.path / "pre-commit.pre-git-vault") == "#!/bin/sh\necho old\n");
}

TEST_CASE("a symlinked hook counts as foreign and comes back as the same symlink", "[hooks]") {
  TempDir temp;
  write(temp.path / "tracked-hook.sh", "#!/bin/sh\n# git-vault hook shim v1\n", 0755);
  fs::create_symlink("tracked-hook.sh", temp.path / "pre-commit");
  CHECK(hook_state(temp.path, "pre-commit") == HookState::foreign);
  CHECK(install_shim(temp.path, "pre-commit").outcome == HookOutcome::chained);
  CHECK(fs::is_symlink(temp.path / "pre-commit.pre-git-vault"));
  CHECK(uninstall_shim(temp.path, "pre-commit").outcome == HookOutcome::restored);
  REQUIRE(fs::is_symlink(temp.path / "pre-commit"));
  CHECK(fs::read_symlink(temp.path / "pre-commit") == "tracked-hook.sh");
}

TEST_CASE("uninstall never removes a foreign hook and reports a missing one", "[hooks]") {
  TempDir temp;
  CHECK(uninstall_shim(temp.path, "pre-commit").outcome == HookOutcome::absent);
  write(temp.path / "post-merge", "#!/bin/sh\necho theirs\n", 0755);
  CHECK(uninstall_shim(temp.path, "post-merge").outcome == HookOutcome::left_foreign);
  CHECK(read(temp.path / "post-merge") == "#!/bin/sh\necho theirs\n");
}

TEST_CASE("install then uninstall of a fresh directory leaves no file behind", "[hooks]") {
  TempDir temp;
  REQUIRE(install_shim(temp.path, "pre-commit").outcome == HookOutcome::installed);
  CHECK(uninstall_shim(temp.path, "pre-commit").outcome == HookOutcome::removed);
  CHECK(fs::is_empty(temp.path));
}

namespace {

const std::string k_framework_script =
    "#!/usr/bin/env bash\n# File generated by pre-commit: https://pre-commit.com\n"
    "# ID: 138fd403232d2ddd5efb44317e38bf03\nexec pre-commit hook-impl\n";

}  // namespace

TEST_CASE("the pre-commit framework's hook stays and the shim goes to pre-commit.legacy",
          "[hooks]") {
  TempDir temp;
  write(temp.path / "pre-commit", k_framework_script, 0755);
  const auto change = install_shim(temp.path, "pre-commit");
  CHECK(change.outcome == HookOutcome::behind_framework);
  CHECK(read(temp.path / "pre-commit") == k_framework_script);
  CHECK(read(temp.path / "pre-commit.legacy") ==
        gv::hooks::render_shim("pre-commit", false, "pre-commit.legacy"));
  CHECK(hook_state(temp.path, "pre-commit") == HookState::behind_framework);
  CHECK(install_shim(temp.path, "pre-commit").outcome == HookOutcome::already_installed);

  const auto removed = uninstall_shim(temp.path, "pre-commit");
  CHECK(removed.outcome == HookOutcome::removed);
  CHECK(removed.message == "pre-commit: removed pre-commit.legacy");
  CHECK(read(temp.path / "pre-commit") == k_framework_script);
  CHECK_FALSE(fs::exists(temp.path / "pre-commit.legacy"));
}

TEST_CASE("a hook the framework kept as pre-commit.legacy is chained behind the shim there",
          "[hooks]") {
  TempDir temp;
  write(temp.path / "pre-commit", k_framework_script, 0755);
  write(temp.path / "pre-commit.legacy", "#!/bin/sh\necho mine\n", 0700);
  CHECK(install_shim(temp.path, "pre-commit").outcome == HookOutcome::behind_framework);
  CHECK(read(temp.path / "pre-commit.legacy.pre-git-vault") == "#!/bin/sh\necho mine\n");
  CHECK_THAT(read(temp.path / "pre-commit.legacy"),
             Catch::Contains("prior=\"$(dirname -- \"$0\")/pre-commit.legacy.pre-git-vault\""));
  CHECK(uninstall_shim(temp.path, "pre-commit").outcome == HookOutcome::restored);
  CHECK(read(temp.path / "pre-commit.legacy") == "#!/bin/sh\necho mine\n");
  CHECK(mode_of(temp.path / "pre-commit.legacy") == 0700);
  CHECK_FALSE(fs::exists(temp.path / "pre-commit.legacy.pre-git-vault"));
}

TEST_CASE("a shim that chained the framework's script is moved behind it", "[hooks]") {
  TempDir temp;
  write(temp.path / "pre-commit.pre-git-vault", k_framework_script, 0755);
  write(temp.path / "pre-commit", gv::hooks::render_shim("pre-commit", true), 0755);
  CHECK(install_shim(temp.path, "pre-commit").outcome == HookOutcome::updated);
  CHECK(read(temp.path / "pre-commit") == k_framework_script);
  CHECK(fs::exists(temp.path / "pre-commit.legacy"));
  CHECK_FALSE(fs::exists(temp.path / "pre-commit.pre-git-vault"));
}

TEST_CASE("what a second pre-commit install left of an old chain is settled", "[hooks]") {
  SECTION("a copy of the framework's script is removed") {
    TempDir temp;
    write(temp.path / "pre-commit", k_framework_script, 0755);
    write(temp.path / "pre-commit.pre-git-vault", k_framework_script, 0755);
    write(temp.path / "pre-commit.legacy", gv::hooks::render_shim("pre-commit", true), 0755);
    CHECK(install_shim(temp.path, "pre-commit").outcome == HookOutcome::updated);
    CHECK_FALSE(fs::exists(temp.path / "pre-commit.pre-git-vault"));
    CHECK(read(temp.path / "pre-commit.legacy") ==
          gv::hooks::render_shim("pre-commit", false, "pre-commit.legacy"));
  }
  SECTION("the user's own hook stays chained, and uninstall gives it to the framework") {
    TempDir temp;
    write(temp.path / "pre-commit", k_framework_script, 0755);
    write(temp.path / "pre-commit.pre-git-vault", "#!/bin/sh\necho mine\n", 0755);
    write(temp.path / "pre-commit.legacy", gv::hooks::render_shim("pre-commit", true), 0755);
    CHECK(install_shim(temp.path, "pre-commit").outcome == HookOutcome::updated);
    CHECK(read(temp.path / "pre-commit.legacy.pre-git-vault") == "#!/bin/sh\necho mine\n");
    CHECK(uninstall_shim(temp.path, "pre-commit").outcome == HookOutcome::restored);
    CHECK(read(temp.path / "pre-commit.legacy") == "#!/bin/sh\necho mine\n");
    CHECK(read(temp.path / "pre-commit") == k_framework_script);
  }
  SECTION("uninstall removes a leftover copy of the framework's script") {
    TempDir temp;
    write(temp.path / "pre-commit", k_framework_script, 0755);
    write(temp.path / "pre-commit.pre-git-vault", k_framework_script, 0755);
    write(temp.path / "pre-commit.legacy", gv::hooks::render_shim("pre-commit", true), 0755);
    CHECK(uninstall_shim(temp.path, "pre-commit").outcome == HookOutcome::removed);
    CHECK_FALSE(fs::exists(temp.path / "pre-commit.pre-git-vault"));
    CHECK_FALSE(fs::exists(temp.path / "pre-commit.legacy"));
    CHECK(read(temp.path / "pre-commit") == k_framework_script);
  }
}

}  // namespace hooks_files_test
