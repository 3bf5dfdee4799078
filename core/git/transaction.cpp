#include "core/git/transaction.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <map>
#include <set>
#include <utility>

#include "core/error.hpp"
#include "core/git/handle.hpp"
#include "core/git/repo.hpp"
#include "core/git/signature.hpp"

namespace gv::git {

namespace fs = std::filesystem;

namespace {

std::string errno_text() { return std::strerror(errno); }

// `<git dir>/vault.lock`, created exclusively so two runs never interleave; removed on scope exit.
class LockFile {
 public:
  explicit LockFile(fs::path path) : m_path(std::move(path)) {
    const int fd = ::open(m_path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
    if (fd < 0) {
      if (errno == EEXIST) {
        throw Error(
            "another git-vault run is in progress ({} exists); if no run is active, remove that "
            "file and try again",
            m_path.string());
      }
      throw Error("{}: cannot create lock file: {}", m_path.string(), errno_text());
    }
    const std::string pid = std::to_string(::getpid()) + "\n";
    // The pid only helps a human judge a stale lock; failing to write it is harmless.
    [[maybe_unused]] const auto written = ::write(fd, pid.data(), pid.size());
    ::close(fd);
  }
  ~LockFile() { ::unlink(m_path.c_str()); }
  LockFile(const LockFile&) = delete;
  LockFile& operator=(const LockFile&) = delete;

 private:
  fs::path m_path;
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

// The work tree side of a plan. prepare() writes every new file as a temporary file beside its
// target (creating folders as needed), so the steps that can fail for ordinary reasons (a
// missing permission, a file where a folder should be, a full disk) happen before the branch
// moves. finish() then only renames and unlinks. Without finish(), the destructor removes the
// temporary files and the folders prepare() created, leaving the work tree as it was.
class WorktreeUpdate {
 public:
  struct Item {
    std::string path;  // repo-relative
    fs::path target;   // absolute
    fs::path temp;     // empty for a deletion
    bool executable = false;
  };

  explicit WorktreeUpdate(fs::path workdir) : m_workdir(std::move(workdir)) {}
  ~WorktreeUpdate() {
    for (const Item& item : m_items) {
      if (!item.temp.empty()) {
        ::unlink(item.temp.c_str());
      }
    }
    if (!m_finished) {
      for (auto it = m_created_dirs.rbegin(); it != m_created_dirs.rend(); ++it) {
        ::rmdir(it->c_str());
      }
    }
  }
  WorktreeUpdate(const WorktreeUpdate&) = delete;
  WorktreeUpdate& operator=(const WorktreeUpdate&) = delete;

  void prepare_write(const std::string& path, const std::string& bytes, bool executable) {
    Item item{path, m_workdir / path, {}, executable};
    make_parents(path);
    struct stat st {};
    if (::lstat(item.target.c_str(), &st) == 0 && S_ISDIR(st.st_mode)) {
      throw Error("{}: is a directory in the work tree; cannot write the file", path);
    }
    item.temp = item.target.parent_path() /
                fmt::format(".{}.vault-tmp-{}", item.target.filename().string(), ::getpid());
    ::unlink(item.temp.c_str());  // a leftover from a crashed run with the same pid
    const int fd = ::open(item.temp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC,
                          executable ? 0777 : 0666);
    if (fd < 0) {
      throw Error("{}: cannot write: {}", path, errno_text());
    }
    m_items.push_back(item);  // from now on the destructor removes the temporary file
    std::size_t done = 0;
    while (done < bytes.size()) {
      const auto n = ::write(fd, bytes.data() + done, bytes.size() - done);
      if (n < 0) {
        if (errno == EINTR) {
          continue;
        }
        const std::string why = errno_text();
        ::close(fd);
        throw Error("{}: cannot write: {}", path, why);
      }
      done += static_cast<std::size_t>(n);
    }
    if (::close(fd) != 0) {
      throw Error("{}: cannot write: {}", path, errno_text());
    }
  }

  void prepare_delete(const std::string& path) {
    struct stat st {};
    const fs::path target = m_workdir / path;
    if (::lstat(target.c_str(), &st) == 0 && S_ISDIR(st.st_mode)) {
      throw Error("{}: is a directory in the work tree; cannot delete it as a file", path);
    }
    m_items.push_back({path, target, {}, false});
  }

  // Renames and unlinks; returns the paths that could not be updated (with the reason).
  std::vector<std::string> finish() {
    m_finished = true;
    std::vector<std::string> failed;
    for (Item& item : m_items) {
      if (!item.temp.empty()) {
        if (::rename(item.temp.c_str(), item.target.c_str()) != 0) {
          failed.push_back(fmt::format("{} ({})", item.path, errno_text()));
          continue;
        }
        item.temp.clear();
      } else if (::unlink(item.target.c_str()) != 0 && errno != ENOENT) {
        failed.push_back(fmt::format("{} ({})", item.path, errno_text()));
      } else {
        remove_empty_parents(item.target.parent_path());
      }
    }
    return failed;
  }

  [[nodiscard]] const std::vector<Item>& items() const { return m_items; }

 private:
  void make_parents(const std::string& path) {
    fs::path dir = m_workdir;
    const fs::path relative_parent = fs::path(path).parent_path();
    for (const fs::path& part : relative_parent) {
      dir /= part;
      if (::mkdir(dir.c_str(), 0777) == 0) {
        m_created_dirs.push_back(dir);
        continue;
      }
      struct stat st {};
      if (errno != EEXIST || ::stat(dir.c_str(), &st) != 0 || !S_ISDIR(st.st_mode)) {
        throw Error("{}: cannot create folder {}: {}", path, fs::relative(dir, m_workdir).string(),
                    errno == EEXIST ? "a file is in the way" : errno_text());
      }
    }
  }

  // git does not track empty folders, so a deletion takes its emptied folders with it.
  void remove_empty_parents(fs::path dir) const {
    while (dir != m_workdir && dir.string().size() > m_workdir.string().size()) {
      if (::rmdir(dir.c_str()) != 0) {
        return;
      }
      dir = dir.parent_path();
    }
  }

  fs::path m_workdir;
  std::vector<Item> m_items;
  std::vector<fs::path> m_created_dirs;
  bool m_finished = false;
};

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

struct Change {
  std::string path;
  std::optional<git_oid> blob;  // nullopt: deletion
  git_filemode_t mode = GIT_FILEMODE_BLOB;
  bool in_head = false;
};

// Git trusts an entry's stat data only when the entry is older than the index file, in whole
// seconds: an entry recorded in the same second as the index was written is "racily clean",
// and git compares its content instead, because the file may have changed within that second
// (staged, then edited to the same size). Rewriting the index gives it a later time and would
// make git trust such entries, hiding that edit. So, as git does when it writes an index, their
// recorded size is zeroed: git then compares content and sees the file as it really is.
void smudge_racily_clean(git_index* index, const std::vector<Change>& changes,
                         std::int64_t index_mtime_seconds) {
  std::set<std::string_view> ours;
  for (const Change& change : changes) {
    ours.insert(change.path);
  }
  // Copied out first (with their paths, which the index owns) so that no entry is read while
  // the index is being changed.
  std::vector<std::pair<git_index_entry, std::string>> smudged;
  const std::size_t count = git_index_entrycount(index);
  for (std::size_t i = 0; i < count; ++i) {
    const git_index_entry* entry = git_index_get_byindex(index, i);  // borrowed
    if (entry != nullptr && GIT_INDEX_ENTRY_STAGE(entry) == 0 && entry->file_size != 0 &&
        entry->mtime.seconds >= index_mtime_seconds && !ours.contains(entry->path)) {
      smudged.emplace_back(*entry, entry->path);
    }
  }
  for (auto& [entry, path] : smudged) {
    entry.path = path.c_str();
    entry.file_size = 0;
    check(git_index_add(index, &entry), "refresh " + path);
  }
}

void update_index(git_repository* repo, const std::vector<Change>& changes,
                  const fs::path& workdir) {
  git_index* raw = nullptr;
  check(git_repository_index(&raw, repo), "open the git index");
  const IndexPtr index{raw};
  // Reload, so that entries staged since this process opened the repository are kept.
  check(git_index_read(index.get(), 1), "read the git index");
  if (const char* index_path = git_index_path(index.get()); index_path != nullptr) {
    struct stat index_stat {};
    if (::stat(index_path, &index_stat) == 0) {
      smudge_racily_clean(index.get(), changes, index_stat.st_mtim.tv_sec);
    }
  }
  for (const Change& change : changes) {
    if (!change.blob) {
      check(git_index_remove_bypath(index.get(), change.path.c_str()),
            "remove " + change.path + " from the index");
      continue;
    }
    git_index_entry entry{};
    entry.mode = change.mode;
    entry.id = *change.blob;
    entry.path = change.path.c_str();
    // Record the file's stat data as git would, so `git status` need not rehash it.
    struct stat st {};
    if (::stat((workdir / change.path).c_str(), &st) == 0) {
      entry.ctime.seconds = static_cast<std::int32_t>(st.st_ctim.tv_sec);
      entry.ctime.nanoseconds = static_cast<std::uint32_t>(st.st_ctim.tv_nsec);
      entry.mtime.seconds = static_cast<std::int32_t>(st.st_mtim.tv_sec);
      entry.mtime.nanoseconds = static_cast<std::uint32_t>(st.st_mtim.tv_nsec);
      entry.dev = static_cast<std::uint32_t>(st.st_dev);
      entry.ino = static_cast<std::uint32_t>(st.st_ino);
      entry.uid = st.st_uid;
      entry.gid = st.st_gid;
      entry.file_size = static_cast<std::uint32_t>(st.st_size);
    }
    check(git_index_add(index.get(), &entry), "stage " + change.path);
  }
  check(git_index_write(index.get()), "write the git index");
}

}  // namespace

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

  const LockFile lock(repo.git_dir() / "vault.lock");

  if (!options.allow_dirty && !options.guarded_paths.empty()) {
    const std::vector<std::string> dirty = repo.dirty_paths(options.guarded_paths);
    if (!dirty.empty()) {
      throw Error("uncommitted changes in vault paths (commit or stash them first): {}",
                  join_paths(dirty, 5));
    }
  }

  WorktreeUpdate worktree(workdir);
  if (!options.commit) {
    for (const auto& [path, bytes] : plan.changes) {
      if (bytes) {
        struct stat st {};
        const bool executable =
            ::stat((workdir / path).c_str(), &st) == 0 && (st.st_mode & S_IXUSR) != 0;
        worktree.prepare_write(path, *bytes, executable);
      } else {
        worktree.prepare_delete(path);
      }
    }
    const std::vector<std::string> failed = worktree.finish();
    if (!failed.empty()) {
      throw Error("could not update the work tree: {}", join_paths(failed, 5));
    }
    return std::nullopt;
  }

  const HeadState head = read_head(raw_repo);
  const TreePtr base = head.old_id ? tree_of_commit(raw_repo, *head.old_id) : TreePtr{};

  // Blobs, then one tree built from HEAD's tree plus only the plan's paths.
  std::vector<Change> changes;
  std::vector<git_tree_update> updates;
  changes.reserve(plan.changes.size());
  for (const auto& [path, bytes] : plan.changes) {
    Change change{path, std::nullopt, GIT_FILEMODE_BLOB, false};
    const auto existing = entry_in(base.get(), path);
    if (existing) {
      if (existing->first != GIT_OBJECT_BLOB) {
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

  // Everything that can fail for ordinary reasons on disk happens now, before the branch moves.
  for (std::size_t i = 0; i < changes.size(); ++i) {
    const auto& bytes = plan.changes.at(changes[i].path);
    if (bytes) {
      worktree.prepare_write(changes[i].path, *bytes,
                             changes[i].mode == GIT_FILEMODE_BLOB_EXECUTABLE);
    } else {
      worktree.prepare_delete(changes[i].path);
    }
  }
  if (options.before_ref_update) {
    options.before_ref_update();
  }

  // Compare-and-swap: the branch moves only if it still points where it did when we read it.
  const std::string reflog = fmt::format(
      "commit{}: {}", options.amend ? " (amend)" : (head.old_id ? "" : " (initial)"), plan.subject);
  git_reference* raw_ref = nullptr;
  const int rc = head.old_id
                     ? git_reference_create_matching(&raw_ref, raw_repo, head.ref_name.c_str(),
                                                     &commit_id, 1, &*head.old_id, reflog.c_str())
                     : git_reference_create(&raw_ref, raw_repo, head.ref_name.c_str(), &commit_id,
                                            0, reflog.c_str());
  const ReferencePtr moved{raw_ref};
  if (rc == GIT_EMODIFIED || rc == GIT_EEXISTS) {
    throw Error("{} moved while git-vault was running; nothing was changed, run it again",
                head.ref_name);
  }
  check(rc, "move " + head.ref_name);

  // The commit is on the branch. What remains brings the work tree and the index in line.
  const std::string new_id = to_hex(commit_id);
  std::vector<std::string> failed = worktree.finish();
  try {
    update_index(raw_repo, changes, workdir);
  } catch (const Error& error) {
    failed.emplace_back(error.what());
  }
  if (!failed.empty()) {
    std::vector<std::string> paths;
    for (const Change& change : changes) {
      paths.push_back(change.path);
    }
    throw Error(
        "committed {} but could not update the work tree and index: {}; restore these paths "
        "from HEAD: {}",
        new_id.substr(0, 12), join_paths(failed, 5), join_paths(paths, 20));
  }
  return new_id;
}

}  // namespace gv::git
