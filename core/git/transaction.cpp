#include "core/git/transaction.hpp"

#include <fcntl.h>
#include <fmt/format.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <set>
#include <string>
#include <utility>

#include "core/error.hpp"
#include "core/git/fault.hpp"
#include "core/git/handle.hpp"
#include "core/git/index_stage.hpp"
#include "core/git/lock.hpp"
#include "core/git/ref_lock.hpp"
#include "core/git/repo.hpp"
#include "core/git/signature.hpp"
#include "core/util/file.hpp"
#include "core/util/message.hpp"
#include "core/util/shared_log.hpp"
#include "core/util/system.hpp"
#include "core/util/text.hpp"

namespace gv::git {

namespace fs = std::filesystem;

namespace {

std::string errno_text() { return std::strerror(errno); }

// SIGINT, SIGTERM, SIGHUP and SIGQUIT wait while a landing runs: a Ctrl-C mid-landing takes
// effect (with its default action) once the repository is consistent again. SIGKILL and power
// loss cannot wait; the journal covers those.
class DeferSignals {
 public:
  DeferSignals() {
    sigset_t deferred;
    sigemptyset(&deferred);
    for (const int signal : {SIGINT, SIGTERM, SIGHUP, SIGQUIT}) {
      sigaddset(&deferred, signal);
    }
    pthread_sigmask(SIG_BLOCK, &deferred, &m_previous);
  }
  // A signal that waited for a landing which then made its commit ends the process before the
  // command can print that commit: it is said here, so an interrupted run that did commit does
  // not look like one that did not.
  ~DeferSignals() {
    if (!m_landed.empty() && deferred_signal_pending()) {
      const std::string commit = m_landed.substr(0, 12);
      std::fputs(fmt::format("git-vault: interrupted after the commit {} was made; it stands "
                             "(undo with `git vault revert {}`)\n",
                             commit, commit)
                     .c_str(),
                 stderr);
    }
    pthread_sigmask(SIG_SETMASK, &m_previous, nullptr);
  }
  DeferSignals(const DeferSignals&) = delete;
  DeferSignals& operator=(const DeferSignals&) = delete;

  // The commit the landing made (its id).
  void landed(std::string commit) { m_landed = std::move(commit); }

 private:
  [[nodiscard]] bool deferred_signal_pending() const {
    sigset_t pending;
    sigemptyset(&pending);
    if (sigpending(&pending) != 0) {
      return false;
    }
    for (const int signal : {SIGINT, SIGTERM, SIGHUP, SIGQUIT}) {
      // An ignored signal (SIGINT in a shell's background job) is dropped once unblocked.
      struct sigaction action {};
      if (sigismember(&pending, signal) == 1 && sigismember(&m_previous, signal) != 1 &&
          sigaction(signal, nullptr, &action) == 0 && action.sa_handler != SIG_IGN) {
        return true;
      }
    }
    return false;
  }

  sigset_t m_previous{};
  std::string m_landed;
};

void validate_path(const std::string& path) {
  bool ok = !path.empty() && path.front() != '/' && path.back() != '/' &&
            path.find('\0') == std::string::npos && path.find('\\') == std::string::npos;
  std::size_t start = 0;
  while (ok && start <= path.size()) {
    const std::size_t end = std::min(path.find('/', start), path.size());
    const std::string_view part(path.data() + start, end - start);
    std::string lower(part);
    std::transform(lower.begin(), lower.end(), lower.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    ok = !part.empty() && part != "." && part != ".." && lower != ".git";
    start = end + 1;
  }
  if (!ok) {
    throw Error("plan path '{}' is not a plain repo-relative file path", path);
  }
}

std::string join_paths(const std::vector<std::string>& paths, std::size_t limit) {
  std::string out;
  for (std::size_t i = 0; i < paths.size() && i < limit; ++i) {
    out += (i == 0 ? "" : ", ") + paths[i];
  }
  if (paths.size() > limit) {
    out += fmt::format(" and {} more", paths.size() - limit);
  }
  return out;
}

std::optional<struct stat> lstat_of(const fs::path& path) {
  struct stat st {};
  if (::lstat(path.c_str(), &st) != 0) {
    return std::nullopt;
  }
  return st;
}

FileStamp stamp_of(const struct stat& st) {
  return {static_cast<std::uint64_t>(st.st_ino), static_cast<std::int64_t>(st.st_size),
          static_cast<std::int64_t>(st.st_mtim.tv_sec) * 1'000'000'000 + st.st_mtim.tv_nsec,
          static_cast<std::int64_t>(st.st_ctim.tv_sec) * 1'000'000'000 + st.st_ctim.tv_nsec,
          static_cast<std::uint32_t>(st.st_mode)};
}

// True when `path` is one of `prefixes` (a file) or lies under one (a directory ending in `/`,
// or written without the slash).
bool under_any(std::string_view path, const std::vector<std::string>& prefixes) {
  return std::any_of(prefixes.begin(), prefixes.end(), [&](const std::string& prefix) {
    if (prefix.empty()) {
      return true;
    }
    if (prefix.back() == '/') {
      return path.starts_with(prefix);
    }
    return path == prefix ||
           (path.starts_with(prefix) && path.size() > prefix.size() && path[prefix.size()] == '/');
  });
}

// A symbolic link in a folder git-vault writes into would send the write outside the
// repository (or to another place inside it). Every parent of `path` must be a real folder or
// absent, and the path itself must not be a symbolic link.
void refuse_symlinks(const fs::path& workdir, const std::string& path) {
  fs::path current = workdir;
  std::string relative;
  const fs::path parts(path);
  for (const fs::path& part : parts) {
    current /= part;
    relative += (relative.empty() ? "" : "/") + part.string();
    const std::optional<struct stat> st = lstat_of(current);
    if (!st) {
      return;  // nothing below an absent folder can be a link
    }
    if (S_ISLNK(st->st_mode)) {
      throw Error(
          "{}: is a symbolic link; git-vault does not write through symbolic links (needed to "
          "write {}); replace it with a real folder or file",
          relative, path);
    }
  }
}

// Which ref HEAD moves, and where it points now (nullopt: unborn branch).
struct HeadState {
  std::string ref_name;
  std::optional<git_oid> old_id;
};

HeadState read_head(git_repository* repo) {
  git_reference* raw = nullptr;
  check(git_reference_lookup(&raw, repo, "HEAD"), "read HEAD");
  const ReferencePtr head{raw};
  HeadState state;
  if (git_reference_type(head.get()) == GIT_REFERENCE_SYMBOLIC) {
    state.ref_name = git_reference_symbolic_target(head.get());
    git_oid id{};
    const int rc = git_reference_name_to_id(&id, repo, state.ref_name.c_str());
    if (rc != GIT_ENOTFOUND) {
      check(rc, "resolve " + state.ref_name);
      state.old_id = id;
    }
  } else {
    state.ref_name = "HEAD";  // detached: the commit moves HEAD itself
    state.old_id = *git_reference_target(head.get());
  }
  return state;
}

// Where `ref_name` points now, as hex (nullopt: absent).
std::optional<std::string> ref_target(git_repository* repo, const std::string& ref_name) {
  git_oid id{};
  const int rc = ref_name == "HEAD" ? git_reference_name_to_id(&id, repo, "HEAD")
                                    : git_reference_name_to_id(&id, repo, ref_name.c_str());
  if (rc == GIT_ENOTFOUND) {
    return std::nullopt;
  }
  check(rc, "resolve " + ref_name);
  return to_hex(id);
}

// Whether `ref` points at `commit` or at a commit built on it.
bool descends_from(git_repository* repo, const std::string& ref, const std::string& commit) {
  const std::optional<std::string> now = ref_target(repo, ref);
  if (!now) {
    return false;
  }
  if (*now == commit) {
    return true;
  }
  git_oid tip{};
  git_oid base{};
  if (git_oid_fromstr(&tip, now->c_str()) != 0 || git_oid_fromstr(&base, commit.c_str()) != 0) {
    return false;
  }
  return git_graph_descendant_of(repo, &tip, &base) == 1;
}

// git_signature_default in libgit2 1.5 reads only user.name/user.email from config; git itself
// lets GIT_AUTHOR_* / GIT_COMMITTER_* override name, email and date, so apply those here.
SignaturePtr make_signature(git_repository* repo, std::string_view role) {
  const auto env = [&](std::string_view field) -> const char* {
    return std::getenv(fmt::format("GIT_{}_{}", role, field).c_str());
  };
  const char* name = env("NAME");
  const char* email = env("EMAIL");
  const char* date = env("DATE");
  SignaturePtr fallback;
  if (name == nullptr || email == nullptr) {
    git_signature* raw = nullptr;
    const int rc = git_signature_default(&raw, repo);
    fallback = SignaturePtr{raw};
    if (rc < 0) {
      throw Error(
          "cannot tell who is committing: set user.name and user.email with git config (or "
          "GIT_{0}_NAME and GIT_{0}_EMAIL): {1}",
          role, last_error_message());
    }
  }
  const std::string final_name = name != nullptr ? name : fallback->name;
  const std::string final_email = email != nullptr ? email : fallback->email;
  git_signature* raw = nullptr;
  if (date != nullptr && *date != '\0') {
    const std::optional<GitTime> when = parse_git_date(date);
    if (!when) {
      throw Error("GIT_{}_DATE: cannot read the date '{}'", role, date);
    }
    check(git_signature_new(&raw, final_name.c_str(), final_email.c_str(), when->seconds,
                            when->offset_minutes),
          "make the commit signature");
  } else {
    check(git_signature_now(&raw, final_name.c_str(), final_email.c_str()),
          "make the commit signature");
  }
  return SignaturePtr{raw};
}

TreePtr tree_of_commit(git_repository* repo, const git_oid& commit_id) {
  git_commit* raw_commit = nullptr;
  check(git_commit_lookup(&raw_commit, repo, &commit_id), "read HEAD commit");
  const CommitPtr commit{raw_commit};
  git_tree* raw_tree = nullptr;
  check(git_commit_tree(&raw_tree, commit.get()), "read HEAD tree");
  return TreePtr{raw_tree};
}

// The mode and kind of `path` in `tree`, or nullopt when absent.
std::optional<std::pair<git_object_t, git_filemode_t>> entry_in(git_tree* tree,
                                                                const std::string& path) {
  if (tree == nullptr) {
    return std::nullopt;
  }
  git_tree_entry* raw = nullptr;
  const int rc = git_tree_entry_bypath(&raw, tree, path.c_str());
  const TreeEntryPtr entry{raw};
  if (rc == GIT_ENOTFOUND) {
    return std::nullopt;
  }
  check(rc, "look up " + path + " in HEAD");
  return std::pair{git_tree_entry_type(entry.get()), git_tree_entry_filemode(entry.get())};
}

// ---------------------------------------------------------------------------------------------
// Files and folders.

void write_all(int fd, std::string_view bytes, const std::string& what) {
  std::size_t done = 0;
  while (done < bytes.size()) {
    const auto n = ::write(fd, bytes.data() + done, bytes.size() - done);
    if (n < 0) {
      if (errno == EINTR) {
        continue;
      }
      throw Error("{}: cannot write: {}", what, errno_text());
    }
    done += static_cast<std::size_t>(n);
  }
}

// Creates `file` with `bytes`; returns its inode. `what` names it in errors.
std::uint64_t create_file(const fs::path& file, std::string_view bytes, bool executable,
                          const std::string& what) {
  ::unlink(file.c_str());
  const int fd = ::open(file.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW,
                        executable ? 0777 : 0666);
  if (fd < 0) {
    throw Error("{}: cannot write: {}", what, errno_text());
  }
  struct stat st {};
  try {
    write_all(fd, bytes, what);
    if (::fstat(fd, &st) != 0) {
      throw Error("{}: cannot write: {}", what, errno_text());
    }
    // Without syncfs, sync_file_system reaches only folders: each file is flushed here.
    if (!util::k_has_syncfs && ::fsync(fd) != 0) {
      throw Error("{}: cannot write: {}", what, errno_text());
    }
  } catch (...) {
    ::close(fd);
    throw;
  }
  if (::close(fd) != 0) {
    throw Error("{}: cannot write: {}", what, errno_text());
  }
  return static_cast<std::uint64_t>(st.st_ino);
}

// Flushes everything written so far on the file system holding `git_dir` (objects, temporary
// files, renames) in one call, as git's batch fsync mode does, instead of one fsync per file.
// Where the system has no syncfs, the folders whose entries the landing changed so far are
// flushed one by one instead: the temp folder, the objects' folders (libgit2 fsyncs each object
// it writes there, core/git/library.cpp) and, once the work tree is written, the folder of each
// path the journal names.
void sync_landing(const fs::path& git_dir, const fs::path& workdir, const Journal& journal,
                  bool worktree_written) {
  std::vector<fs::path> folders;
  if (!util::k_has_syncfs) {
    folders.push_back(temp_dir(git_dir));
    folders.push_back(git_dir / "objects");
    if (worktree_written) {
      for (const JournalPath& item : journal.paths) {
        folders.push_back((workdir / item.path).parent_path());
      }
      for (const std::string& created : journal.created_dirs) {
        folders.push_back((workdir / created).parent_path());
      }
    }
  }
  util::sync_file_system(git_dir, folders);
}

// Creates the missing folders of `relative`'s parent under `workdir`; returns those it created,
// parents first. Throws when a file is in the way.
std::vector<std::string> missing_parents(const fs::path& workdir, const std::string& relative) {
  std::vector<std::string> missing;
  fs::path dir = workdir;
  std::string so_far;
  for (const fs::path& part : fs::path(relative).parent_path()) {
    dir /= part;
    so_far += (so_far.empty() ? "" : "/") + part.string();
    const std::optional<struct stat> st = lstat_of(dir);
    if (!st) {
      missing.push_back(so_far);
    } else if (!S_ISDIR(st->st_mode)) {
      throw Error("{}: cannot create folder {}: a file is in the way", relative, so_far);
    }
  }
  return missing;
}

void make_parents(const fs::path& workdir, const std::string& relative) {
  fs::path dir = workdir;
  for (const fs::path& part : fs::path(relative).parent_path()) {
    dir /= part;
    if (::mkdir(dir.c_str(), 0777) != 0 && errno != EEXIST) {
      throw Error("{}: cannot create folder {}: {}", relative, dir.string(), errno_text());
    }
  }
}

// git does not track empty folders, so a deletion takes its emptied folders with it.
void remove_empty_parents(const fs::path& workdir, fs::path dir) {
  while (dir != workdir && dir.string().size() > workdir.string().size()) {
    if (::rmdir(dir.c_str()) != 0) {
      return;
    }
    dir = dir.parent_path();
  }
}

void remove_temp_dir(const fs::path& dir) {
  std::error_code ignored;
  fs::remove_all(dir, ignored);
}

// ---------------------------------------------------------------------------------------------
// The index, written under git's own lock protocol: `<index>.lock` is created exclusively (a
// hard link to a file of ours, so its inode, recorded in the journal, tells our lock from
// another process's), the new index is built in a copy in the temp folder and renamed over
// `<index>`, and the lock is removed last.

class IndexLock {
 public:
  IndexLock(fs::path index_path, const fs::path& owner_file)
      : m_lock(index_path.string() + ".lock") {
    if (::link(owner_file.c_str(), m_lock.c_str()) != 0) {
      if (errno == EEXIST) {
        throw Error(
            "{} exists: another git command is using the index; nothing was changed, run "
            "git-vault again when it has finished (if no git command is running, remove that "
            "file)",
            m_lock.string());
      }
      throw Error("{}: cannot create: {}", m_lock.string(), errno_text());
    }
    m_held = true;
  }
  // Adopts a lock an interrupted run left behind (its inode matched the journal).
  struct Adopt {};
  IndexLock(fs::path index_path, Adopt) : m_lock(index_path.string() + ".lock"), m_held(true) {}
  ~IndexLock() { release(); }
  IndexLock(const IndexLock&) = delete;
  IndexLock& operator=(const IndexLock&) = delete;

  // The journal's undo takes over this lock (it finds it by inode) and releases it.
  void hand_over() { m_held = false; }

  void release() {
    if (m_held) {
      ::unlink(m_lock.c_str());
      m_held = false;
    }
  }

 private:
  fs::path m_lock;
  bool m_held = false;
};

// A copy of the index at `index_path` in `copy_path`, opened. An absent index gives an empty one.
IndexPtr open_index_copy(const fs::path& index_path, const fs::path& copy_path) {
  ::unlink(copy_path.c_str());
  // Read whole and written as the landing writes its files, so that a failure says what failed:
  // std::filesystem::copy_file reports a copy that a full disk cut short as an input/output error.
  if (const std::optional<std::string> bytes = util::read_file_if_exists(index_path)) {
    (void)create_file(copy_path, *bytes, false, copy_path.string());
  }
  git_index* raw = nullptr;
  check(git_index_open(&raw, copy_path.c_str()), "read the git index");
  return IndexPtr{raw};
}

// Writes the edited copy and renames it over the index. Throws before the rename on failure.
void commit_index_copy(git_index* index, const fs::path& copy_path, const fs::path& index_path) {
  check(git_index_write(index), "write the git index");
  fault_point("index");
  if (::rename(copy_path.c_str(), index_path.c_str()) != 0) {
    throw Error("{}: cannot replace the index: {}", index_path.string(), errno_text());
  }
  fault_point("index-rename");
}

std::optional<IndexSlot> slot_of(git_index* index, const std::string& path) {
  const git_index_entry* entry = git_index_get_bypath(index, path.c_str(), 0);  // borrowed
  if (entry == nullptr) {
    return std::nullopt;
  }
  return IndexSlot{to_hex(entry->id), entry->mode};
}

// Puts `slot` at `path` (or removes the path). With `stat_from`, records that file's stat data
// as git would, so `git status` need not rehash it; without, git compares content.
void set_slot(git_index* index, const std::string& path, const std::optional<IndexSlot>& slot,
              const fs::path* stat_from) {
  if (!slot) {
    check(git_index_remove_bypath(index, path.c_str()), "remove " + path + " from the index");
    return;
  }
  git_index_entry entry{};
  entry.mode = slot->mode;
  check(git_oid_fromstr(&entry.id, slot->oid.c_str()), "read blob id " + slot->oid);
  entry.path = path.c_str();
  if (stat_from != nullptr) {
    record_stat(entry, *stat_from);
  }
  check(git_index_add(index, &entry), "stage " + path);
}

std::int64_t mtime_seconds(const fs::path& path) {
  const std::optional<struct stat> st = lstat_of(path);
  return st ? static_cast<std::int64_t>(st->st_mtim.tv_sec) : 0;
}

// ---------------------------------------------------------------------------------------------
// Read state.

void collect_index(git_index* index, const std::vector<std::string>& paths, ReadState& state) {
  const std::size_t count = git_index_entrycount(index);
  for (std::size_t i = 0; i < count; ++i) {
    const git_index_entry* entry = git_index_get_byindex(index, i);  // borrowed
    if (entry == nullptr || !under_any(entry->path, paths)) {
      continue;
    }
    const int stage = GIT_INDEX_ENTRY_STAGE(entry);
    const std::string key =
        stage == 0 ? std::string(entry->path) : fmt::format("{}:{}", entry->path, stage);
    state.index[key] = IndexSlot{to_hex(entry->id), entry->mode};
  }
}

void collect_files(const fs::path& workdir, const std::vector<std::string>& paths,
                   ReadState& state) {
  for (const std::string& prefix : paths) {
    std::string trimmed = prefix;
    while (!trimmed.empty() && trimmed.back() == '/') {
      trimmed.pop_back();
    }
    const fs::path top = trimmed.empty() ? workdir : workdir / trimmed;
    const std::optional<struct stat> st = lstat_of(top);
    if (!st) {
      continue;
    }
    if (!S_ISDIR(st->st_mode)) {
      state.files[trimmed] = stamp_of(*st);
      continue;
    }
    std::error_code ec;
    for (auto it = fs::recursive_directory_iterator(top, ec); !ec && it != fs::end(it);
         it.increment(ec)) {
      if (it->path().filename() == ".git") {
        it.disable_recursion_pending();
        continue;
      }
      const std::optional<struct stat> file = lstat_of(it->path());
      if (file && !S_ISDIR(file->st_mode)) {
        // Lexical: every path here was built under `workdir`. fs::relative resolves both paths
        // through the file system, a readlink per component of every file (180,000 at 10,000
        // memories, a third of a second).
        state.files[it->path().lexically_relative(workdir).generic_string()] = stamp_of(*file);
      }
    }
  }
}

// The first difference between two read states, as a phrase for the refusal; nullopt if none.
std::optional<std::string> first_difference(const ReadState& then, const ReadState& now) {
  if (then.head != now.head) {
    return std::string("HEAD");
  }
  for (const auto* maps : {&then.index, &now.index}) {
    const auto& other = maps == &then.index ? now.index : then.index;
    for (const auto& [path, slot] : *maps) {
      const auto found = other.find(path);
      if (found == other.end() || !(found->second == slot)) {
        return fmt::format("the staged {}", path);
      }
    }
  }
  for (const auto* maps : {&then.files, &now.files}) {
    const auto& other = maps == &then.files ? now.files : then.files;
    for (const auto& [path, stamp] : *maps) {
      const auto found = other.find(path);
      if (found == other.end() || !(found->second == stamp)) {
        return path;
      }
    }
  }
  return std::nullopt;
}

// ---------------------------------------------------------------------------------------------
// Settling a journal: bringing every path to one side of the landing.

struct Settled {
  std::vector<std::string> kept;  // work tree files changed by someone else; left alone
};

fs::path scratch(const fs::path& temp_folder, const std::string& name) {
  return name.empty() ? fs::path{} : temp_folder / name;
}

// Brings the work tree files of `journal` to the state after the landing (`forward`) or before
// it. Only files that are still exactly ours or exactly the old ones are touched.
void settle_worktree(Repo& repo, const Journal& journal, bool forward, Settled& settled) {
  const fs::path workdir = repo.workdir();
  const fs::path temp_folder = temp_dir(repo.git_dir());
  for (const JournalPath& item : journal.paths) {
    fault_point("settle");
    const fs::path target = workdir / item.path;
    const std::optional<struct stat> st = lstat_of(target);
    const bool writes = !item.temp.empty();  // a new file, not a deletion
    const bool is_ours = st && writes && st->st_ino == item.temp_inode;
    const bool is_old = item.old_inode ? (st && st->st_ino == *item.old_inode) : !st;
    const fs::path temp = scratch(temp_folder, item.temp);
    const fs::path backup = scratch(temp_folder, item.backup);
    const bool have_backup = !backup.empty() && lstat_of(backup).has_value();
    if (forward) {
      if (writes ? is_ours : !st) {
        continue;
      }
      if (!is_old) {
        settled.kept.push_back(item.path);
        continue;
      }
      if (!writes) {
        if (::unlink(target.c_str()) != 0 && errno != ENOENT) {
          throw Error("{}: cannot delete: {}", item.path, errno_text());
        }
        remove_empty_parents(workdir, target.parent_path());
        continue;
      }
      if (temp.empty() || !lstat_of(temp)) {
        // The new file was moved into place and then replaced by someone else.
        settled.kept.push_back(item.path);
        continue;
      }
      make_parents(workdir, item.path);
      if (::rename(temp.c_str(), target.c_str()) != 0) {
        throw Error("{}: cannot write: {}", item.path, errno_text());
      }
    } else {
      if (is_old) {
        continue;
      }
      if (is_ours) {
        if (have_backup) {
          if (::rename(backup.c_str(), target.c_str()) != 0) {
            throw Error("{}: cannot restore: {}", item.path, errno_text());
          }
        } else if (::unlink(target.c_str()) != 0 && errno != ENOENT) {
          throw Error("{}: cannot remove: {}", item.path, errno_text());
        }
        continue;
      }
      if (!st && have_backup) {
        make_parents(workdir, item.path);
        if (::rename(backup.c_str(), target.c_str()) != 0) {
          throw Error("{}: cannot restore: {}", item.path, errno_text());
        }
        continue;
      }
      settled.kept.push_back(item.path);
    }
  }
  if (!forward) {
    for (auto it = journal.created_dirs.rbegin(); it != journal.created_dirs.rend(); ++it) {
      ::rmdir((workdir / *it).c_str());
    }
  }
}

// Brings the index entries of `journal` to one side. Entries someone else changed since are
// left alone. Uses (and then releases) the index lock the journal recorded when it is still
// there, else takes it.
void settle_index(Repo& repo, const Journal& journal, bool forward) {
  if (!journal.commit) {
    return;
  }
  const fs::path temp_folder = temp_dir(repo.git_dir());
  const fs::path index_path = journal.index_path;
  const fs::path lock_path = index_path.string() + ".lock";
  std::optional<IndexLock> lock;
  const std::optional<struct stat> held = lstat_of(lock_path);
  if (held && journal.index_lock_inode != 0 && held->st_ino == journal.index_lock_inode) {
    lock.emplace(index_path, IndexLock::Adopt{});
  } else {
    fs::create_directories(temp_folder);
    const fs::path owner = temp_folder / "index-lock-owner";
    (void)create_file(owner, {}, false, owner.string());
    lock.emplace(index_path, owner);
  }
  const fs::path copy_path = temp_folder / "index";
  const IndexPtr index = open_index_copy(index_path, copy_path);
  bool changed = false;
  for (const JournalPath& item : journal.paths) {
    const std::optional<IndexSlot> current = slot_of(index.get(), item.path);
    const std::optional<IndexSlot>& want = forward ? item.new_index : item.old_index;
    const std::optional<IndexSlot>& other = forward ? item.old_index : item.new_index;
    if (current == want || current != other) {
      continue;
    }
    const fs::path target = repo.workdir() / item.path;
    const std::optional<struct stat> st = lstat_of(target);
    const bool matches_file = forward && st && st->st_ino == item.temp_inode;
    set_slot(index.get(), item.path, want, matches_file ? &target : nullptr);
    changed = true;
  }
  if (changed) {
    commit_index_copy(index.get(), copy_path, index_path);
  }
  lock->release();
}

// Removes the temp folder on scope exit unless a journal has taken it over.
struct TempCleanup {
  explicit TempCleanup(fs::path folder) : dir(std::move(folder)) {}
  fs::path dir;
  bool keep = false;
  ~TempCleanup() {
    if (!keep) {
      remove_temp_dir(dir);
    }
  }
  TempCleanup(const TempCleanup&) = delete;
  TempCleanup& operator=(const TempCleanup&) = delete;
};

// The new files are renamed from the temp folder into the work tree, which needs one file
// system.
void require_same_file_system(const fs::path& temp_folder, const fs::path& workdir,
                              const fs::path& git_dir) {
  const std::optional<struct stat> temp_stat = lstat_of(temp_folder);
  const std::optional<struct stat> work_stat = lstat_of(workdir);
  if (!temp_stat || !work_stat || temp_stat->st_dev != work_stat->st_dev) {
    throw Error(
        "{} and the work tree are on different file systems; git-vault moves files from one "
        "to the other and needs them on the same one",
        git_dir.string());
  }
}

void finish_cleanup(Repo& repo) {
  remove_journal(repo.git_dir());
  remove_temp_dir(temp_dir(repo.git_dir()));
}

// libgit2 writes a loose object as `objects/tmp_object_git2_*` and renames it into place; a run
// killed in between leaves the temporary. Only landings write objects, each under its work
// tree's vault lock: when no landing holds one in any work tree of the clone (this run holds its
// own), the temporaries are left over.
void remove_temporary_objects(const Repo& repo) {
  std::vector<VaultLock> held;
  std::error_code ec;
  for (auto it = fs::directory_iterator(repo.common_dir() / "worktrees", ec);
       !ec && it != fs::directory_iterator(); it.increment(ec)) {
    const fs::path dir = it->path();
    if (dir == repo.git_dir() || !lstat_of(dir / "vault.lock")) {
      continue;
    }
    std::optional<VaultLock> other = VaultLock::try_take(dir / "vault.lock");
    if (!other) {
      return;  // a landing in another work tree may be writing one now
    }
    held.push_back(std::move(*other));
  }
  if (repo.common_dir() != repo.git_dir() && lstat_of(repo.common_dir() / "vault.lock")) {
    std::optional<VaultLock> main = VaultLock::try_take(repo.common_dir() / "vault.lock");
    if (!main) {
      return;
    }
    held.push_back(std::move(*main));
  }
  for (auto it = fs::directory_iterator(repo.common_dir() / "objects", ec);
       !ec && it != fs::directory_iterator(); it.increment(ec)) {
    if (it->path().filename().string().starts_with("tmp_object_git2_")) {
      ::unlink(it->path().c_str());
    }
  }
}

// What runs killed before their journal leave: the journal's own temporary, libgit2's temporary
// objects, and the temporaries of the files git-vault keeps in the git dir (parse cache, gate
// baseline, stat cache, generated records). With the vault lock held.
void remove_leftovers(const Repo& repo) {
  ::unlink((repo.git_dir() / "vault-journal.new").c_str());
  remove_temporary_objects(repo);
  for (const fs::path& dir : {repo.git_dir() / "git-vault", repo.common_dir() / "git-vault"}) {
    util::remove_orphaned_temp_files(dir);
  }
}

// With the vault lock held: settles a leftover journal, or clears leftover temp files.
bool recover_locked(Repo& repo) {
  const fs::path git_dir = repo.git_dir();
  remove_leftovers(repo);
  const std::optional<struct stat> journal_stat = lstat_of(journal_path(git_dir));
  std::optional<Journal> journal;
  try {
    journal = read_journal(git_dir);
  } catch (const Error& e) {
    throw Error("{}", unreadable_journal_advice(repo, e.what()));
  }
  if (!journal) {
    remove_temp_dir(temp_dir(git_dir));  // a run stopped before its journal: nothing landed
    return false;
  }
  const std::int64_t journal_written = journal_stat ? stamp_of(*journal_stat).mtime_ns : 0;
  bool forward = false;
  bool moved_elsewhere = false;
  if (journal->commit) {
    const std::optional<std::string> now = ref_target(repo.raw(), journal->ref);
    forward = now.has_value() && now == journal->new_head;
    moved_elsewhere = !forward && now != journal->old_head;
  }
  const std::string what = journal->subject.empty() ? "an update" : journal->subject;
  Settled settled;
  // The records the commit folded leave their log once the commit stands; a second recovery
  // finds the log replaced and drops nothing.
  const auto drop_consumed = [&] {
    if (journal->consumes) {
      (void)util::drop_prefix(*journal->consumes, [] { fault_point("fold-rename"); });
    }
  };
  if (moved_elsewhere) {
    // The branch moved on since (a commit, reset or fetch after the interruption): neither side
    // is the repository's state any more, so only our locks and files are cleared.
    const fs::path lock_path = journal->index_path + ".lock";
    const std::optional<struct stat> held = lstat_of(lock_path);
    if (held && held->st_ino == journal->index_lock_inode) {
      ::unlink(lock_path.c_str());
    }
    settle_ref_lock(repo, *journal, true, journal_written);
    if (journal->new_head && descends_from(repo.raw(), journal->ref, *journal->new_head)) {
      drop_consumed();
    }
    finish_cleanup(repo);
    util::print_warning(fmt::format(
        "an interrupted git-vault run ({}) was found, but {} has moved since; nothing was "
        "restored: check `git status`",
        what, journal->ref));
    return true;
  }
  settle_worktree(repo, *journal, forward, settled);
  settle_index(repo, *journal, forward);
  // The ref's lock last: until it goes, git cannot move the branch past a half-settled state.
  settle_ref_lock(repo, *journal, forward, journal_written);
  if (forward) {
    drop_consumed();
  }
  fault_point("recovered");
  finish_cleanup(repo);
  if (forward) {
    util::print_note(fmt::format("completed an interrupted git-vault run: {} ({})", what,
                                 journal->new_head.value_or("").substr(0, 12)));
  } else {
    util::print_note(
        fmt::format("undid an interrupted git-vault run that had not finished: {}", what));
  }
  if (!settled.kept.empty()) {
    util::print_warning(fmt::format("kept your changes to {}; compare them with `git diff`",
                                    join_paths(settled.kept, 5)));
  }
  return true;
}

// ---------------------------------------------------------------------------------------------
// The landing.

struct Change {
  std::string path;
  std::optional<git_oid> blob;  // nullopt: deletion
  git_filemode_t mode = GIT_FILEMODE_BLOB;
  bool in_head = false;
};

std::string describe_mismatch(const std::string& what) {
  return fmt::format("{} changed while git-vault was running; nothing was changed, run it again",
                     what);
}

// Throws when a work tree file the journal replaces is no longer the one this run found.
void check_unchanged(const Journal& journal, const std::map<std::string, FileStamp>& stamps,
                     const fs::path& workdir) {
  for (const JournalPath& item : journal.paths) {
    const std::optional<struct stat> st = lstat_of(workdir / item.path);
    const auto then = stamps.find(item.path);
    const bool same =
        st ? then != stamps.end() && then->second == stamp_of(*st) : then == stamps.end();
    if (!same) {
      throw Error(describe_mismatch(item.path));
    }
  }
}

// Writes the work tree files only (`--no-commit`), through the same journal, so an interruption
// leaves every file as it was (the journal is rolled back) or all of them new.
void apply_worktree_only(Repo& repo, const Plan& plan, const ApplyOptions& options) {
  const fs::path workdir = repo.workdir();
  const fs::path git_dir = repo.git_dir();
  const fs::path temp_folder = temp_dir(git_dir);
  remove_temp_dir(temp_folder);
  if (::mkdir(temp_folder.c_str(), 0700) != 0) {
    throw Error("{}: cannot create: {}", temp_folder.string(), errno_text());
  }
  TempCleanup temp_cleanup{temp_folder};
  require_same_file_system(temp_folder, workdir, git_dir);
  Journal journal;
  journal.subject = plan.subject.empty() ? "work tree update" : plan.subject;
  journal.commit = false;
  std::size_t n = 0;
  std::set<std::string> created;
  std::map<std::string, FileStamp> stamps;
  for (const auto& [path, bytes] : plan.changes) {
    JournalPath item;
    item.path = path;
    const fs::path target = workdir / path;
    const std::optional<struct stat> st = lstat_of(target);
    if (st && S_ISDIR(st->st_mode)) {
      throw Error("{}: is a directory in the work tree; cannot {} it", path,
                  bytes ? "write" : "delete");
    }
    if (st) {
      item.old_inode = static_cast<std::uint64_t>(st->st_ino);
      item.backup = fmt::format("b{}", n);
      stamps[path] = stamp_of(*st);
    }
    if (bytes) {
      for (const std::string& dir : missing_parents(workdir, path)) {
        if (created.insert(dir).second) {
          journal.created_dirs.push_back(dir);
        }
      }
      item.executable = st && (st->st_mode & S_IXUSR) != 0;
      item.temp = fmt::format("w{}", n);
      item.temp_inode = create_file(temp_folder / item.temp, *bytes, item.executable, path);
      fault_point("temp");
    }
    ++n;
    journal.paths.push_back(std::move(item));
  }
  sync_landing(git_dir, workdir, journal, false);
  write_journal(git_dir, journal);
  temp_cleanup.keep = true;  // from now on the journal owns the temp folder
  fault_point("journal");
  // The files the plan replaces must be the ones it was computed from.
  try {
    check_unchanged(journal, stamps, workdir);
    if (options.read_state) {
      ReadState now;
      now.paths = options.read_state->paths;
      now.head = repo.head_commit();
      now.index = options.read_state->index;  // this update leaves the index alone
      collect_files(workdir, now.paths, now);
      if (const auto what = first_difference(*options.read_state, now)) {
        throw Error(describe_mismatch(*what));
      }
    }
  } catch (...) {
    finish_cleanup(repo);
    throw;
  }
  try {
    for (const JournalPath& item : journal.paths) {
      const fs::path target = workdir / item.path;
      if (!item.backup.empty() &&
          ::link(target.c_str(), (temp_folder / item.backup).c_str()) != 0) {
        throw Error("{}: cannot keep the old file: {}", item.path, errno_text());
      }
      if (!item.temp.empty()) {
        make_parents(workdir, item.path);
        if (::rename((temp_folder / item.temp).c_str(), target.c_str()) != 0) {
          throw Error("{}: cannot write: {}", item.path, errno_text());
        }
      } else if (::unlink(target.c_str()) != 0 && errno != ENOENT) {
        throw Error("{}: cannot delete: {}", item.path, errno_text());
      } else {
        remove_empty_parents(workdir, target.parent_path());
      }
      fault_point("worktree");
    }
    sync_landing(git_dir, workdir, journal, true);
  } catch (...) {
    Settled settled;
    settle_worktree(repo, journal, false, settled);
    finish_cleanup(repo);
    throw;
  }
  remove_journal(git_dir);
  fault_point("done");
  remove_temp_dir(temp_folder);
}

}  // namespace

ReadState capture_read_state(Repo& repo, const std::vector<std::string>& paths) {
  if (!repo.is_bare()) {
    const DeferSignals defer;
    // A landing under way finishes first (a moment, as a rule): what is read is then its result,
    // and this run's own landing does not find its read state moved by it.
    const std::optional<VaultLock> lock =
        VaultLock::take_within(repo.git_dir() / "vault.lock", VaultLock::k_default_wait);
    if (lock) {
      recover_locked(repo);
    }
  }
  ReadState state;
  state.paths = paths;
  state.head = repo.head_commit();
  git_index* raw = nullptr;
  check(git_repository_index(&raw, repo.raw()), "open the git index");
  const IndexPtr shared{raw};
  const char* index_path = git_index_path(shared.get());
  if (index_path != nullptr) {
    git_index* fresh = nullptr;
    check(git_index_open(&fresh, index_path), "read the git index");
    const IndexPtr index{fresh};
    collect_index(index.get(), paths, state);
  }
  if (!repo.is_bare()) {
    collect_files(repo.workdir(), paths, state);
  }
  fault_point("read");
  return state;
}

bool recover_interrupted_landing(Repo& repo) {
  if (repo.is_bare()) {
    return false;
  }
  const DeferSignals defer;
  const std::optional<VaultLock> lock = VaultLock::try_take(repo.git_dir() / "vault.lock");
  return lock && recover_locked(repo);
}

std::string unreadable_journal_advice(const Repo& repo, std::string_view why) {
  const auto shown = [&](const fs::path& path) {
    const std::string relative = path.lexically_relative(repo.workdir()).generic_string();
    return relative.empty() || relative.starts_with("..") ? path.string() : relative;
  };
  const std::string journal = shown(journal_path(repo.git_dir()));
  return fmt::format(
      "{}: the interrupted git-vault run it records can be neither finished nor undone from it. "
      "Move it aside (mv {} {}.broken), remove {}.lock if no git command is running, then `git "
      "status` shows what that run changed and `git restore` puts back what you do not want",
      why, journal, journal, shown(repo.index_path()));
}

std::vector<util::FilePrefix> landed_consumptions(const Repo& repo) {
  // Each work tree's journal: the main one's in the common dir, a linked one's under worktrees/.
  std::vector<fs::path> dirs = {repo.common_dir()};
  std::error_code ec;
  for (auto it = fs::directory_iterator(repo.common_dir() / "worktrees", ec);
       !ec && it != fs::directory_iterator(); it.increment(ec)) {
    dirs.push_back(it->path());
  }
  std::vector<util::FilePrefix> landed;
  for (const fs::path& dir : dirs) {
    if (!lstat_of(journal_path(dir))) {
      continue;
    }
    try {
      const std::optional<Journal> journal = read_journal(dir);
      // A detached HEAD is its own work tree's: only this one's can be read here.
      if (!journal || !journal->commit || !journal->consumes || !journal->new_head ||
          (journal->ref == "HEAD" && dir != repo.git_dir())) {
        continue;
      }
      if (ref_target(repo.raw(), journal->ref) == journal->new_head) {
        landed.push_back(*journal->consumes);
      }
    } catch (const Error&) {
      continue;
    }
  }
  return landed;
}

bool landing_in_progress(const Repo& repo) {
  if (repo.is_bare() || !fs::exists(journal_path(repo.git_dir()))) {
    return false;
  }
  const DeferSignals defer;
  return !VaultLock::try_take(repo.git_dir() / "vault.lock");
}

std::string dirty_refusal(const std::vector<std::string>& dirty, bool offers_allow_dirty) {
  return fmt::format(
      "uncommitted changes in vault paths: {} (commit or stash them first{})", join_paths(dirty, 5),
      offers_allow_dirty ? ", or pass --allow-dirty to run anyway: it says which of them the "
                           "commit takes"
                         : "");
}

std::string dirty_refusal(const Repo& repo, const std::vector<std::string>& dirty,
                          bool offers_allow_dirty) {
  if (landing_in_progress(repo)) {
    return fmt::format(
        "another git-vault run is landing a commit ({} is its lock): the changes in {} are its "
        "own, not yours; wait for it to finish and run this again",
        (repo.git_dir() / "vault.lock").string(), join_paths(dirty, 5));
  }
  return dirty_refusal(dirty, offers_allow_dirty);
}

std::optional<std::string> apply(Repo& repo, const Plan& plan, const ApplyOptions& options) {
  if (repo.is_bare()) {
    throw Error("{}: a bare repository has no work tree to keep a vault in",
                repo.git_dir().string());
  }
  for (const auto& [path, bytes] : plan.changes) {
    validate_path(path);
  }
  if (options.commit && plan.subject.empty()) {
    throw Error("internal: a plan needs a commit subject");
  }
  git_repository* const raw_repo = repo.raw();
  const fs::path workdir = repo.workdir();
  const fs::path git_dir = repo.git_dir();
  const fs::path temp_folder = temp_dir(git_dir);

  // Signals wait from before the lock is taken until after it is released, so a Ctrl-C never
  // leaves the lock file behind.
  DeferSignals defer;
  const VaultLock lock(git_dir / "vault.lock");
  recover_locked(repo);

  for (const auto& [path, bytes] : plan.changes) {
    refuse_symlinks(workdir, path);
  }
  if (!options.allow_dirty && !options.guarded_paths.empty()) {
    const std::vector<std::string> dirty = repo.dirty_paths(options.guarded_paths);
    if (!dirty.empty()) {
      throw Error("{}", dirty_refusal(dirty, options.offers_allow_dirty));
    }
  }

  if (!options.commit) {
    apply_worktree_only(repo, plan, options);
    return std::nullopt;
  }

  const HeadState head = read_head(raw_repo);
  // A lock on the branch that this run's recovery did not own: git's own commit fails on it
  // too, so the landing would only be undone at its last step.
  if (const fs::path ref_lock = ref_lock_path(repo, head.ref_name); lstat_of(ref_lock)) {
    throw Error("{}", ref_lock_message(ref_lock, head.ref_name));
  }
  const std::optional<std::string> old_head =
      head.old_id ? std::optional<std::string>(to_hex(*head.old_id)) : std::nullopt;
  if (options.read_state && options.read_state->head != old_head) {
    throw Error(describe_mismatch("HEAD"));
  }
  if (options.consumes && !util::prefix_present(*options.consumes)) {
    throw Error(describe_mismatch(options.consumes->path));
  }
  const TreePtr base = head.old_id ? tree_of_commit(raw_repo, *head.old_id) : TreePtr{};

  // Blobs, then one tree built from HEAD's tree plus only the plan's paths.
  std::vector<Change> changes;
  std::vector<git_tree_update> updates;
  changes.reserve(plan.changes.size());
  for (const auto& [path, bytes] : plan.changes) {
    Change change{path, std::nullopt, GIT_FILEMODE_BLOB, false};
    const auto existing = entry_in(base.get(), path);
    if (existing) {
      if (existing->first != GIT_OBJECT_BLOB || existing->second == GIT_FILEMODE_LINK) {
        throw Error("{}: is not a file in HEAD; cannot replace it", path);
      }
      change.in_head = true;
      if (existing->second == GIT_FILEMODE_BLOB_EXECUTABLE) {
        change.mode = GIT_FILEMODE_BLOB_EXECUTABLE;
      }
    }
    if (bytes) {
      git_oid id{};
      check(git_blob_create_from_buffer(&id, raw_repo, bytes->data(), bytes->size()),
            "write blob for " + path);
      change.blob = id;
    }
    changes.push_back(std::move(change));
  }
  for (const Change& change : changes) {
    if (!change.blob && !change.in_head) {
      continue;  // deleting a file HEAD does not have changes nothing in the tree
    }
    git_tree_update update{};
    update.action = change.blob ? GIT_TREE_UPDATE_UPSERT : GIT_TREE_UPDATE_REMOVE;
    if (change.blob) {
      update.id = *change.blob;
    }
    update.filemode = change.mode;
    update.path = change.path.c_str();
    updates.push_back(update);
  }
  git_oid tree_id{};
  check(git_tree_create_updated(&tree_id, raw_repo, base.get(), updates.size(), updates.data()),
        "build the commit tree");
  git_tree* raw_tree = nullptr;
  check(git_tree_lookup(&raw_tree, raw_repo, &tree_id), "read the new tree");
  const TreePtr tree{raw_tree};

  // The commit object, not yet on any branch.
  const SignaturePtr committer = make_signature(raw_repo, "COMMITTER");
  CommitPtr head_commit;
  if (head.old_id) {
    git_commit* raw_head = nullptr;
    check(git_commit_lookup(&raw_head, raw_repo, &*head.old_id), "read HEAD commit");
    head_commit = CommitPtr{raw_head};
  }
  SignaturePtr author;
  std::vector<CommitPtr> parent_handles;
  std::string message;
  std::optional<std::string> message_encoding;  // HEAD's, when amending a commit that names one
  if (options.amend) {
    if (!head_commit) {
      throw Error("internal: there is no commit to amend on an unborn branch");
    }
    git_signature* raw_author = nullptr;
    check(git_signature_dup(&raw_author, git_commit_author(head_commit.get())),
          "copy HEAD's author");
    author = SignaturePtr{raw_author};
    for (unsigned i = 0; i < git_commit_parentcount(head_commit.get()); ++i) {
      git_commit* raw_parent = nullptr;
      check(git_commit_parent(&raw_parent, head_commit.get(), i), "read HEAD's parents");
      parent_handles.emplace_back(raw_parent);
    }
    const char* raw_message = git_commit_message_raw(head_commit.get());  // borrowed
    message = raw_message == nullptr ? std::string{} : std::string(raw_message);
    if (const char* encoding = git_commit_message_encoding(head_commit.get());
        encoding != nullptr) {
      message_encoding = encoding;
    }
  } else {
    author = make_signature(raw_repo, "AUTHOR");
    if (head_commit) {
      parent_handles.push_back(std::move(head_commit));
    }
    message = plan.message();
  }
  std::vector<const git_commit*> parents;
  for (const CommitPtr& handle : parent_handles) {
    parents.push_back(handle.get());
  }
  git_oid commit_id{};
  check(git_commit_create(&commit_id, raw_repo, nullptr, author.get(), committer.get(),
                          message_encoding ? message_encoding->c_str() : nullptr, message.c_str(),
                          tree.get(), parents.size(), parents.data()),
        "create the commit");
  const std::string new_id = to_hex(commit_id);
  fault_point("objects");

  // The index as it is now: the entries the journal will put back on an undo.
  git_index* raw_shared = nullptr;
  check(git_repository_index(&raw_shared, raw_repo), "open the git index");
  const IndexPtr shared_index{raw_shared};
  const char* index_path_text = git_index_path(shared_index.get());
  if (index_path_text == nullptr) {
    throw Error("the repository has no index file");
  }
  const fs::path index_path = index_path_text;

  // Everything that can fail for ordinary reasons on disk happens now, before any visible
  // change: the new files are written in the temp folder, the folders they need are checked.
  remove_temp_dir(temp_folder);
  if (::mkdir(temp_folder.c_str(), 0700) != 0) {
    throw Error("{}: cannot create: {}", temp_folder.string(), errno_text());
  }
  TempCleanup temp_cleanup{temp_folder};
  require_same_file_system(temp_folder, workdir, git_dir);

  Journal journal;
  journal.subject = plan.subject;
  journal.commit = true;
  journal.ref = head.ref_name;
  journal.old_head = old_head;
  journal.new_head = new_id;
  journal.index_path = index_path.string();
  journal.consumes = options.consumes;
  std::set<std::string> created;
  std::map<std::string, FileStamp> stamps;  // work tree files as this run found them
  {
    const IndexPtr current = open_index_copy(index_path, temp_folder / "index-before");
    std::size_t n = 0;
    for (const Change& change : changes) {
      JournalPath item;
      item.path = change.path;
      const fs::path target = workdir / change.path;
      const std::optional<struct stat> st = lstat_of(target);
      if (st && S_ISDIR(st->st_mode)) {
        throw Error("{}: is a directory in the work tree; cannot {} it as a file", change.path,
                    change.blob ? "write" : "delete");
      }
      if (st) {
        item.old_inode = static_cast<std::uint64_t>(st->st_ino);
        item.backup = fmt::format("b{}", n);
        stamps[change.path] = stamp_of(*st);
      }
      item.old_index = slot_of(current.get(), change.path);
      if (change.blob) {
        for (const std::string& dir : missing_parents(workdir, change.path)) {
          if (created.insert(dir).second) {
            journal.created_dirs.push_back(dir);
          }
        }
        item.new_blob = to_hex(*change.blob);
        item.executable = change.mode == GIT_FILEMODE_BLOB_EXECUTABLE;
        item.new_index = IndexSlot{*item.new_blob, static_cast<std::uint32_t>(change.mode)};
        item.temp = fmt::format("w{}", n);
        item.temp_inode = create_file(temp_folder / item.temp, *plan.changes.at(change.path),
                                      item.executable, change.path);
        fault_point("temp");
      }
      ++n;
      journal.paths.push_back(std::move(item));
    }
  }
  const fs::path lock_owner = temp_folder / "index-lock-owner";
  journal.index_lock_inode = create_file(lock_owner, {}, false, lock_owner.string());
  // Objects and new files reach the disk before the journal that refers to them.
  sync_landing(git_dir, workdir, journal, false);
  write_journal(git_dir, journal);
  temp_cleanup.keep = true;  // from now on the journal owns the temp folder
  fault_point("journal");

  // From here to the branch move, any failure puts everything back through the journal.
  std::optional<IndexLock> index_lock;
  bool worktree_touched = false;
  try {
    index_lock.emplace(index_path, lock_owner);
    fault_point("index-lock");
    const fs::path copy_path = temp_folder / "index";
    const IndexPtr index = open_index_copy(index_path, copy_path);

    // The lock before the read: nothing this run read may have moved since.
    if (ref_target(raw_repo, head.ref_name) != old_head) {
      throw Error("{} moved while git-vault was running; nothing was changed, run it again",
                  head.ref_name);
    }
    for (const JournalPath& item : journal.paths) {
      if (slot_of(index.get(), item.path) != item.old_index) {
        throw Error(describe_mismatch("the staged " + item.path));
      }
    }
    check_unchanged(journal, stamps, workdir);
    if (options.read_state) {
      ReadState now;
      now.paths = options.read_state->paths;
      now.head = old_head;
      collect_index(index.get(), now.paths, now);
      collect_files(workdir, now.paths, now);
      if (const auto what = first_difference(*options.read_state, now)) {
        throw Error(describe_mismatch(*what));
      }
    }

    // The work tree: old files keep a hard link in the temp folder until the landing is over.
    worktree_touched = true;
    std::set<std::string> synced_dirs;
    for (const JournalPath& item : journal.paths) {
      const fs::path target = workdir / item.path;
      if (!item.backup.empty() &&
          ::link(target.c_str(), (temp_folder / item.backup).c_str()) != 0) {
        throw Error("{}: cannot keep the old file: {}", item.path, errno_text());
      }
      if (!item.temp.empty()) {
        make_parents(workdir, item.path);
        if (::rename((temp_folder / item.temp).c_str(), target.c_str()) != 0) {
          throw Error("{}: cannot write: {}", item.path, errno_text());
        }
      } else {
        if (::unlink(target.c_str()) != 0 && errno != ENOENT) {
          throw Error("{}: cannot delete: {}", item.path, errno_text());
        }
        remove_empty_parents(workdir, target.parent_path());
      }
      fault_point("worktree");
    }

    // The index: the plan's entries, with the stat data of the files now in place.
    std::set<std::string> ours;
    for (const JournalPath& item : journal.paths) {
      ours.insert(item.path);
    }
    smudge_racily_clean(index.get(), ours, mtime_seconds(index_path));
    for (const JournalPath& item : journal.paths) {
      const fs::path target = workdir / item.path;
      set_slot(index.get(), item.path, item.new_index, &target);
    }
    commit_index_copy(index.get(), copy_path, index_path);
    sync_landing(git_dir, workdir, journal, true);

    if (options.before_ref_update) {
      options.before_ref_update();
    }

    // The commit point. Compare-and-swap under the ref's lock: the branch moves only if it
    // still points where it did when we read it. libgit2 fsyncs the ref file and its folder for
    // this one move. A kill while the lock exists leaves it; recovery owns it (settle_ref_lock).
    const std::string reflog =
        fmt::format("commit{}: {}", options.amend ? " (amend)" : (head.old_id ? "" : " (initial)"),
                    plan.subject);
    git_libgit2_opts(GIT_OPT_ENABLE_FSYNC_GITDIR, 1);
    try {
      RefMove move(raw_repo, head.ref_name, ref_lock_path(repo, head.ref_name));
      fault_point("ref-lock");
      move.move(old_head, commit_id, reflog);
    } catch (...) {
      git_libgit2_opts(GIT_OPT_ENABLE_FSYNC_GITDIR, util::k_has_syncfs ? 0 : 1);
      throw;
    }
    git_libgit2_opts(GIT_OPT_ENABLE_FSYNC_GITDIR, util::k_has_syncfs ? 0 : 1);
  } catch (...) {
    // Any failure, out of memory too: the work tree and the index go back as they were (what
    // cannot be put back now, the journal's recovery does).
    if (ref_target(raw_repo, head.ref_name) == new_id) {
      throw;  // cannot happen: the branch move is the last step that throws
    }
    Settled settled;
    if (worktree_touched) {
      settle_worktree(repo, journal, false, settled);
    }
    if (index_lock) {
      index_lock->hand_over();
      settle_index(repo, journal, false);
    }
    finish_cleanup(repo);
    throw;
  }
  fault_point("ref");
  defer.landed(new_id);

  // The records the commit folded leave their log before the journal goes: a kill from here on
  // is completed by the recovery, which drops them if this run did not.
  if (journal.consumes) {
    fault_point("fold");
    try {
      (void)util::drop_prefix(*journal.consumes, [] { fault_point("fold-rename"); });
    } catch (const Error& e) {
      // The commit stands; the journal stays, so the next git-vault command drops them.
      index_lock.reset();
      util::print_warning(fmt::format(
          "{}; the records the commit {} folded are dropped by the next git-vault command",
          e.what(), new_id.substr(0, 12)));
      return new_id;
    }
    fault_point("fold-dropped");
  }

  // Done: the lock goes before the journal, so a stale lock always has a journal naming it.
  index_lock.reset();
  fault_point("unlock");
  remove_journal(git_dir);
  fault_point("done");
  remove_temp_dir(temp_folder);
  return new_id;
}

}  // namespace gv::git
