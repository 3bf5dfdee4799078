#include "core/hooks/auto_index.hpp"

#include <fmt/format.h>
#include <sys/stat.h>

#include <algorithm>
#include <array>
#include <filesystem>
#include <map>
#include <optional>
#include <string_view>

#include "core/error.hpp"
#include "core/git/index_stage.hpp"
#include "core/git/repo.hpp"
#include "core/snapshot/index_snapshot.hpp"
#include "core/util/file.hpp"
#include "core/util/shell_word.hpp"
#include "core/util/text.hpp"
#include "core/vault/generated_records.hpp"
#include "core/vault/index_files.hpp"
#include "core/vault/regenerate.hpp"
#include "core/vault/vault.hpp"

namespace gv::hooks {
namespace fs = std::filesystem;

namespace {

constexpr std::array<std::string_view, 3> k_generated = {k_index_json_path, k_index_md_path,
                                                         k_memories_readme_path};

// What the user runs when the gate does not regenerate: the fix `stale-index` names.
constexpr std::string_view k_manual_fix = "git vault index && git add :/.memory";

std::optional<std::string> head_blob(const git::Repo& repo,
                                     const std::optional<std::string>& head_tree,
                                     std::string_view path) {
  return head_tree ? repo.tree_blob_id(*head_tree, path) : std::nullopt;
}

// The blob id of the work tree file's bytes, or nullopt when there is no regular file. The raw
// bytes are hashed: a checkout filter (autocrlf) makes a file read as changed, which costs a
// refusal or a file left alone, never a wrong write.
std::optional<std::string> worktree_blob(const git::Repo& repo, std::string_view path) {
  struct stat st {};
  const fs::path file = repo.workdir() / path;
  if (::lstat(file.c_str(), &st) != 0 || !S_ISREG(st.st_mode)) {
    return std::nullopt;
  }
  const std::optional<std::string> bytes = util::read_file_if_exists(file);
  return bytes ? std::optional<std::string>(git::hash_blob(*bytes)) : std::nullopt;
}

// A generated file the commit changes (its staged blob is not HEAD's) that no recorded
// regeneration wrote: a person's edit, which a regeneration would throw away.
std::optional<std::string> hand_edited_generated(const git::Repo& repo,
                                                 const std::optional<std::string>& head_tree) {
  std::optional<GeneratedRecords> records;
  for (const std::string_view path : k_generated) {
    const std::optional<std::string> staged = repo.index_blob_id(path);
    const std::optional<std::string> head = head_blob(repo, head_tree, path);
    if (staged == head) {
      continue;
    }
    if (!staged) {
      return fmt::format(
          "{} is deleted in this commit, so the gate does not put it back; restore it (git "
          "restore --staged --worktree {}) or regenerate it: {}",
          path, util::shell_word(path), k_manual_fix);
    }
    if (!records) {
      records = GeneratedRecords::load(generated_records_path(repo.common_dir()));
    }
    if (!records->wrote(path, *staged)) {
      return fmt::format(
          "{} is staged with changes no regeneration made, which a regeneration would throw "
          "away, so the gate leaves the index files to you: keep what you wrote in a memory "
          "instead, then: {}",
          path, k_manual_fix);
    }
  }
  return std::nullopt;
}

// The memories the commit changes (staged blob not HEAD's) whose work tree copy differs from
// the staged one: staged in part, with `git add -p`, or edited again since.
std::vector<std::string> partly_staged_memories(const git::Repo& repo,
                                                const std::optional<std::string>& head_tree) {
  std::map<std::string, std::string> head;
  if (head_tree) {
    for (SnapshotEntry& entry : repo.tree_entries(*head_tree, vault_path::k_memories)) {
      head.emplace(std::move(entry.path), std::move(entry.oid));
    }
  }
  std::vector<std::string> partly;
  const auto differs = [&](const std::string& path, const std::optional<std::string>& staged) {
    if (worktree_blob(repo, path) != staged) {
      partly.push_back(path);
    }
  };
  for (const SnapshotEntry& entry : repo.index_entries(vault_path::k_memories)) {
    if (!is_memory_path(entry.path)) {
      continue;
    }
    const auto in_head = head.find(entry.path);
    if (in_head != head.end()) {
      const bool same = in_head->second == entry.oid;
      head.erase(in_head);
      if (same) {
        continue;
      }
    }
    differs(entry.path, entry.oid);
  }
  // Memories HEAD has and the commit deletes: still in the work tree means `git rm --cached`.
  for (const auto& [path, oid] : head) {
    if (is_memory_path(path)) {
      differs(path, std::nullopt);
    }
  }
  return partly;
}

std::string partly_staged_refusal(const std::vector<std::string>& paths) {
  std::string words;
  for (const std::string& path : paths) {
    words += " " + util::shell_word(path);
  }
  return fmt::format(
      "{} {} only partly staged, so index files regenerated from what is staged would describe "
      "a version the work tree does not have; stage all of it and commit again (git add{}), or "
      "commit the staged part as it is with GIT_VAULT_SKIP=stale-index and let the next commit "
      "regenerate them",
      fmt::join(paths, ", "), paths.size() == 1 ? "is" : "are", words);
}

// `git commit <paths>` runs the hook on a temporary index (`<git dir>/next-index-<pid>.lock`)
// and commits the real one, `<git dir>/index.lock` (git holds it), afterwards; what the hook
// stages in the temporary index alone would be missing from the real one after the commit.
std::optional<fs::path> real_index_of_partial_commit(const git::Repo& repo) {
  const fs::path index = repo.index_path();
  const std::string name = index.filename().string();
  std::error_code ec;
  if (!name.starts_with("next-index-") || !name.ends_with(".lock") ||
      !fs::equivalent(index.parent_path(), repo.git_dir(), ec)) {
    return std::nullopt;
  }
  const fs::path real = repo.git_dir() / "index.lock";
  return fs::is_regular_file(real, ec) ? std::optional<fs::path>(real) : std::nullopt;
}

// True when no folder between the work tree and `path` is a symbolic link, and the file itself
// is a regular file: nothing is ever written through a link.
bool plain_file(const git::Repo& repo, std::string_view path) {
  fs::path at = repo.workdir();
  for (const fs::path& part : fs::path(path)) {
    at /= part;
    struct stat st {};
    if (::lstat(at.c_str(), &st) != 0 || S_ISLNK(st.st_mode)) {
      return false;
    }
  }
  return true;
}

}  // namespace

bool auto_index_enabled(const git::Repo& repo) {
  const std::optional<std::string> value = repo.config_string("vault.autoIndex");
  if (!value) {
    return true;
  }
  const std::string lower = util::to_lower_ascii(util::trim(*value));
  return lower != "false" && lower != "no" && lower != "off" && lower != "0";
}

namespace {

// One regenerated file: its bytes, the blob staged before and the one written for it.
struct Write {
  std::string path;
  std::string bytes;
  std::optional<std::string> staged;
  std::string oid;
};

// Why regenerating into this commit is not safe, or nullopt: a hand edit of a generated file, a
// memory staged in part.
std::optional<std::string> unsafe_to_regenerate(const git::Repo& repo) {
  const std::optional<std::string> head_tree = repo.head_tree();
  if (std::optional<std::string> edited = hand_edited_generated(repo, head_tree)) {
    return edited;
  }
  if (const std::vector<std::string> partly = partly_staged_memories(repo, head_tree);
      !partly.empty()) {
    return partly_staged_refusal(partly);
  }
  return std::nullopt;
}

// The regeneration `git vault index` makes, over what is staged, as blobs written to the object
// database; or why it cannot be used at commit time (`refusal`).
std::vector<Write> regenerate_staged(const git::Repo& repo, Date today, ParseCache* cache,
                                     std::optional<GeneratedRecord>& record, std::string& refusal) {
  Plan plan;
  Regeneration regeneration;
  try {
    regeneration = regenerate_index_files(plan, IndexSnapshot(repo), today, cache);
  } catch (const Error& e) {
    refusal = fmt::format("the index files cannot be regenerated: {}", e.what());
    return {};
  }
  if (!regeneration.carried.empty()) {
    refusal = fmt::format(
        "the staged memory-index.json holds retrieval counts the memory files of {} lack, which "
        "a regeneration at commit time would drop; carry them into frontmatter and regenerate: "
        "{}",
        fmt::join(regeneration.carried, ", "), k_manual_fix);
    return {};
  }
  for (const auto& [path, bytes] : plan.changes) {
    const bool generated =
        std::find(k_generated.begin(), k_generated.end(), path) != k_generated.end();
    if (!generated || !bytes) {
      refusal = fmt::format(
          "regenerating the index files would also change {}; regenerate them yourself: {}", path,
          k_manual_fix);
      return {};
    }
  }
  // In the order the gate names them: memory-index.json, index.md, README.md.
  std::vector<Write> writes;
  for (const std::string_view path : k_generated) {
    const auto planned = plan.changes.find(std::string(path));
    if (planned == plan.changes.end()) {
      continue;
    }
    Write& write = writes.emplace_back();
    write.path = planned->first;
    write.bytes = std::move(*planned->second);
    write.staged = repo.index_blob_id(path);
    write.oid = git::write_blob(repo, write.bytes);
  }
  record = std::move(regeneration.record);
  return writes;
}

// Stages the blobs in the index git commits and, for `git commit <paths>`, in the real index
// where it holds what the temporary one held. Returns why it could not, or an empty string.
std::string stage(const git::Repo& repo, const std::vector<Write>& writes) {
  std::vector<git::StagedBlob> blobs;
  for (const Write& write : writes) {
    blobs.push_back({write.path, write.oid, write.staged, std::nullopt});
  }
  try {
    if (git::stage_blobs(repo.index_path(), blobs).size() != blobs.size()) {
      return fmt::format(
          "the index being committed changed while the gate read it; commit again, or "
          "regenerate the index files yourself: {}",
          k_manual_fix);
    }
    if (const std::optional<fs::path> real = real_index_of_partial_commit(repo)) {
      (void)git::stage_blobs(*real, blobs);  // where it holds something else, that stays
    }
  } catch (const Error& e) {
    return fmt::format("the index files could not be staged ({}); regenerate them: {}", e.what(),
                       k_manual_fix);
  }
  return {};
}

}  // namespace

AutoIndex regenerate_into_commit(const git::Repo& repo, Date today, ParseCache* cache) {
  AutoIndex done;
  if (repo.is_bare()) {
    return done;
  }
  if (std::optional<std::string> unsafe = unsafe_to_regenerate(repo)) {
    done.refusal = std::move(*unsafe);
    return done;
  }
  std::optional<GeneratedRecord> record;
  const std::vector<Write> writes = regenerate_staged(repo, today, cache, record, done.refusal);
  if (writes.empty()) {
    return done;
  }
  done.refusal = stage(repo, writes);
  if (!done.refusal.empty()) {
    return done;
  }
  if (record) {
    remember_generated(repo.common_dir(), *record);
  }
  for (const Write& write : writes) {
    done.regenerated.push_back(write.path);
    // The work tree copy follows only when it held what was staged: anything else there is
    // the user's, and stays.
    if (worktree_blob(repo, write.path) == write.staged && plain_file(repo, write.path)) {
      try {
        util::write_file_atomic(repo.workdir() / write.path, write.bytes);
        done.worktree.push_back(write.path);
      } catch (const Error&) {
        // The commit is right either way; the copy stays as it was and shows as modified.
      }
    }
  }
  return done;
}

}  // namespace gv::hooks
