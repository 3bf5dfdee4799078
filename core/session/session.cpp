#include "core/session/session.hpp"

#include <unistd.h>

#include <cstdlib>
#include <filesystem>

#include "core/error.hpp"
#include "core/gate/cached_gate.hpp"
#include "core/git/journal.hpp"
#include "core/git/repo.hpp"
#include "core/git/transaction.hpp"
#include "core/util/pager.hpp"
#include "core/util/progress.hpp"
#include "core/util/text.hpp"
#include "core/vault/parse_cache_file.hpp"

namespace gv {

Session::Session(Options options)
    : m_options(std::move(options)), m_clock(resolve_clock(m_options.today, m_options.now)) {
  util::enable_progress(m_options.output.stderr_is_terminal && !m_options.output.quiet);
}

Session::~Session() {
  try {
    save_parse_cache();
  } catch (...) {  // NOLINT(bugprone-empty-catch): a cache only costs speed next time
  }
}

void Session::resolve_color() {
  OutputSettings& output = m_options.output;
  std::string ui = "auto";
  if (m_repo) {
    ui = util::to_lower_ascii(util::trim(m_repo->config_string("color.ui").value_or("auto")));
  }
  const char* no_color = std::getenv("NO_COLOR");
  const bool off = (no_color != nullptr && *no_color != '\0') || ui == "never" || ui == "false" ||
                   ui == "no" || ui == "off" || ui == "0";
  const bool always = ui == "always";
  output.color_stdout = !off && (always || output.stdout_is_terminal);
  output.color_stderr = !off && (always || output.stderr_is_terminal);
}

void Session::page() {
  const OutputSettings& output = m_options.output;
  if (m_pager || !output.pager || !output.stdout_is_terminal ||
      std::getenv("GIT_PAGER_IN_USE") != nullptr) {
    return;
  }
  std::optional<std::string> configured;  // pager.vault, core.pager (need a repository)
  std::optional<std::string> core_pager;
  try {
    configured = repo().config_string("pager.vault");
    core_pager = repo().config_string("core.pager");
  } catch (const Error&) {  // outside a repository: the environment alone decides
  }
  std::string command;
  if (configured) {
    const std::string value = util::to_lower_ascii(util::trim(*configured));
    if (value == "false" || value == "no" || value == "off" || value == "0") {
      return;
    }
    if (value != "true" && value != "yes" && value != "on" && value != "1") {
      command = *configured;
    }
  }
  const auto env = [](const char* name) -> std::optional<std::string> {
    const char* value = std::getenv(name);
    return value != nullptr ? std::optional<std::string>(value) : std::nullopt;
  };
  if (command.empty()) {
    command = env("GIT_PAGER").value_or(core_pager.value_or(env("PAGER").value_or("less")));
  }
  if (util::trim(command).empty() || util::trim(command) == "cat") {
    return;
  }
  ::setenv("GIT_PAGER_IN_USE", "true", 1);  // what git sets, for commands we might start
  m_pager = std::make_unique<util::Pager>(command);
  util::enable_progress(false);  // the pager owns the terminal now
}

void Session::provide(Need needs) {
  if (has(needs, Need::repository) || has(needs, Need::work_tree) ||
      has(needs, Need::parse_cache)) {
    (void)repo();
  }
  if (has(needs, Need::work_tree) && m_repo->is_bare()) {
    throw Error("{}: this repository is bare; the vault lives in a work tree",
                m_repo->git_dir().string());
  }
  // The parse cache is loaded on first use: mapping megabytes is wasted on a run answered
  // without parsing (index --check of a recorded regeneration), and loading it cannot fail.
}

git::Repo& Session::repo() {
  if (!m_repo) {
    // Inside a hook, or under a user's GIT_DIR, git's environment names the repository and
    // the index being committed (during `git commit -a` that is not .git/index).
    bool from_env = false;
    for (const char* name : {"GIT_DIR", "GIT_INDEX_FILE", "GIT_WORK_TREE", "GIT_COMMON_DIR"}) {
      from_env = from_env || std::getenv(name) != nullptr;
    }
    const bool from_hook = from_env && !m_options.start;
    m_repo = std::make_unique<git::Repo>(
        from_hook ? git::Repo::open_from_env()
                  : git::Repo::discover(m_options.start.value_or(std::filesystem::current_path())));
    // A run killed mid-landing (SIGKILL, power loss) left its journal, and perhaps git's index
    // lock, which stops plain git until it is settled: every command settles it first, readers
    // too, except under a hook's GIT_INDEX_FILE, where git holds its index itself. One stat
    // when there is nothing to settle.
    if (std::getenv("GIT_INDEX_FILE") == nullptr && !m_repo->is_bare() &&
        std::filesystem::exists(git::journal_path(m_repo->git_dir()))) {
      (void)git::recover_interrupted_landing(*m_repo);
    }
  }
  return *m_repo;
}

ParseCache* Session::parse_cache() {
  if (!m_cache) {
    m_cache_file = gate_cache_file(repo());
    m_cache = std::make_unique<PersistentParseCache>(load_gate_cache(m_cache_file, GateOptions{}));
  }
  return m_cache.get();
}

PersistentParseCache* Session::persistent_parse_cache() {
  (void)parse_cache();
  return m_cache.get();
}

void Session::save_parse_cache() {
  if (m_cache && m_cache->dirty()) {
    (void)m_cache->save(m_cache_file);
  }
}

void Session::begin_request() { m_clock = resolve_clock(m_options.today, m_options.now); }

OutputSettings detect_output(bool json, bool verbose, bool quiet,
                             std::optional<std::size_t> limit) {
  OutputSettings output;
  output.json = json;
  output.verbose = verbose && !quiet;
  output.quiet = quiet;
  output.stdin_is_terminal = ::isatty(STDIN_FILENO) != 0;
  output.stdout_is_terminal = ::isatty(STDOUT_FILENO) != 0;
  output.stderr_is_terminal = ::isatty(STDERR_FILENO) != 0;
  constexpr std::size_t k_terminal_rows = 20;
  output.limit =
      limit.value_or(output.stdout_is_terminal || output.stderr_is_terminal ? k_terminal_rows : 0);
  return output;
}

}  // namespace gv
