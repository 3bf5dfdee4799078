#pragma once

#include <cstddef>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>

#include "core/dates.hpp"

namespace gv {
namespace util {
class Pager;
}  // namespace util

namespace git {
class Repo;
}
class PersistentParseCache;
class ParseCache;

// How a command should speak, decided once per process from the global options and the
// terminal (doc/architecture.md, "Output").
struct OutputSettings {
  bool json = false;     // --json: one document on stdout, nothing else there
  bool verbose = false;  // -v: explain what happens, on stderr
  bool quiet = false;    // -q: only errors and the results asked for
  // Rows of each list in human output before "... and N more" (0: all). --limit N; by default
  // 20 when a person reads the output on a terminal and every row when a program does.
  std::size_t limit = 0;
  bool pager = true;  // false with --no-pager
  // Colour on each stream: on a terminal unless NO_COLOR is set or color.ui says never
  // (`always` colours a pipe too). Set by Session::resolve_color().
  bool color_stdout = false;
  bool color_stderr = false;
  bool stdin_is_terminal = false;
  bool stdout_is_terminal = false;
  bool stderr_is_terminal = false;
  // A person can answer a prompt: stdin and stdout are both terminals.
  [[nodiscard]] bool interactive() const { return stdin_is_terminal && stdout_is_terminal; }
};

// What a command needs before it runs. The session provides each once per process.
enum class Need : unsigned {
  nothing = 0,
  repository = 1U << 0,   // an open repository (from the hook environment when GIT_DIR is set)
  work_tree = 1U << 1,    // ...that has a work tree (not bare)
  parse_cache = 1U << 2,  // the persisted parse cache of that repository
};
[[nodiscard]] constexpr Need operator|(Need a, Need b) {
  return static_cast<Need>(static_cast<unsigned>(a) | static_cast<unsigned>(b));
}
[[nodiscard]] constexpr bool has(Need set, Need one) {
  return (static_cast<unsigned>(set) & static_cast<unsigned>(one)) != 0;
}

// The one owner of a process's resources: the repository, the clock, the parse cache and the
// output settings, each opened once and handed to the commands that declared they need it.
// A long-lived process (`git vault mcp`) keeps one Session for all its requests; begin_request()
// re-reads the clock, and the repository objects re-read HEAD, the index and the work tree on
// every call, so files that change between requests are seen.
class Session {
 public:
  struct Options {
    std::optional<std::string> today;  // --today
    std::optional<std::string> now;    // --now
    OutputSettings output;
    // Start the repository search here (default: the current directory).
    std::optional<std::filesystem::path> start;
  };

  explicit Session(Options options);
  ~Session();  // saves the parse cache when it changed; never throws
  Session(const Session&) = delete;
  Session& operator=(const Session&) = delete;

  // Opens what `needs` names now, so a command fails before it starts work (for example
  // outside a repository). Throws gv::Error.
  void provide(Need needs);

  // The repository (opened on first use). Throws gv::Error when there is none.
  [[nodiscard]] git::Repo& repo();
  // The parse cache of the repository (loaded on first use); saved when the session ends or on
  // save_parse_cache().
  [[nodiscard]] ParseCache* parse_cache();
  // The same cache, with the lookups that read a cached row without decoding it (the gate's).
  [[nodiscard]] PersistentParseCache* persistent_parse_cache();
  void save_parse_cache();

  [[nodiscard]] const Clock& clock() const { return m_clock; }
  [[nodiscard]] const OutputSettings& output() const { return m_options.output; }

  // Sends the rest of stdout through the user's pager, as git does, when a person reads it on a
  // terminal: the pager is git's (GIT_PAGER, core.pager, PAGER, then `less`), or pager.vault
  // when that names a command; none with --no-pager, pager.vault=false, a pager of `cat`, or
  // when git already started one (GIT_PAGER_IN_USE). Commands whose output can run long call it
  // before printing; commands that prompt never do.
  void page();
  // Decides the colour of stdout and stderr (OutputSettings) from the terminals, NO_COLOR and
  // color.ui. After provide(): color.ui is read from the repository when there is one.
  void resolve_color();

  // For a long-lived process: the clock moves on (unless fixed by --today/--now or the
  // environment) before each request is served.
  void begin_request();

 private:
  std::unique_ptr<util::Pager> m_pager;  // first member: the last to go, after the cache save
  Options m_options;
  Clock m_clock;
  std::unique_ptr<git::Repo> m_repo;
  std::unique_ptr<PersistentParseCache> m_cache;
  std::filesystem::path m_cache_file;
};

// The output settings of this process's terminals, with the given flags.
[[nodiscard]] OutputSettings detect_output(bool json, bool verbose, bool quiet,
                                           std::optional<std::size_t> limit = std::nullopt);

}  // namespace gv
