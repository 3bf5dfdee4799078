#include "core/agent/agent_hook.hpp"

#include <fcntl.h>
#include <fmt/format.h>
#include <spawn.h>
#include <sys/file.h>
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <filesystem>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <variant>

#include "cmd/command.hpp"
#include "core/agent/live_vault.hpp"
#include "core/error.hpp"
#include "core/git/repo.hpp"
#include "core/session/session.hpp"
#include "core/util/message.hpp"

// `git vault agent-hook`: the one command an agent's hooks run (doc/agent.md, "Agent hooks").
// Whatever happens, the agent is never blocked nor delayed past the time cap, and never reads
// anything on stdout but context: every failure is one line on stderr and exit 0 (doc/decisions.md,
// D20).
namespace gv::cmd {
namespace agent_hook_command {

using SteadyClock = std::chrono::steady_clock;

constexpr int k_default_cap_ms = 1000;
// Hook payloads are a few kilobytes; a prompt can be long, never this long.
constexpr std::size_t k_max_payload = 16 * 1024 * 1024;

struct Options {
  std::string agent = "claude";
  std::string warm;  // --warm DIR: build the caches of DIR's repository and print nothing
};

// Starts `git-vault agent-hook --warm <dir>` on its own, in a session of its own, reading and
// writing /dev/null: it outlives this process and holds nothing the agent waits on. Linux only
// (it runs this very binary through /proc/self/exe); elsewhere a cold cache is built by the next
// `git vault context` or search instead. Safe from the watchdog's thread: posix_spawn, no fork.
void spawn_warm_up(const std::string& dir) {
#if defined(__linux__) && defined(POSIX_SPAWN_SETSID)
  posix_spawn_file_actions_t files;
  if (posix_spawn_file_actions_init(&files) != 0) {
    return;
  }
  posix_spawnattr_t attributes;
  if (posix_spawnattr_init(&attributes) != 0) {
    posix_spawn_file_actions_destroy(&files);
    return;
  }
  for (const int fd : {STDIN_FILENO, STDOUT_FILENO, STDERR_FILENO}) {
    posix_spawn_file_actions_addopen(&files, fd, "/dev/null",
                                     fd == STDIN_FILENO ? O_RDONLY : O_WRONLY, 0);
  }
  posix_spawnattr_setflags(&attributes, POSIX_SPAWN_SETSID);
  std::string program = "git-vault";
  std::string command = "agent-hook";
  std::string flag = "--warm";
  std::string where = dir;
  char* argv[] = {program.data(), command.data(), flag.data(), where.data(), nullptr};
  pid_t pid = 0;
  (void)posix_spawn(&pid, "/proc/self/exe", &files, &attributes, argv, environ);
  posix_spawnattr_destroy(&attributes);
  posix_spawn_file_actions_destroy(&files);
#else
  (void)dir;
#endif
}

// GIT_VAULT_AGENT_HOOK_TIMEOUT_MS, else one second.
std::chrono::milliseconds time_cap() {
  const char* value = std::getenv("GIT_VAULT_AGENT_HOOK_TIMEOUT_MS");
  if (value != nullptr) {
    char* end = nullptr;
    const long ms = std::strtol(value, &end, 10);
    if (end != value && *end == '\0' && ms > 0 && ms <= 600000) {
      return std::chrono::milliseconds(ms);
    }
  }
  return std::chrono::milliseconds(k_default_cap_ms);
}

// Ends the process with exit 0 and a line on stderr when the work is not done by the cap. The
// work claims stdout before writing there, so the agent reads either the whole answer or nothing.
class Watchdog {
 public:
  explicit Watchdog(std::chrono::milliseconds cap) : m_cap(cap), m_thread([this] { watch(); }) {}
  ~Watchdog() {
    {
      const std::lock_guard lock(m_mutex);
      m_done = true;
    }
    m_wake.notify_one();
    m_thread.join();
  }
  Watchdog(const Watchdog&) = delete;
  Watchdog& operator=(const Watchdog&) = delete;

  // The project whose caches a run cut short by the cap has a warm-up build (empty: none).
  void warm_on_expiry(std::string dir) {
    const std::lock_guard lock(m_mutex);
    m_warm_dir = std::move(dir);
  }

  // True when the work may write its answer; false when the cap passed and the process is ending.
  bool claim() {
    int expected = k_running;
    return m_state.compare_exchange_strong(expected, k_answering) || expected == k_answering;
  }

 private:
  static constexpr int k_running = 0;
  static constexpr int k_answering = 1;
  static constexpr int k_expired = 2;

  void watch() {
    std::unique_lock lock(m_mutex);
    if (m_wake.wait_for(lock, m_cap, [this] { return m_done; })) {
      return;
    }
    int expected = k_running;
    if (m_state.compare_exchange_strong(expected, k_expired)) {
      const std::string line = fmt::format(
          "git-vault: warning: agent-hook: no answer within {} ms, so none is given; the agent "
          "goes on (GIT_VAULT_AGENT_HOOK_TIMEOUT_MS sets the limit)\n",
          m_cap.count());
      // Straight to the descriptor: stdio's lock may be held by the work being cut short.
      (void)!::write(STDERR_FILENO, line.data(), line.size());
      // What took the time is mostly building the search and parse caches of a large vault
      // (seconds at 10,000 memories, where a warm run takes tens of milliseconds): a run cut
      // short would never save them, and every later prompt would be cut short too. A process
      // of its own builds them, so the next prompt answers in time.
      if (!m_warm_dir.empty()) {
        spawn_warm_up(m_warm_dir);
      }
      std::_Exit(0);
    }
  }

  std::chrono::milliseconds m_cap;
  std::atomic<int> m_state{k_running};
  std::mutex m_mutex;
  std::condition_variable m_wake;
  bool m_done = false;
  std::string m_warm_dir;
  std::thread m_thread;
};

std::string read_payload() {
  if (::isatty(STDIN_FILENO) != 0) {
    throw Error("agent-hook reads an agent's hook payload (JSON) on stdin; none was given");
  }
  std::string bytes;
  char buffer[65536];
  while (true) {
    const ssize_t got = ::read(STDIN_FILENO, buffer, sizeof buffer);
    if (got < 0) {
      if (errno == EINTR) {
        continue;
      }
      throw Error("cannot read the hook payload: {}", std::strerror(errno));
    }
    if (got == 0) {
      return bytes;
    }
    bytes.append(buffer, static_cast<std::size_t>(got));
    if (bytes.size() > k_max_payload) {
      throw Error("the hook payload is larger than {} bytes", k_max_payload);
    }
  }
}

// The project the agent works in: what the agent names (CLAUDE_PROJECT_DIR, GEMINI_PROJECT_DIR),
// else the payload's `cwd`, else this process's directory.
std::filesystem::path project_dir(const agent::HookPayload& payload) {
  for (const char* name : {"CLAUDE_PROJECT_DIR", "GEMINI_PROJECT_DIR"}) {
    const char* value = std::getenv(name);
    if (value != nullptr && *value != '\0') {
      return value;
    }
  }
  if (!payload.cwd.empty()) {
    return payload.cwd;
  }
  return std::filesystem::current_path();
}

std::int64_t millisecond_now() {
  const auto since_epoch = std::chrono::system_clock::now().time_since_epoch();
  return std::chrono::duration_cast<std::chrono::milliseconds>(since_epoch).count() % 1000;
}

// A session on the repository at `start`, with the dates and output the command was given.
Session::Options session_at(std::filesystem::path start, const Globals& globals) {
  Session::Options options;
  options.today = globals.today;
  options.now = globals.now;
  options.output = globals.session->output();
  options.start = std::move(start);
  return options;
}

void note(std::string_view text) { util::print_warning(fmt::format("agent-hook: {}", text)); }

void answer(const Options& options, const Globals& globals, Watchdog& watchdog,
            SteadyClock::time_point deadline) {
  const std::variant<agent::HookPayload, std::string> read =
      agent::read_hook_payload(read_payload());
  if (const auto* why = std::get_if<std::string>(&read)) {
    note(*why);
    return;
  }
  const agent::HookPayload& payload = std::get<agent::HookPayload>(read);
  if (payload.kind == agent::HookKind::other) {
    return;
  }
  if (payload.kind == agent::HookKind::session_start || payload.kind == agent::HookKind::prompt) {
    watchdog.warm_on_expiry(std::filesystem::absolute(project_dir(payload)).string());
  }
  Session session(session_at(project_dir(payload), globals));
  git::Repo& repo = session.repo();
  if (repo.is_bare()) {
    throw Error("{}: a bare repository has no vault", repo.git_dir().string());
  }
  agent::HookSetting setting;
  setting.agent = *agent::hook_agent(options.agent);
  setting.clock = session.clock();
  setting.millisecond = millisecond_now();
  setting.deadline = deadline;
  const agent::HookAnswer result =
      agent::answer_hook(payload, repo, session.parse_cache(), setting);
  for (const std::string& line : result.notes) {
    note(line);
  }
  const std::string out = agent::hook_output(setting.agent, payload.event_name, result.context);
  if (!watchdog.claim()) {
    return;
  }
  if (!out.empty()) {
    std::fwrite(out.data(), 1, out.size(), stdout);
    std::fflush(stdout);
  }
  // Counted once the agent has the context, within what is left of the time cap.
  if (!result.retrieved.empty()) {
    try {
      if (!agent::record_hook_retrievals(repo, result.retrieved, payload, setting)) {
        note("retrievals not recorded: the retrieval journal stayed locked past the time limit");
      }
    } catch (const std::exception& e) {
      note(fmt::format("retrievals not recorded: {}", e.what()));
    }
  }
  const char* env_file = std::getenv("CLAUDE_ENV_FILE");
  if (payload.kind == agent::HookKind::session_start && setting.agent == agent::HookAgent::claude &&
      env_file != nullptr && *env_file != '\0') {
    try {
      agent::export_agent_session(env_file, payload.agent_session);
    } catch (const std::exception& e) {
      note(fmt::format("session id not exported: {}", e.what()));
    }
  }
}

// `agent-hook --warm DIR`: what a hook run cut short by the time cap starts (spawn_warm_up).
// Builds and saves the search cache and the parse cache of DIR's repository, one warm-up at a
// time (a second one finds the lock taken and leaves), and says nothing: nobody reads it.
int warm(const Options& options, const Globals& globals) {
  try {
    Session session(session_at(options.warm, globals));
    const git::Repo& repo = session.repo();
    const std::filesystem::path lock_path = repo.common_dir() / "git-vault" / "warm-up.lock";
    std::filesystem::create_directories(lock_path.parent_path());
    const int fd = ::open(lock_path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
    if (fd < 0) {
      return exit_code::k_ok;
    }
    if (::flock(fd, LOCK_EX | LOCK_NB) == 0) {
      agent::LiveVault live(repo, nullptr);
      live.refresh_search([&session] { return session.parse_cache(); });
      session.save_parse_cache();
    }
    ::close(fd);
  } catch (const std::exception&) {
    // Nothing to tell: the next hook or command builds the caches itself.
  }
  return exit_code::k_ok;
}

int run(const Options& options, const Globals& globals) {
  if (!options.warm.empty()) {
    return warm(options, globals);
  }
  const SteadyClock::time_point start = SteadyClock::now();
  const std::chrono::milliseconds cap = time_cap();
  Watchdog watchdog(cap);
  // Locks still held by a fold are given up a little before the cap, so the run ends by itself.
  const SteadyClock::time_point deadline = start + cap * 4 / 5;
  try {
    answer(options, globals, watchdog, deadline);
  } catch (const std::exception& e) {
    note(fmt::format("{}; no context given, the agent goes on", e.what()));
  }
  return exit_code::k_ok;
}

}  // namespace agent_hook_command

Runner define_agent_hook(CLI::App& app) {
  using namespace agent_hook_command;  // this file's own helpers
  auto options = std::make_shared<Options>();
  app.add_option("--agent", options->agent,
                 "Whose hook payload this is: claude (context as text), gemini or codex (context "
                 "as their hooks' JSON)")
      ->capture_default_str()
      ->check(CLI::IsMember(std::vector<std::string>{"claude", "gemini", "codex"}));
  // Internal: started by a run the time cap cut short (spawn_warm_up).
  app.add_option("--warm", options->warm, "Build the caches of the repository at DIR")->group("");
  app.footer(
      "Reads one hook payload on stdin. Prints only context, on stdout; says anything else on "
      "stderr and exits 0, within GIT_VAULT_AGENT_HOOK_TIMEOUT_MS (default 1000).");
  return [options](const Globals& globals) { return run(*options, globals); };
}

}  // namespace gv::cmd
