#include "core/git/lock.hpp"

#include <fcntl.h>
#include <signal.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>
#if defined(__APPLE__)
#include <sys/sysctl.h>
#endif

#include <cerrno>
#include <charconv>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <sstream>
#include <thread>
#include <utility>

#include "core/error.hpp"
#include "core/util/message.hpp"

namespace gv::git {
namespace fs = std::filesystem;

namespace {

struct Owner {
  pid_t pid = 0;
  std::optional<std::uint64_t>
      start_time;  // absent in a lock written by hand or by an older git-vault
};

std::optional<Owner> parse_owner(std::string_view text) {
  Owner owner;
  const char* at = text.data();
  const char* const end = text.data() + text.size();
  long pid = 0;
  auto [next, ec] = std::from_chars(at, end, pid);
  if (ec != std::errc{} || pid <= 0) {
    return std::nullopt;
  }
  owner.pid = static_cast<pid_t>(pid);
  at = next;
  while (at < end && *at == ' ') {
    ++at;
  }
  std::uint64_t start = 0;
  if (auto [after, start_ec] = std::from_chars(at, end, start); start_ec == std::errc{}) {
    owner.start_time = start;
  }
  return owner;
}

std::string read_fd(int fd) {
  std::string text;
  char buffer[256];
  ::lseek(fd, 0, SEEK_SET);
  while (true) {
    const auto n = ::read(fd, buffer, sizeof buffer);
    if (n < 0 && errno == EINTR) {
      continue;
    }
    if (n <= 0) {
      return text;
    }
    text.append(buffer, static_cast<std::size_t>(n));
  }
}

bool owner_alive(const Owner& owner) {
  const std::optional<std::uint64_t> start = process_start_time(owner.pid);
  return start && (!owner.start_time || *owner.start_time == *start);
}

}  // namespace

namespace {

// Where there is no /proc. macOS gives the start time through sysctl(3); elsewhere it is 0 ("not
// known") for a live process, so the pid alone names the owner and the flock, which the kernel
// drops with its owner, tells a stale lock (core/git/lock.hpp).
std::optional<std::uint64_t> start_time_without_proc(pid_t pid) {
#if defined(__APPLE__)
  int name[] = {CTL_KERN, KERN_PROC, KERN_PROC_PID, static_cast<int>(pid)};
  struct kinfo_proc info {};
  std::size_t size = sizeof info;
  if (::sysctl(name, 4, &info, &size, nullptr, 0) != 0 || size == 0) {
    return std::nullopt;
  }
  const struct timeval start = info.kp_proc.p_starttime;
  return static_cast<std::uint64_t>(start.tv_sec) * 1'000'000 +
         static_cast<std::uint64_t>(start.tv_usec);
#else
  if (::kill(pid, 0) == 0 || errno == EPERM) {
    return 0;
  }
  return std::nullopt;
#endif
}

}  // namespace

std::optional<std::uint64_t> process_start_time(pid_t pid) {
  static const bool has_proc = ::access("/proc/self/stat", R_OK) == 0;
  if (!has_proc) {
    return start_time_without_proc(pid);
  }
  std::ifstream in(fmt::format("/proc/{}/stat", pid), std::ios::binary);
  if (!in) {
    return std::nullopt;
  }
  std::ostringstream text;
  text << in.rdbuf();
  const std::string stat = text.str();
  // Field 2 is the command name in parentheses and may itself hold spaces and parentheses.
  const std::size_t close = stat.rfind(')');
  if (close == std::string::npos) {
    return std::nullopt;
  }
  std::istringstream fields(stat.substr(close + 1));
  std::string field;
  // Fields 3..22 follow the name; the start time is the 20th of them.
  for (int i = 3; i <= 22; ++i) {
    if (!(fields >> field)) {
      return std::nullopt;
    }
  }
  std::uint64_t start = 0;
  const auto [end, ec] = std::from_chars(field.data(), field.data() + field.size(), start);
  if (ec != std::errc{}) {
    return std::nullopt;
  }
  return start;
}

int VaultLock::take(const fs::path& path, std::string& holder) {
  // A few rounds at most: each retry means the previous owner released the file between our
  // open and our flock, so the next round finds it gone or free.
  for (int attempt = 0; attempt < 8; ++attempt) {
    const int fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0644);
    if (fd < 0) {
      throw Error("{}: cannot create lock file: {}", path.string(), std::strerror(errno));
    }
    if (::flock(fd, LOCK_EX | LOCK_NB) != 0) {
      const int why = errno;
      if (why == EWOULDBLOCK || why == EINTR) {
        const std::optional<Owner> owner = parse_owner(read_fd(fd));
        ::close(fd);
        holder = owner ? fmt::format("process {}", owner->pid) : "another process";
        return -1;
      }
      // A file system without flock: the pid and start time below still decide.
    }
    struct stat opened {};
    struct stat named {};
    if (::fstat(fd, &opened) != 0 || ::lstat(path.c_str(), &named) != 0 ||
        opened.st_ino != named.st_ino || opened.st_dev != named.st_dev) {
      ::close(fd);
      continue;
    }
    const std::string content = read_fd(fd);
    if (const std::optional<Owner> owner = parse_owner(content)) {
      if (owner->pid != ::getpid() && owner_alive(*owner)) {
        ::close(fd);
        holder = fmt::format("process {}", owner->pid);
        return -1;
      }
      util::print_note(
          fmt::format("removed a stale lock left by process {}, which is no longer running ({})",
                      owner->pid, path.string()));
    } else if (!content.empty()) {
      util::print_note(
          fmt::format("removed a stale lock with unreadable contents ({})", path.string()));
    }
    const std::string mine =
        fmt::format("{} {}\n", ::getpid(), process_start_time(::getpid()).value_or(0));
    if (::ftruncate(fd, 0) != 0 ||
        ::pwrite(fd, mine.data(), mine.size(), 0) != static_cast<ssize_t>(mine.size())) {
      const std::string why = std::strerror(errno);
      ::close(fd);
      throw Error("{}: cannot write lock file: {}", path.string(), why);
    }
    return fd;
  }
  holder = "another process";
  return -1;
}

int VaultLock::take_waiting(const fs::path& path, std::chrono::milliseconds wait,
                            std::string& holder) {
  const auto deadline = std::chrono::steady_clock::now() + wait;
  auto pause = std::chrono::milliseconds(5);
  int fd = take(path, holder);
  while (fd < 0 && std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(
        std::min<std::chrono::nanoseconds>(pause, deadline - std::chrono::steady_clock::now()));
    pause = std::min(pause * 2, std::chrono::milliseconds(200));
    fd = take(path, holder);
  }
  return fd;
}

VaultLock::VaultLock(fs::path path, std::chrono::milliseconds wait) : m_path(std::move(path)) {
  std::string holder;
  m_fd = take_waiting(m_path, wait, holder);
  if (m_fd < 0) {
    throw Error(
        "another git-vault run is in progress ({} holds {}); wait for it to finish and try again",
        holder, m_path.string());
  }
}

VaultLock::VaultLock(fs::path path, int fd, Taken) : m_path(std::move(path)), m_fd(fd) {}

std::optional<VaultLock> VaultLock::try_take(fs::path path) {
  std::string holder;
  const int fd = take(path, holder);
  if (fd < 0) {
    return std::nullopt;
  }
  return VaultLock(std::move(path), fd, Taken{});
}

std::optional<VaultLock> VaultLock::take_within(fs::path path, std::chrono::milliseconds wait) {
  std::string holder;
  const int fd = take_waiting(path, wait, holder);
  if (fd < 0) {
    return std::nullopt;
  }
  return VaultLock(std::move(path), fd, Taken{});
}

VaultLock::VaultLock(VaultLock&& other) noexcept
    : m_path(std::move(other.m_path)), m_fd(std::exchange(other.m_fd, -1)) {}

VaultLock::~VaultLock() {
  if (m_fd >= 0) {
    // Unlinked while still held: a process that opened the old file retries on a fresh one.
    ::unlink(m_path.c_str());
    ::close(m_fd);
  }
}

}  // namespace gv::git
