#pragma once

#include <filesystem>
#include <optional>
#include <span>
#include <string>
#include <string_view>

// Whole-file reads and atomic writes, the only way git-vault touches files outside the git
// object database and the Transaction (doc/architecture.md, "Files").
namespace gv::util {

// The bytes of `path`. Throws gv::Error `<path>: cannot read: <reason>`.
[[nodiscard]] std::string read_file(const std::filesystem::path& path);

// nullopt when `path` does not exist; otherwise as read_file.
[[nodiscard]] std::optional<std::string> read_file_if_exists(const std::filesystem::path& path);

// Replaces `path` with `bytes` so that a reader (or a crash) sees the old file or the new one,
// never a mix: a temporary file in the same directory, fsync, rename over the target, fsync of
// the directory. The temporary file is removed on failure. Throws gv::Error naming `path`.
// `executable` gives the file mode 0755 whatever the umask (git runs hooks only when they are).
void write_file_atomic(const std::filesystem::path& path, std::string_view bytes,
                       bool executable = false);

// Replaces `path` (creating its parent folders) with `bytes` through a temporary file renamed
// over it, so a reader sees the old file or the new one, but without syncing: for caches kept in
// the git dir, which may be lost in a crash and are rebuilt. Says whether it worked; never throws.
bool write_cache_file(const std::filesystem::path& path, std::string_view bytes);
// The same, from pieces written one after another (no buffer joins them first).
bool write_cache_file(const std::filesystem::path& path, std::span<const std::string_view> pieces);

// The temporary file a write of `path` goes through before its rename: `.<name>.tmp-<pid>` in
// the same folder. The pid keeps two processes' temporaries apart and tells whose it was.
[[nodiscard]] std::filesystem::path temp_sibling(const std::filesystem::path& path);

// Removes the temporaries (temp_sibling) in `dir` whose process is gone: a write killed before
// its rename leaves one, and nothing else ever would. Those of live processes stay. Never throws.
void remove_orphaned_temp_files(const std::filesystem::path& dir);

// Creates `path` (and its parent folders) holding `bytes` only when nothing is there, and says
// whether it did: O_EXCL makes "never rewrite an existing file" hold even against a file created
// a moment ago. A failed write removes the half-written file. Throws gv::Error naming `path`.
bool create_file_exclusive(const std::filesystem::path& path, std::string_view bytes);

// `repo_path` (relative to the work tree `workdir`) as a command typed in the current directory
// must name it: itself at the top of the work tree, `../x` one folder down. Messages print
// repository paths; a command to copy must work where the user is.
[[nodiscard]] std::string path_from_cwd(const std::filesystem::path& workdir,
                                        std::string_view repo_path);

// The same for many paths: the work tree and the current directory are resolved once (each
// resolution reads every link on the way), then each path is made relative without a system call.
class PathsFromCwd {
 public:
  explicit PathsFromCwd(const std::filesystem::path& workdir);
  [[nodiscard]] std::string operator()(std::string_view repo_path) const;

 private:
  std::filesystem::path m_top;
  std::filesystem::path m_cwd;
  bool m_same = true;  // at the top of the work tree, or either could not be resolved
};

}  // namespace gv::util
