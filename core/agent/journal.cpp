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
  // The lock orders us against a fold's drop (which replaces the file under it); O_APPEND alone
  // already keeps two appenders from overwriting each other.
  const util::LockedLog log(file, true, true);
  if (::fcntl(log.fd(), F_SETFL, O_APPEND) != 0) {
    throw Error("{}: cannot append to the retrieval journal: {}", file.string(), errno_text());
  }
  // A write torn by a crash leaves a last line without its newline: end it first, so that this
  // record is a line of its own and only the torn one is lost.
  struct stat st {};
  char last = '\n';
  if (::fstat(log.fd(), &st) == 0 && st.st_size > 0 &&
      ::pread(log.fd(), &last, 1, st.st_size - 1) == 1 && last != '\n') {
    bytes.insert(bytes.begin(), '\n');
  }
  std::size_t written = 0;
  while (written < bytes.size()) {
    const ssize_t n = ::write(log.fd(), bytes.data() + written, bytes.size() - written);
    if (n < 0) {
      if (errno == EINTR) {
        continue;
      }
      throw Error("{}: cannot append to the retrieval journal: {}", file.string(), errno_text());
    }
    written += static_cast<std::size_t>(n);
  }
}

JournalContents read_journal_contents(const fs::path& file,
                                      const std::vector<util::FilePrefix>& consumed) {
  const util::LockedLog log(file, false, false);
  JournalContents contents;
  if (log.absent()) {
    contents.read = util::prefix_of(file, 0, {});
    return contents;
  }
  const std::string bytes = log.read_all();
  const std::uint64_t skip = util::consumed_length(file, log.inode(), bytes, consumed);
  contents.totals = total_records(std::string_view(bytes).substr(skip));
  contents.read = util::prefix_of(file, log.inode(), bytes);
  return contents;
}

JournalTotals read_journal(const fs::path& file, const std::vector<util::FilePrefix>& consumed) {
  return read_journal_contents(file, consumed).totals;
}

}  // namespace gv::agent
