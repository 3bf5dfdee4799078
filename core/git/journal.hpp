#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "core/util/shared_log.hpp"

namespace gv::git {

// An index entry as the journal needs it to put one back.
struct IndexSlot {
  std::string oid;  // 40 hex
  std::uint32_t mode = 0;

  friend bool operator==(const IndexSlot&, const IndexSlot&) = default;
};

// One path a landing changes, with what it needs to finish the change or to undo it.
struct JournalPath {
  std::string path;                     // repo-relative
  std::optional<std::string> new_blob;  // 40 hex; nullopt: a deletion, or a work tree write
  bool executable = false;              // mode of the new file
  std::string temp;  // the new file in the temp folder; empty: the landing deletes the path
  std::uint64_t temp_inode = 0;            // identifies our new file once it is in place
  std::optional<std::uint64_t> old_inode;  // the work tree file before; nullopt: absent
  std::string backup;                      // hard link to the old file in the temp folder
  std::optional<IndexSlot> old_index;      // the index entry before; nullopt: none
  std::optional<IndexSlot> new_index;      // the index entry after; nullopt: none
};

// The record a landing writes (durably) before it changes the work tree, the index or a ref,
// and removes when it is done. Finding one means a run was interrupted: the next run reads it
// and finishes or undoes that landing (doc/architecture.md, "Interruptions").
struct Journal {
  std::string subject;
  bool commit = true;                     // false: work tree only (no index, no ref)
  std::string ref;                        // the ref the commit moves, e.g. refs/heads/main
  std::optional<std::string> old_head;    // 40 hex; nullopt: unborn branch
  std::optional<std::string> new_head;    // 40 hex
  std::string index_path;                 // absolute
  std::uint64_t index_lock_inode = 0;     // the `<index>.lock` we created; 0: none
  std::vector<std::string> created_dirs;  // repo-relative, parents first
  std::vector<JournalPath> paths;
  // The prefix of an append-only log (the retrieval journal) whose records the commit folds:
  // dropped from the log once the branch has moved, by the landing or by the recovery that
  // completes it, never twice (util::drop_prefix). nullopt: none.
  std::optional<util::FilePrefix> consumes;
};

// `<git dir>/vault-journal` and `<git dir>/vault-tmp/`.
[[nodiscard]] std::filesystem::path journal_path(const std::filesystem::path& git_dir);
[[nodiscard]] std::filesystem::path temp_dir(const std::filesystem::path& git_dir);

// Writes the journal through a temporary file, fsync and rename, then fsyncs the git dir, so a
// journal is either absent or whole, also after a power loss. Throws gv::Error.
void write_journal(const std::filesystem::path& git_dir, const Journal& journal);
// The journal, or nullopt when there is none. Throws gv::Error naming the file when it cannot
// be read.
[[nodiscard]] std::optional<Journal> read_journal(const std::filesystem::path& git_dir);
// Removes the journal (durably).
void remove_journal(const std::filesystem::path& git_dir);

// fsync of a file or directory by path; throws gv::Error naming it.
void sync_path(const std::filesystem::path& path);

}  // namespace gv::git
