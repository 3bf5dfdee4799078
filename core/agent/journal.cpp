#include "core/agent/journal.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <nlohmann/json.hpp>

#include "core/error.hpp"

namespace gv::agent {
namespace {

namespace fs = std::filesystem;

std::string errno_text() { return std::strerror(errno); }

// An open descriptor that closes itself.
class Fd {
 public:
  explicit Fd(int fd) : m_fd(fd) {}
  ~Fd() {
    if (m_fd >= 0) {
      ::close(m_fd);
    }
  }
  Fd(const Fd&) = delete;
  Fd& operator=(const Fd&) = delete;
  [[nodiscard]] int get() const { return m_fd; }
  int release() { return std::exchange(m_fd, -1); }

 private:
  int m_fd;
};

int open_journal(const fs::path& file, int flags) {
  std::error_code ignored;
  fs::create_directories(file.parent_path(), ignored);
  const int fd = ::open(file.c_str(), flags | O_CREAT | O_CLOEXEC, 0644);
  if (fd < 0) {
    throw Error("{}: cannot open the retrieval journal: {}", file.string(), errno_text());
  }
  return fd;
}

void lock(int fd, int operation, const fs::path& file) {
  while (::flock(fd, operation) != 0) {
    if (errno != EINTR) {
      throw Error("{}: cannot lock the retrieval journal: {}", file.string(), errno_text());
    }
  }
}

std::string read_all(int fd, const fs::path& file) {
  std::string bytes;
  char buffer[65536];
  off_t offset = 0;
  while (true) {
    const ssize_t got = ::pread(fd, buffer, sizeof buffer, offset);
    if (got < 0) {
      if (errno == EINTR) {
        continue;
      }
      throw Error("{}: cannot read the retrieval journal: {}", file.string(), errno_text());
    }
    if (got == 0) {
      return bytes;
    }
    bytes.append(buffer, static_cast<std::size_t>(got));
    offset += got;
  }
}

}  // namespace

fs::path journal_path(const fs::path& common_dir) {
  return common_dir / "git-vault" / "retrievals.jsonl";
}

std::string format_records(const std::vector<RetrievalRecord>& records) {
  std::string out;
  for (const RetrievalRecord& record : records) {
    nlohmann::ordered_json line{
        {"id", record.id}, {"date", format_date(record.date)}, {"via", record.via}};
    if (!record.session.empty()) {
      line["session"] = record.session;
    }
    out += line.dump(-1, ' ', false, nlohmann::ordered_json::error_handler_t::replace);
    out += '\n';
  }
  return out;
}

JournalTotals total_records(std::string_view bytes) {
  JournalTotals totals;
  std::size_t start = 0;
  while (start < bytes.size()) {
    std::size_t end = bytes.find('\n', start);
    if (end == std::string_view::npos) {
      end = bytes.size();
    }
    const std::string_view line = bytes.substr(start, end - start);
    start = end + 1;
    if (line.empty()) {
      continue;
    }
    const nlohmann::json record = nlohmann::json::parse(line, nullptr, false);
    const auto id = record.is_object() ? record.find("id") : record.end();
    const auto date_field = record.is_object() ? record.find("date") : record.end();
    std::optional<Date> date;
    if (date_field != record.end() && date_field->is_string()) {
      date = parse_date(date_field->get<std::string>());
    }
    if (id == record.end() || !id->is_string() || id->get<std::string>().empty() || !date) {
      ++totals.bad_lines;
      continue;
    }
    scoring::PendingRetrievals& slot = totals.by_id[id->get<std::string>()];
    ++slot.count;
    if (!slot.last_retrieved || *slot.last_retrieved < *date) {
      slot.last_retrieved = date;
    }
    ++totals.records;
  }
  return totals;
}

void append_records(const fs::path& file, const std::vector<RetrievalRecord>& records) {
  if (records.empty()) {
    return;
  }
  std::string bytes = format_records(records);
  const Fd fd(open_journal(file, O_RDWR | O_APPEND));
  // The lock orders us against a fold (which truncates under it); O_APPEND alone already keeps
  // two appenders from overwriting each other.
  lock(fd.get(), LOCK_EX, file);
  // A write torn by a crash leaves a last line without its newline: end it first, so that this
  // record is a line of its own and only the torn one is lost.
  struct stat st {};
  char last = '\n';
  if (::fstat(fd.get(), &st) == 0 && st.st_size > 0 &&
      ::pread(fd.get(), &last, 1, st.st_size - 1) == 1 && last != '\n') {
    bytes.insert(bytes.begin(), '\n');
  }
  std::size_t written = 0;
  while (written < bytes.size()) {
    const ssize_t n = ::write(fd.get(), bytes.data() + written, bytes.size() - written);
    if (n < 0) {
      if (errno == EINTR) {
        continue;
      }
      throw Error("{}: cannot append to the retrieval journal: {}", file.string(), errno_text());
    }
    written += static_cast<std::size_t>(n);
  }
}

JournalTotals read_journal(const fs::path& file) {
  const int raw = ::open(file.c_str(), O_RDONLY | O_CLOEXEC);
  if (raw < 0) {
    if (errno == ENOENT) {
      return {};
    }
    throw Error("{}: cannot open the retrieval journal: {}", file.string(), errno_text());
  }
  const Fd fd(raw);
  lock(fd.get(), LOCK_SH, file);
  return total_records(read_all(fd.get(), file));
}

JournalFold::JournalFold(const fs::path& file) {
  Fd fd(open_journal(file, O_RDWR));
  lock(fd.get(), LOCK_EX, file);
  m_totals = total_records(read_all(fd.get(), file));
  m_fd = fd.release();
}

JournalFold::~JournalFold() {
  if (m_fd >= 0) {
    ::close(m_fd);  // releases the lock
  }
}

void JournalFold::clear() {
  if (::ftruncate(m_fd, 0) != 0) {
    throw Error("cannot empty the retrieval journal: {}", errno_text());
  }
  m_totals = {};
}

}  // namespace gv::agent
