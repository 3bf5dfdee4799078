#include "core/git/repo.hpp"

#include <git2/sys/repository.h>  // git_repository_set_index
#include <sys/stat.h>

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <filesystem>
#include <string_view>

#include "core/error.hpp"
#include "core/git/handle.hpp"
#include "core/git/index_file.hpp"
#include "core/git/loose_object.hpp"

namespace gv::git {

namespace fs = std::filesystem;

namespace {

bool is_regular_mode(std::uint32_t mode) { return (mode & 0170000U) == 0100000U; }

fs::path dir_path(const char* raw) {
  if (raw == nullptr) {
    return {};
  }
  std::string text(raw);
  while (text.size() > 1 && text.back() == '/') {
    text.pop_back();
  }
  return fs::path(text);
}

bool iequals(std::string_view a, std::string_view b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
           return std::tolower(static_cast<unsigned char>(x)) ==
                  std::tolower(static_cast<unsigned char>(y));
         });
}

CommitPtr lookup_commit(git_repository* repo, const git_oid& id) {
  git_commit* raw = nullptr;
  check(git_commit_lookup(&raw, repo, &id), "look up commit " + to_hex(id));
  return CommitPtr{raw};
}

TreePtr lookup_tree(git_repository* repo, std::string_view tree_id) {
  const git_oid id = from_hex(tree_id, "tree");
  git_tree* raw = nullptr;
  check(git_tree_lookup(&raw, repo, &id), fmt::format("look up tree {}", tree_id));
  return TreePtr{raw};
}

// The entry at `path` in the tree `tree_id`; null when there is none.
TreeEntryPtr lookup_entry(git_repository* repo, std::string_view tree_id, std::string_view path) {
  const TreePtr tree = lookup_tree(repo, tree_id);
  const std::string path_text(path);
  git_tree_entry* raw_entry = nullptr;
  const int rc = git_tree_entry_bypath(&raw_entry, tree.get(), path_text.c_str());
  TreeEntryPtr entry{raw_entry};
  if (rc == GIT_ENOTFOUND) {
    return nullptr;
  }
  check(rc, "look up " + path_text);
  return entry;
}

// The object `rev` names, peeled to a commit; nullopt when it names nothing.
CommitPtr peel_to_commit(git_repository* repo, std::string_view rev, bool missing_ok) {
  const std::string spec(rev);
  git_object* raw_object = nullptr;
  const int rc = git_revparse_single(&raw_object, repo, spec.c_str());
  ObjectPtr object{raw_object};
  if (rc == GIT_ENOTFOUND && missing_ok) {
    return nullptr;
  }
  check(rc, fmt::format("resolve revision '{}'", rev));
  git_object* raw_peeled = nullptr;
  check(git_object_peel(&raw_peeled, object.get(), GIT_OBJECT_COMMIT),
        fmt::format("resolve revision '{}' to a commit", rev));
  ObjectPtr peeled{raw_peeled};
  // A peeled commit object is a git_commit; re-look it up so the handle has the right type.
  return lookup_commit(repo, *git_object_id(peeled.get()));
}

CommitInfo info_of(const git_commit* commit) {
  CommitInfo info;
  info.id = to_hex(*git_commit_id(commit));
  info.tree = to_hex(*git_commit_tree_id(commit));
  const unsigned count = git_commit_parentcount(commit);
  for (unsigned i = 0; i < count; ++i) {
    info.parents.push_back(to_hex(*git_commit_parent_id(commit, i)));
  }
  const char* message = git_commit_message(commit);  // borrowed: valid while `commit` lives
  info.message = message == nullptr ? std::string{} : std::string(message);
  info.summary = info.message.substr(0, info.message.find('\n'));
  info.time = git_commit_time(commit);
  const git_signature* author = git_commit_author(commit);  // borrowed from `commit`
  info.author_name = author->name;
  info.author_email = author->email;
  info.author_time = author->when.time;
  info.trailers = parse_trailers(info.message);
  return info;
}

// A walk over HEAD's history, newest first; an empty walk for an unborn branch.
RevwalkPtr walk_from_head(git_repository* repo, bool* unborn) {
  git_revwalk* raw = nullptr;
  check(git_revwalk_new(&raw, repo), "start a history walk");
  RevwalkPtr walk{raw};
  check(git_revwalk_sorting(walk.get(), GIT_SORT_TOPOLOGICAL | GIT_SORT_TIME), "sort history walk");
  const int born = git_repository_head_unborn(repo);
  check(born, "read HEAD");
  *unborn = born == 1;
  if (!*unborn) {
    check(git_revwalk_push_head(walk.get()), "walk history from HEAD");
  }
  return walk;
}

IndexPtr repo_index(git_repository* repo) {
  git_index* raw = nullptr;
  check(git_repository_index(&raw, repo), "open the git index");
  return IndexPtr{raw};
}

bool index_entry_is_file(const git_index_entry& entry) {
  return GIT_INDEX_ENTRY_STAGE(&entry) == 0 && is_regular_mode(entry.mode) &&
         (entry.flags_extended & GIT_INDEX_ENTRY_INTENT_TO_ADD) == 0;
}

void collect_tree(git_repository* repo, const git_tree* tree, const std::string& base,
                  std::string_view prefix, std::vector<SnapshotEntry>& out) {
  const std::size_t count = git_tree_entrycount(tree);
  for (std::size_t i = 0; i < count; ++i) {
    const git_tree_entry* entry = git_tree_entry_byindex(tree, i);  // borrowed from `tree`
    std::string path = base + git_tree_entry_name(entry);
    const git_object_t type = git_tree_entry_type(entry);
    if (type == GIT_OBJECT_TREE) {
      path += '/';
      if (!path.starts_with(prefix) && !prefix.starts_with(path)) {
        continue;
      }
      git_tree* raw = nullptr;
      check(git_tree_lookup(&raw, repo, git_tree_entry_id(entry)), "read tree " + path);
      const TreePtr subtree{raw};
      collect_tree(repo, subtree.get(), path, prefix, out);
    } else if (type == GIT_OBJECT_BLOB && is_regular_mode(git_tree_entry_filemode(entry)) &&
               path.starts_with(prefix)) {
      out.push_back({std::move(path), to_hex(*git_tree_entry_id(entry))});
    }
  }
}

// git reads its global and system config from the files GIT_CONFIG_GLOBAL and GIT_CONFIG_SYSTEM
// name (and no system config under GIT_CONFIG_NOSYSTEM); libgit2 1.5 knows none of these and
// reads ~/.gitconfig and /etc/gitconfig. So replace those levels of the repository's config as
// git would: a `core.hooksPath` set only in GIT_CONFIG_GLOBAL's file is where git runs hooks
// from, and must be where git-vault looks for them. `/dev/null` reads as an empty config.
void use_config_environment(git_repository* repo) {
  const char* global = std::getenv("GIT_CONFIG_GLOBAL");
  const char* system = std::getenv("GIT_CONFIG_SYSTEM");
  const char* no_system = std::getenv("GIT_CONFIG_NOSYSTEM");
  const bool skip_system = no_system != nullptr && *no_system != '\0' &&
                           std::string_view(no_system) != "0" &&
                           std::string_view(no_system) != "false";
  if (global == nullptr && system == nullptr && !skip_system) {
    return;
  }
  git_config* raw = nullptr;
  check(git_repository_config(&raw, repo), "open git config");
  const ConfigPtr config{raw};
  const auto replace = [&](git_config_level_t level, const char* path, std::string_view what) {
    check(git_config_add_file_ondisk(config.get(), path, level, repo, /*force=*/1),
          fmt::format("read {} {}", what, path));
  };
  if (global != nullptr) {
    // Set, git reads this file instead of both ~/.gitconfig and $XDG_CONFIG_HOME/git/config.
    replace(GIT_CONFIG_LEVEL_GLOBAL, *global != '\0' ? global : "/dev/null", "GIT_CONFIG_GLOBAL");
    replace(GIT_CONFIG_LEVEL_XDG, "/dev/null", "GIT_CONFIG_GLOBAL");
  }
  if (skip_system) {
    replace(GIT_CONFIG_LEVEL_SYSTEM, "/dev/null", "GIT_CONFIG_NOSYSTEM");
  } else if (system != nullptr) {
    replace(GIT_CONFIG_LEVEL_SYSTEM, *system != '\0' ? system : "/dev/null", "GIT_CONFIG_SYSTEM");
  }
}

}  // namespace

void Repo::Deleter::operator()(git_repository* repo) const noexcept { git_repository_free(repo); }

struct Repo::IndexCache {
  bool valid = false;
  struct stat stamp {};
  std::shared_ptr<const IndexFile> file;
};

Repo::Repo(std::unique_ptr<git_repository, Deleter> repo)
    : m_repo(std::move(repo)), m_index_cache(std::make_unique<IndexCache>()) {
  use_config_environment(m_repo.get());
}
Repo::Repo(Repo&&) noexcept = default;
Repo& Repo::operator=(Repo&&) noexcept = default;
Repo::~Repo() = default;

Repo Repo::discover(const fs::path& start) {
  git_repository* raw = nullptr;
  const int rc = git_repository_open_ext(&raw, start.c_str(), 0, nullptr);
  std::unique_ptr<git_repository, Deleter> repo{raw};
  if (rc == GIT_ENOTFOUND) {
    throw Error("not a git repository (or any parent up to the root): {}", start.string());
  }
  check(rc, "open repository at " + start.string());
  return Repo(std::move(repo));
}

namespace {

// Hides one environment variable while libgit2 opens the repository, then puts it back for the
// processes git-vault starts. Only used at start-up, before any other thread exists.
class HiddenVariable {
 public:
  explicit HiddenVariable(const char* name) : m_name(name) {
    if (const char* value = std::getenv(name); value != nullptr) {
      m_value = value;
      ::unsetenv(name);
    }
  }
  ~HiddenVariable() {
    if (m_value) {
      ::setenv(m_name, m_value->c_str(), 1);
    }
  }
  HiddenVariable(const HiddenVariable&) = delete;
  HiddenVariable& operator=(const HiddenVariable&) = delete;

 private:
  const char* m_name;
  std::optional<std::string> m_value;
};

}  // namespace

Repo Repo::open_from_env() {
  const char* work_tree = std::getenv("GIT_WORK_TREE");
  const char* common_dir = std::getenv("GIT_COMMON_DIR");
  std::optional<fs::path> index_file;
  if (const char* value = std::getenv("GIT_INDEX_FILE"); value != nullptr) {
    index_file = fs::absolute(value);
  }
  // libgit2 would parse the whole index named by GIT_INDEX_FILE while opening; git-vault reads
  // it itself (index_entries) and hands it to libgit2 only when a call needs it there.
  const HiddenVariable hidden("GIT_INDEX_FILE");
  git_repository* raw = nullptr;
  if (work_tree == nullptr && common_dir == nullptr) {
    const int rc = git_repository_open_ext(&raw, nullptr, GIT_REPOSITORY_OPEN_FROM_ENV, nullptr);
    std::unique_ptr<git_repository, Deleter> repo{raw};
    check(rc, "open repository from the git environment");
    Repo out(std::move(repo));
    out.m_index_override = std::move(index_file);
    return out;
  }
  // libgit2 1.5 refuses FROM_ENV when GIT_WORK_TREE or GIT_COMMON_DIR is set, so do its work by
  // hand: open GIT_DIR (or search from the current directory), then apply the work tree. The
  // common dir follows from GIT_DIR's own `commondir` file.
  const char* git_dir = std::getenv("GIT_DIR");
  const fs::path start = git_dir != nullptr ? fs::absolute(git_dir) : fs::current_path();
  const unsigned flags =
      git_dir != nullptr ? static_cast<unsigned>(GIT_REPOSITORY_OPEN_NO_SEARCH) : 0U;
  const int rc = git_repository_open_ext(&raw, start.c_str(), flags, nullptr);
  std::unique_ptr<git_repository, Deleter> repo{raw};
  check(rc, "open repository at " + start.string());
  if (work_tree != nullptr) {
    const fs::path wanted = fs::absolute(work_tree);
    const fs::path current = dir_path(git_repository_workdir(repo.get()));
    std::error_code ignored;
    // Only switch when it differs: libgit2 1.5 leaks a buffer when set to the same folder.
    if (current.empty() || !fs::equivalent(current, wanted, ignored)) {
      check(git_repository_set_workdir(repo.get(), wanted.c_str(), 0),
            "use GIT_WORK_TREE " + wanted.string());
    }
  }
  Repo out(std::move(repo));
  out.m_index_override = std::move(index_file);
  return out;
}

git_repository* Repo::raw_with_index() const {
  if (m_index_override && !m_index_override_applied) {
    const std::string path = m_index_override->string();
    git_index* raw_index = nullptr;
    check(git_index_open(&raw_index, path.c_str()), "open GIT_INDEX_FILE " + path);
    const IndexPtr index{raw_index};
    // git_repository_set_index takes its own reference; ours is released by IndexPtr.
    check(git_repository_set_index(raw(), index.get()), "use GIT_INDEX_FILE " + path);
    m_index_override_applied = true;
  }
  return raw();
}

fs::path Repo::index_path() const {
  return m_index_override ? *m_index_override : git_dir() / "index";
}

std::shared_ptr<const IndexFile> Repo::index_file() const {
  IndexCache& cache = *m_index_cache;
  struct stat now {};
  const fs::path path = index_path();
  if (::stat(path.c_str(), &now) != 0) {
    now = {};  // absent: an empty index, re-read once it appears
  }
  const bool same = cache.valid && now.st_ino == cache.stamp.st_ino &&
                    now.st_dev == cache.stamp.st_dev && now.st_size == cache.stamp.st_size &&
                    now.st_mtim.tv_sec == cache.stamp.st_mtim.tv_sec &&
                    now.st_mtim.tv_nsec == cache.stamp.st_mtim.tv_nsec &&
                    now.st_ctim.tv_sec == cache.stamp.st_ctim.tv_sec &&
                    now.st_ctim.tv_nsec == cache.stamp.st_ctim.tv_nsec;
  if (!same) {
    std::optional<IndexFile> file = IndexFile::read(path);
    cache.file = file ? std::make_shared<const IndexFile>(std::move(*file)) : nullptr;
    cache.stamp = now;
    cache.valid = true;
  }
  return cache.file;
}

fs::path Repo::workdir() const { return dir_path(git_repository_workdir(raw())); }
fs::path Repo::git_dir() const { return dir_path(git_repository_path(raw())); }
fs::path Repo::common_dir() const { return dir_path(git_repository_commondir(raw())); }
bool Repo::is_bare() const { return git_repository_is_bare(raw()) != 0; }

std::optional<std::string> Repo::head_commit() const {
  git_oid id{};
  const int rc = git_reference_name_to_id(&id, raw(), "HEAD");
  if (rc == GIT_ENOTFOUND || rc == GIT_EUNBORNBRANCH) {
    return std::nullopt;
  }
  check(rc, "resolve HEAD");
  return to_hex(id);
}

std::string Repo::head_branch() const {
  // HEAD names the branch even while it is unborn; a detached HEAD names none.
  git_reference* head = nullptr;
  if (git_reference_lookup(&head, raw(), "HEAD") != 0) {
    return "HEAD";
  }
  std::string name = "detached HEAD";
  if (git_reference_type(head) == GIT_REFERENCE_SYMBOLIC) {
    name = git_reference_symbolic_target(head);
    constexpr std::string_view k_heads = "refs/heads/";
    if (name.starts_with(k_heads)) {
      name.erase(0, k_heads.size());
    }
  }
  git_reference_free(head);
  return name;
}

std::optional<std::string> Repo::head_tree() const {
  const std::optional<std::string> head = head_commit();
  if (!head) {
    return std::nullopt;
  }
  const CommitPtr commit = lookup_commit(raw(), from_hex(*head, "HEAD"));
  return to_hex(*git_commit_tree_id(commit.get()));
}

std::optional<std::string> Repo::resolve_commit(std::string_view rev) const {
  const CommitPtr commit = peel_to_commit(raw(), rev, true);
  if (!commit) {
    return std::nullopt;
  }
  return to_hex(*git_commit_id(commit.get()));
}

std::optional<std::string> Repo::read_blob(std::string_view oid) const {
  const git_oid id = from_hex(oid, "blob");
  git_blob* raw_blob = nullptr;
  const int rc = git_blob_lookup(&raw_blob, raw(), &id);
  const BlobPtr blob{raw_blob};
  if (rc == GIT_ENOTFOUND) {
    return std::nullopt;
  }
  check(rc, fmt::format("read blob {}", oid));
  const auto* bytes = static_cast<const char*>(git_blob_rawcontent(blob.get()));
  return std::string(bytes, static_cast<std::size_t>(git_blob_rawsize(blob.get())));
}

std::optional<std::string> Repo::read_blob_head(std::string_view oid, std::size_t max_bytes) const {
  if (std::optional<std::string> head = loose_blob_head(common_dir() / "objects", oid, max_bytes)) {
    return head;
  }
  std::optional<std::string> bytes = read_blob(oid);
  if (bytes && bytes->size() > max_bytes) {
    bytes->resize(max_bytes);
  }
  return bytes;
}

namespace {

// What a shallow clone lacks, said where git's own error (an object not found) would not.
constexpr std::string_view k_unshallow =
    "fetch the whole history (`git fetch --unshallow`, or `fetch-depth: 0` for "
    "actions/checkout) and run it again";

}  // namespace

std::vector<std::string> Repo::resolve_range(std::string_view range) const {
  const std::string spec_text(range);
  // Each end is resolved on its own first, so that an end naming nothing is named (as `review`
  // does) rather than reported as libgit2's "unknown error"; a failed git_revparse of a range
  // also leaks the end it did resolve.
  const std::size_t dots = range.find("..");
  const std::vector<std::string_view> ends =
      dots == std::string_view::npos
          ? std::vector<std::string_view>{range}
          : std::vector<std::string_view>{
                range.substr(0, dots),
                range.substr(dots + (range.substr(dots, 3) == "..." ? 3 : 2))};
  if (git_repository_is_shallow(raw()) != 1) {
    for (std::string_view end : ends) {
      if (!resolve_commit(std::string(end.empty() ? "HEAD" : end))) {
        throw UsageError("range '{}': '{}' names no commit", range, end.empty() ? "HEAD" : end);
      }
    }
  }
  git_revspec spec{};
  if (const int rc = git_revparse(&spec, raw(), spec_text.c_str()); rc < 0) {
    if (git_repository_is_shallow(raw()) == 1) {
      const git_error* error = git_error_last();
      throw Error(
          "resolve range '{}': {} (this clone is shallow, so older commits are not here; "
          "{})",
          range, error != nullptr ? error->message : "not found", k_unshallow);
    }
    check(rc, fmt::format("resolve range '{}'", range));
  }
  const ObjectPtr from{spec.from};
  const ObjectPtr to{spec.to};
  if ((spec.flags & GIT_REVSPEC_MERGE_BASE) != 0) {
    throw UsageError("range '{}': symmetric ranges (A...B) are not supported; use A..B", range);
  }
  const auto commit_id = [&](git_object* object) {
    git_object* raw_peeled = nullptr;
    check(git_object_peel(&raw_peeled, object, GIT_OBJECT_COMMIT),
          fmt::format("range '{}': resolve to a commit", range));
    const ObjectPtr peeled{raw_peeled};
    return *git_object_id(peeled.get());
  };
  if ((spec.flags & GIT_REVSPEC_SINGLE) != 0) {
    return {to_hex(commit_id(from.get()))};
  }
  // libgit2 1.5 does not know shallow clones: a walk that reaches where the history is cut fails
  // there (leaking as it does), or stops as if the range began at that commit, and the range
  // would look checked while most of it was not. A shallow clone is refused whole.
  if (git_repository_is_shallow(raw()) == 1) {
    throw Error(
        "range '{}': this is a shallow clone, where history is cut, so the range cannot be "
        "checked whole; {}",
        range, k_unshallow);
  }
  git_revwalk* raw_walk = nullptr;
  check(git_revwalk_new(&raw_walk, raw()), "start a history walk");
  const RevwalkPtr walk{raw_walk};
  check(git_revwalk_sorting(walk.get(), GIT_SORT_TOPOLOGICAL | GIT_SORT_REVERSE),
        "sort history walk");
  const git_oid to_id = commit_id(to.get());
  const git_oid from_id = commit_id(from.get());
  check(git_revwalk_push(walk.get(), &to_id), "walk range");
  check(git_revwalk_hide(walk.get(), &from_id), "walk range");
  std::vector<std::string> out;
  git_oid id{};
  int rc = 0;
  while ((rc = git_revwalk_next(&id, walk.get())) == 0) {
    out.push_back(to_hex(id));
  }
  if (rc != GIT_ITEROVER) {
    check(rc, fmt::format("walk range '{}'", range));
  }
  return out;
}

CommitInfo Repo::commit_info(std::string_view rev) const {
  const CommitPtr commit = peel_to_commit(raw(), rev, false);
  return info_of(commit.get());
}

std::vector<CommitInfo> Repo::commits_with_trailer(std::string_view key,
                                                   std::string_view value) const {
  bool unborn = false;
  const RevwalkPtr walk = walk_from_head(raw(), &unborn);
  std::vector<CommitInfo> out;
  if (unborn) {
    return out;
  }
  git_oid id{};
  while (git_revwalk_next(&id, walk.get()) == 0) {
    const CommitPtr commit = lookup_commit(raw(), id);
    const char* message = git_commit_message(commit.get());
    // Cheap rejection first: most commits do not mention the value at all.
    if (message == nullptr || std::string_view(message).find(value) == std::string_view::npos) {
      continue;
    }
    CommitInfo info = info_of(commit.get());
    const bool match =
        std::any_of(info.trailers.begin(), info.trailers.end(),
                    [&](const Trailer& t) { return iequals(t.key, key) && t.value == value; });
    if (match) {
      out.push_back(std::move(info));
    }
  }
  return out;
}

std::map<std::string, std::int64_t> Repo::first_seen_times(const std::vector<std::string>& paths,
                                                           std::size_t max_commits) const {
  std::map<std::string, std::int64_t> out;
  bool unborn = false;
  const RevwalkPtr walk = walk_from_head(raw(), &unborn);
  if (unborn || paths.empty()) {
    return out;
  }
  git_oid id{};
  for (std::size_t walked = 0; walked < max_commits && git_revwalk_next(&id, walk.get()) == 0;
       ++walked) {
    const CommitPtr commit = lookup_commit(raw(), id);
    const std::string tree = to_hex(*git_commit_tree_id(commit.get()));
    const std::int64_t time = git_commit_author(commit.get())->when.time;
    // Newest first: every older commit that still holds the path moves its time back.
    for (const std::string& path : paths) {
      if (tree_blob_id(tree, path)) {
        out[path] = time;
      }
    }
  }
  return out;
}

std::map<std::string, std::vector<std::string>> Repo::trailer_index(std::string_view key) const {
  bool unborn = false;
  const RevwalkPtr walk = walk_from_head(raw(), &unborn);
  std::map<std::string, std::vector<std::string>> out;
  if (unborn) {
    return out;
  }
  git_oid id{};
  while (git_revwalk_next(&id, walk.get()) == 0) {
    const CommitPtr commit = lookup_commit(raw(), id);
    const char* message = git_commit_message(commit.get());
    if (message == nullptr) {
      continue;
    }
    for (const Trailer& trailer : parse_trailers(message)) {
      if (iequals(trailer.key, key)) {
        out[trailer.value].push_back(to_hex(id));
      }
    }
  }
  return out;
}

std::optional<std::string> Repo::config_string(std::string_view key) const {
  git_config* raw_config = nullptr;
  check(git_repository_config_snapshot(&raw_config, raw()), "read git config");
  const ConfigPtr config{raw_config};
  const std::string name(key);
  BufScope value;
  const int rc = git_config_get_string_buf(&value.buf, config.get(), name.c_str());
  if (rc == GIT_ENOTFOUND) {
    return std::nullopt;
  }
  check(rc, "read git config " + name);
  return value.str();
}

void Repo::set_config_string(std::string_view key, std::string_view value) {
  git_config* raw_config = nullptr;
  check(git_repository_config(&raw_config, raw()), "open git config");
  const ConfigPtr config{raw_config};
  git_config* raw_local = nullptr;
  check(git_config_open_level(&raw_local, config.get(), GIT_CONFIG_LEVEL_LOCAL),
        "open the repository's git config");
  const ConfigPtr local{raw_local};
  const std::string name(key);
  const std::string text(value);
  check(git_config_set_string(local.get(), name.c_str(), text.c_str()), "set git config " + name);
}

std::vector<std::string> Repo::dirty_paths(const std::vector<std::string>& pathspecs) const {
  // libgit2 pathspecs match a directory by its name without the trailing slash.
  std::vector<std::string> specs;
  for (const std::string& spec : pathspecs) {
    std::string trimmed = spec;
    while (trimmed.size() > 1 && trimmed.back() == '/') {
      trimmed.pop_back();
    }
    specs.push_back(std::move(trimmed));
  }
  std::vector<char*> spec_ptrs;
  for (std::string& spec : specs) {
    spec_ptrs.push_back(spec.data());
  }
  git_status_options options = GIT_STATUS_OPTIONS_INIT;
  options.show = GIT_STATUS_SHOW_INDEX_AND_WORKDIR;
  options.flags = GIT_STATUS_OPT_INCLUDE_UNTRACKED | GIT_STATUS_OPT_RECURSE_UNTRACKED_DIRS |
                  GIT_STATUS_OPT_EXCLUDE_SUBMODULES;
  options.pathspec.strings = spec_ptrs.data();
  options.pathspec.count = spec_ptrs.size();
  git_status_list* raw_list = nullptr;
  check(git_status_list_new(&raw_list, raw_with_index(), &options), "read the work tree status");
  const StatusListPtr list{raw_list};
  std::vector<std::string> out;
  const std::size_t count = git_status_list_entrycount(list.get());
  for (std::size_t i = 0; i < count; ++i) {
    const git_status_entry* entry = git_status_byindex(list.get(), i);  // borrowed from `list`
    if (entry == nullptr || entry->status == GIT_STATUS_CURRENT) {
      continue;
    }
    const git_diff_delta* delta =
        entry->head_to_index != nullptr ? entry->head_to_index : entry->index_to_workdir;
    if (delta == nullptr) {
      continue;
    }
    const char* path =
        delta->new_file.path != nullptr ? delta->new_file.path : delta->old_file.path;
    out.emplace_back(path);
  }
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

bool Repo::is_ignored(std::string_view path) const {
  int ignored = 0;
  check(git_ignore_path_is_ignored(&ignored, raw(), std::string{path}.c_str()),
        "check whether " + std::string{path} + " is ignored");
  return ignored != 0;
}

std::vector<SnapshotEntry> Repo::index_entries(std::string_view prefix) const {
  std::vector<SnapshotEntry> out;
  if (const std::shared_ptr<const IndexFile> file = index_file()) {
    for (const IndexFile::Entry& entry : file->with_prefix(prefix)) {
      if (entry.is_committed_file()) {
        out.push_back({std::string(entry.path()), entry.oid_hex()});
      }
    }
    return out;
  }
  const IndexPtr index = repo_index(raw_with_index());
  const std::string prefix_text(prefix);
  std::size_t position = 0;
  const int rc = git_index_find_prefix(&position, index.get(), prefix_text.c_str());
  if (rc == GIT_ENOTFOUND) {
    return out;
  }
  check(rc, "search the git index");
  const std::size_t count = git_index_entrycount(index.get());
  for (; position < count; ++position) {
    const git_index_entry* entry = git_index_get_byindex(index.get(), position);  // borrowed
    if (entry == nullptr || !std::string_view(entry->path).starts_with(prefix)) {
      break;  // entries are sorted by path, so the prefix's range has ended
    }
    if (index_entry_is_file(*entry)) {
      out.push_back({entry->path, to_hex(entry->id)});
    }
  }
  return out;
}

std::optional<std::string> Repo::index_blob_id(std::string_view path) const {
  if (const std::shared_ptr<const IndexFile> file = index_file()) {
    const IndexFile::Entry* entry = file->find(path);
    if (entry == nullptr || !entry->is_committed_file()) {
      return std::nullopt;
    }
    return entry->oid_hex();
  }
  const IndexPtr index = repo_index(raw_with_index());
  const std::string path_text(path);
  const git_index_entry* entry = git_index_get_bypath(index.get(), path_text.c_str(), 0);
  if (entry == nullptr || !index_entry_is_file(*entry)) {
    return std::nullopt;
  }
  return to_hex(entry->id);
}

std::vector<SnapshotEntry> Repo::tree_entries(std::string_view tree_id,
                                              std::string_view prefix) const {
  TreePtr tree = lookup_tree(raw(), tree_id);
  std::vector<SnapshotEntry> out;
  // Jump straight to the deepest directory the prefix names; only its subtree can match.
  const auto slash = prefix.rfind('/');
  std::string base;
  if (slash != std::string_view::npos && slash > 0) {
    const std::string dir(prefix.substr(0, slash));
    git_tree_entry* raw_entry = nullptr;
    const int rc = git_tree_entry_bypath(&raw_entry, tree.get(), dir.c_str());
    const TreeEntryPtr entry{raw_entry};
    if (rc == GIT_ENOTFOUND) {
      return out;
    }
    check(rc, "look up " + dir);
    if (git_tree_entry_type(entry.get()) != GIT_OBJECT_TREE) {
      return out;
    }
    git_tree* raw_subtree = nullptr;
    check(git_tree_lookup(&raw_subtree, raw(), git_tree_entry_id(entry.get())), "read tree " + dir);
    tree = TreePtr{raw_subtree};
    base = dir + '/';
  }
  collect_tree(raw(), tree.get(), base, prefix, out);
  // Tree order puts `a/` after `a.b`; callers want plain byte order.
  std::sort(out.begin(), out.end(),
            [](const SnapshotEntry& a, const SnapshotEntry& b) { return a.path < b.path; });
  return out;
}

std::optional<std::string> Repo::tree_blob_id(std::string_view tree_id,
                                              std::string_view path) const {
  if (path.empty() || path.back() == '/') {
    return std::nullopt;
  }
  const TreeEntryPtr entry = lookup_entry(raw(), tree_id, path);
  if (!entry || git_tree_entry_type(entry.get()) != GIT_OBJECT_BLOB ||
      !is_regular_mode(git_tree_entry_filemode(entry.get()))) {
    return std::nullopt;
  }
  return to_hex(*git_tree_entry_id(entry.get()));
}

std::optional<std::string> Repo::subtree_id(std::string_view tree_id, std::string_view path) const {
  const TreeEntryPtr entry = lookup_entry(raw(), tree_id, path);
  if (!entry || git_tree_entry_type(entry.get()) != GIT_OBJECT_TREE) {
    return std::nullopt;
  }
  return to_hex(*git_tree_entry_id(entry.get()));
}

std::vector<TreeChange> Repo::diff_trees(std::string_view old_tree_id, std::string_view new_tree_id,
                                         std::string_view prefix) const {
  const TreePtr old_tree = lookup_tree(raw(), old_tree_id);
  const TreePtr new_tree = lookup_tree(raw(), new_tree_id);
  git_diff_options options = GIT_DIFF_OPTIONS_INIT;
  // No blob is read: the ids in the trees are all a caller needs.
  options.flags = GIT_DIFF_SKIP_BINARY_CHECK | GIT_DIFF_DISABLE_PATHSPEC_MATCH;
  std::string pathspec(prefix);
  char* pathspec_text = pathspec.data();
  options.pathspec.strings = &pathspec_text;
  options.pathspec.count = 1;
  git_diff* raw_diff = nullptr;
  check(git_diff_tree_to_tree(&raw_diff, raw(), old_tree.get(), new_tree.get(), &options),
        fmt::format("compare trees {} and {}", old_tree_id, new_tree_id));
  const DiffPtr diff{raw_diff};
  std::vector<TreeChange> out;
  const std::size_t count = git_diff_num_deltas(diff.get());
  for (std::size_t i = 0; i < count; ++i) {
    const git_diff_delta* delta = git_diff_get_delta(diff.get(), i);  // borrowed from `diff`
    const char* path =
        delta->new_file.path != nullptr ? delta->new_file.path : delta->old_file.path;
    if (path == nullptr || !std::string_view(path).starts_with(prefix)) {
      continue;
    }
    TreeChange change;
    change.path = path;
    if ((delta->old_file.flags & GIT_DIFF_FLAG_EXISTS) != 0 &&
        is_regular_mode(delta->old_file.mode)) {
      change.old_oid = to_hex(delta->old_file.id);
    }
    if ((delta->new_file.flags & GIT_DIFF_FLAG_EXISTS) != 0 &&
        is_regular_mode(delta->new_file.mode)) {
      change.new_oid = to_hex(delta->new_file.id);
    }
    if (change.old_oid != change.new_oid) {
      out.push_back(std::move(change));
    }
  }
  std::sort(out.begin(), out.end(),
            [](const TreeChange& a, const TreeChange& b) { return a.path < b.path; });
  return out;
}

}  // namespace gv::git
