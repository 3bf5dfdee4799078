#include "core/git/ref_lock.hpp"

#include <fcntl.h>
#include <fmt/format.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <utility>

#include "core/error.hpp"
#include "core/git/handle.hpp"
#include "core/git/journal.hpp"
#include "core/git/repo.hpp"
#include "core/util/fd.hpp"

namespace gv::git {

namespace fs = std::filesystem;

namespace {

constexpr std::string_view k_zero_id = "0000000000000000000000000000000000000000";

// The first `limit` bytes of the file at `path`, or nullopt when it cannot be opened.
std::optional<std::string> read_head_of(const fs::path& path, std::size_t limit) {
  const util::Fd fd(::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NOFOLLOW));
  if (fd.get() < 0) {
    return std::nullopt;
  }
  std::string bytes(limit, '\0');
  std::size_t got = 0;
  while (got < limit) {
    const ssize_t n = ::read(fd.get(), bytes.data() + got, limit - got);
    if (n < 0 && errno == EINTR) {
      continue;
    }
    if (n <= 0) {
      break;
    }
    got += static_cast<std::size_t>(n);
  }
  bytes.resize(got);
  return bytes;
}

std::int64_t mtime_ns(const struct stat& st) {
  return static_cast<std::int64_t>(st.st_mtim.tv_sec) * 1'000'000'000 + st.st_mtim.tv_nsec;
}

// The ref HEAD names (`refs/heads/main`), or `HEAD` when it is detached; nullopt when HEAD cannot
// be read.
std::optional<std::string> head_target(git_repository* repo) {
  git_reference* raw = nullptr;
  if (git_reference_lookup(&raw, repo, "HEAD") != 0) {
    return std::nullopt;
  }
  const ReferencePtr head{raw};
  if (git_reference_type(head.get()) == GIT_REFERENCE_SYMBOLIC) {
    return std::string(git_reference_symbolic_target(head.get()));
  }
  return std::string("HEAD");
}

// Takes the last line out of the reflog at `log` when it records the move `old_id -> new_id`
// (the line libgit2 appends before it renames the ref's lock). The caller holds the lock that
// guards this reflog, so nobody appends meanwhile.
void drop_last_reflog_line(const fs::path& log, std::string_view old_id, std::string_view new_id) {
  const util::Fd fd(::open(log.c_str(), O_RDWR | O_CLOEXEC | O_NOFOLLOW));
  struct stat st {};
  if (fd.get() < 0 || ::fstat(fd.get(), &st) != 0 || st.st_size == 0) {
    return;
  }
  // A reflog line is one id pair, a signature and a one-line message: the last 64 KiB hold it.
  const auto size = static_cast<std::size_t>(st.st_size);
  const std::size_t window = std::min<std::size_t>(size, 65536);
  std::string tail(window, '\0');
  if (::pread(fd.get(), tail.data(), window, static_cast<off_t>(size - window)) !=
      static_cast<ssize_t>(window)) {
    return;
  }
  // The last line, ended by a newline or (cut by the kill) not.
  const std::size_t search_end = tail.back() == '\n' ? window - 1 : window;
  const std::size_t newline =
      search_end == 0 ? std::string::npos : tail.rfind('\n', search_end - 1);
  if (newline == std::string::npos && window < size) {
    return;  // a line longer than the window is no line libgit2 wrote for us
  }
  const std::size_t start = newline == std::string::npos ? 0 : newline + 1;
  const std::string expected = fmt::format("{} {} ", old_id, new_id);
  if (std::string_view(tail).substr(start).starts_with(expected)) {
    const auto keep = static_cast<off_t>(size - window + start);
    if (::ftruncate(fd.get(), keep) == 0) {
      ::fsync(fd.get());
    }
  }
}

// Creates `lock` exclusively (as git does to guard a ref and its reflog) and removes it again on
// scope exit; held() is false when it exists already.
class ShortLock {
 public:
  explicit ShortLock(fs::path lock) : m_lock(std::move(lock)) {
    const int fd = ::open(m_lock.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
    m_held = fd >= 0;
    if (m_held) {
      ::close(fd);
    }
  }
  ~ShortLock() {
    if (m_held) {
      ::unlink(m_lock.c_str());
    }
  }
  ShortLock(const ShortLock&) = delete;
  ShortLock& operator=(const ShortLock&) = delete;
  [[nodiscard]] bool held() const { return m_held; }

 private:
  fs::path m_lock;
  bool m_held = false;
};

}  // namespace

fs::path ref_lock_path(const Repo& repo, const std::string& ref) {
  return ref == "HEAD" ? repo.git_dir() / "HEAD.lock" : repo.common_dir() / (ref + ".lock");
}

std::optional<fs::path> head_ref_lock(const Repo& repo) {
  const std::optional<std::string> ref = head_target(repo.raw());
  if (!ref) {
    return std::nullopt;
  }
  fs::path lock = ref_lock_path(repo, *ref);
  struct stat st {};
  if (::lstat(lock.c_str(), &st) != 0) {
    return std::nullopt;
  }
  return lock;
}

std::string ref_lock_message(const fs::path& lock, const std::string& ref) {
  return fmt::format(
      "{} exists: another git command is updating {}, or one was killed while it did; nothing "
      "was changed. If no git command is running, remove that file and run git-vault again",
      lock.string(), ref);
}

RefMove::RefMove(git_repository* repo, std::string ref, const fs::path& lock_path)
    : m_repo(repo), m_ref(std::move(ref)) {
  check(git_transaction_new(&m_transaction, m_repo), "start moving " + m_ref);
  const int rc = git_transaction_lock_ref(m_transaction, m_ref.c_str());
  if (rc == 0) {
    return;
  }
  // A constructor that throws runs no destructor: the transaction is freed here.
  const auto free_transaction = [this] {
    git_transaction_free(std::exchange(m_transaction, nullptr));
  };
  if (rc == GIT_ELOCKED) {
    free_transaction();
    // libgit2 says "failed to lock file … for writing: " with no reason: say who holds it.
    throw Error("{}", ref_lock_message(lock_path, m_ref));
  }
  try {
    check(rc, "lock " + m_ref);
  } catch (...) {
    free_transaction();
    throw;
  }
}

RefMove::~RefMove() {
  git_transaction_free(m_transaction);  // removes the lock unless the move was committed
}

void RefMove::move(const std::optional<std::string>& expected, const git_oid& target,
                   const std::string& reflog_message) {
  git_oid now{};
  const int rc = git_reference_name_to_id(&now, m_repo, m_ref.c_str());
  if (rc != GIT_ENOTFOUND) {
    check(rc, "resolve " + m_ref);
  }
  const std::optional<std::string> current =
      rc == GIT_ENOTFOUND ? std::nullopt : std::optional<std::string>(to_hex(now));
  if (current != expected) {
    throw Error("{} moved while git-vault was running; nothing was changed, run it again", m_ref);
  }
  // A null signature: the reflog names whoever git's configuration names, as before.
  check(git_transaction_set_target(m_transaction, m_ref.c_str(), &target, nullptr,
                                   reflog_message.c_str()),
        "move " + m_ref);
  check(git_transaction_commit(m_transaction), "move " + m_ref);
}

bool settle_ref_lock(const Repo& repo, const Journal& journal, bool forward,
                     std::int64_t journal_mtime_ns) {
  if (!journal.commit || journal.ref.empty() || !journal.new_head) {
    return false;
  }
  const fs::path lock = ref_lock_path(repo, journal.ref);
  struct stat st {};
  if (::lstat(lock.c_str(), &st) != 0 || !S_ISREG(st.st_mode)) {
    return false;
  }
  const std::optional<std::string> content = read_head_of(lock, 128);
  if (!content) {
    return false;
  }
  const bool holds_new = *content == *journal.new_head + "\n";
  const bool ours = holds_new || (content->empty() && mtime_ns(st) >= journal_mtime_ns);
  if (!ours) {
    return false;
  }
  if (!forward) {
    // The lock guards the ref's reflog; git guards HEAD's reflog with HEAD's lock.
    const std::string old_id = journal.old_head.value_or(std::string(k_zero_id));
    const fs::path logs_common = repo.common_dir() / "logs";
    if (journal.ref != "HEAD") {
      drop_last_reflog_line(logs_common / journal.ref, old_id, *journal.new_head);
      const ShortLock head_lock(repo.git_dir() / "HEAD.lock");
      if (head_lock.held() && head_target(repo.raw()) == journal.ref) {
        drop_last_reflog_line(repo.git_dir() / "logs" / "HEAD", old_id, *journal.new_head);
      }
    } else {
      drop_last_reflog_line(repo.git_dir() / "logs" / "HEAD", old_id, *journal.new_head);
    }
  }
  return ::unlink(lock.c_str()) == 0;
}

}  // namespace gv::git
