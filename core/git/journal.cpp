#include "core/git/journal.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <charconv>
#include <cstring>
#include <sstream>

#include "core/error.hpp"

namespace gv::git {
namespace fs = std::filesystem;

namespace {

constexpr std::string_view k_magic = "git-vault journal 1";

// Percent-encoding keeps a path of any bytes (spaces, tabs, newlines, invalid UTF-8) on one line
// and gives it back exactly.
std::string encode(std::string_view text) {
  std::string out;
  for (const char c : text) {
    const auto byte = static_cast<unsigned char>(c);
    if (byte <= 0x20 || byte == '%' || byte >= 0x7f) {
      out += fmt::format("%{:02X}", byte);
    } else {
      out += c;
    }
  }
  return out.empty() ? "%" : out;  // a lone `%` is the empty string
}

std::optional<std::string> decode(std::string_view text) {
  if (text == "%") {
    return std::string{};
  }
  std::string out;
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] != '%') {
      out += text[i];
      continue;
    }
    unsigned value = 0;
    if (i + 2 >= text.size()) {
      return std::nullopt;
    }
    const auto [end, ec] = std::from_chars(text.data() + i + 1, text.data() + i + 3, value, 16);
    if (ec != std::errc{} || end != text.data() + i + 3) {
      return std::nullopt;
    }
    out += static_cast<char>(value);
    i += 2;
  }
  return out;
}

std::string optional_text(const std::optional<std::string>& value) {
  return value ? encode(*value) : "-";
}

std::vector<std::string_view> split(std::string_view line, char separator) {
  std::vector<std::string_view> parts;
  std::size_t start = 0;
  while (true) {
    const std::size_t end = line.find(separator, start);
    parts.push_back(line.substr(start, end == std::string_view::npos ? end : end - start));
    if (end == std::string_view::npos) {
      return parts;
    }
    start = end + 1;
  }
}

template <class Number>
std::optional<Number> number(std::string_view text, int base = 10) {
  Number value{};
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value, base);
  if (ec != std::errc{} || end != text.data() + text.size()) {
    return std::nullopt;
  }
  return value;
}

std::string slot_text(const std::optional<IndexSlot>& slot) {
  return slot ? fmt::format("{:o}:{}", slot->mode, slot->oid) : "-";
}

std::optional<std::optional<IndexSlot>> parse_slot(std::string_view text) {
  if (text == "-") {
    return std::optional<IndexSlot>{};
  }
  const std::size_t colon = text.find(':');
  if (colon == std::string_view::npos) {
    return std::nullopt;
  }
  const auto mode = number<std::uint32_t>(text.substr(0, colon), 8);
  if (!mode) {
    return std::nullopt;
  }
  return std::optional<IndexSlot>{IndexSlot{std::string(text.substr(colon + 1)), *mode}};
}

std::string render(const Journal& journal) {
  std::string out = std::string(k_magic) + "\n";
  out += "subject " + encode(journal.subject) + "\n";
  out += fmt::format("commit {}\n", journal.commit ? 1 : 0);
  out += "ref " + encode(journal.ref) + "\n";
  out += "old " + optional_text(journal.old_head) + "\n";
  out += "new " + optional_text(journal.new_head) + "\n";
  out += "index " + encode(journal.index_path) + "\n";
  out += fmt::format("index-lock {}\n", journal.index_lock_inode);
  for (const std::string& dir : journal.created_dirs) {
    out += "dir " + encode(dir) + "\n";
  }
  for (const JournalPath& path : journal.paths) {
    out += fmt::format("path {} {} {} {} {} {} {} {} {}\n", encode(path.path),
                       optional_text(path.new_blob), path.executable ? 1 : 0,
                       path.temp.empty() ? "-" : encode(path.temp), path.temp_inode,
                       path.old_inode ? std::to_string(*path.old_inode) : "-",
                       path.backup.empty() ? "-" : encode(path.backup), slot_text(path.old_index),
                       slot_text(path.new_index));
  }
  if (journal.consumes) {
    out += fmt::format("consumes {} {} {} {}\n", encode(journal.consumes->path),
                       journal.consumes->inode, journal.consumes->length,
                       encode(journal.consumes->digest));
  }
  out += "end\n";
  return out;
}

bool parse_line(Journal& journal, std::string_view key, std::string_view value) {
  const auto text = [&]() { return decode(value); };
  if (key == "subject" || key == "ref" || key == "index" || key == "dir") {
    const std::optional<std::string> decoded = text();
    if (!decoded) {
      return false;
    }
    if (key == "subject") {
      journal.subject = *decoded;
    } else if (key == "ref") {
      journal.ref = *decoded;
    } else if (key == "index") {
      journal.index_path = *decoded;
    } else {
      journal.created_dirs.push_back(*decoded);
    }
    return true;
  }
  if (key == "commit") {
    journal.commit = value == "1";
    return value == "0" || value == "1";
  }
  if (key == "old" || key == "new") {
    std::optional<std::string>& head = key == "old" ? journal.old_head : journal.new_head;
    head = value == "-" ? std::nullopt : std::optional<std::string>(value);
    return true;
  }
  if (key == "index-lock") {
    const auto inode = number<std::uint64_t>(value);
    journal.index_lock_inode = inode.value_or(0);
    return inode.has_value();
  }
  if (key == "consumes") {
    const std::vector<std::string_view> fields = split(value, ' ');
    if (fields.size() != 4) {
      return false;
    }
    const auto path = decode(fields[0]);
    const auto inode = number<std::uint64_t>(fields[1]);
    const auto length = number<std::uint64_t>(fields[2]);
    const auto digest = decode(fields[3]);
    if (!path || !inode || !length || !digest) {
      return false;
    }
    journal.consumes = util::FilePrefix{*path, *inode, *length, *digest};
    return true;
  }
  if (key == "path") {
    const std::vector<std::string_view> fields = split(value, ' ');
    if (fields.size() != 9) {
      return false;
    }
    JournalPath path;
    const auto name = decode(fields[0]);
    const auto temp_inode = number<std::uint64_t>(fields[4]);
    const auto old_index = parse_slot(fields[7]);
    const auto new_index = parse_slot(fields[8]);
    if (!name || !temp_inode || !old_index || !new_index) {
      return false;
    }
    path.path = *name;
    if (fields[1] != "-") {
      path.new_blob = std::string(fields[1]);
    }
    path.executable = fields[2] == "1";
    path.temp = fields[3] == "-" ? "" : decode(fields[3]).value_or("");
    path.temp_inode = *temp_inode;
    if (fields[5] != "-") {
      path.old_inode = number<std::uint64_t>(fields[5]);
      if (!path.old_inode) {
        return false;
      }
    }
    path.backup = fields[6] == "-" ? "" : decode(fields[6]).value_or("");
    path.old_index = *old_index;
    path.new_index = *new_index;
    journal.paths.push_back(std::move(path));
    return true;
  }
  return false;
}

void write_all(int fd, std::string_view bytes, const fs::path& path) {
  std::size_t done = 0;
  while (done < bytes.size()) {
    const auto n = ::write(fd, bytes.data() + done, bytes.size() - done);
    if (n < 0 && errno == EINTR) {
      continue;
    }
    if (n < 0) {
      throw Error("{}: cannot write: {}", path.string(), std::strerror(errno));
    }
    done += static_cast<std::size_t>(n);
  }
}

}  // namespace

fs::path journal_path(const fs::path& git_dir) { return git_dir / "vault-journal"; }
fs::path temp_dir(const fs::path& git_dir) { return git_dir / "vault-tmp"; }

void sync_path(const fs::path& path) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    throw Error("{}: cannot open to sync: {}", path.string(), std::strerror(errno));
  }
  const int rc = ::fsync(fd);
  const int why = errno;
  ::close(fd);
  if (rc != 0 && why != EINVAL) {  // EINVAL: a file system that cannot sync this kind of file
    throw Error("{}: cannot sync: {}", path.string(), std::strerror(why));
  }
}

void write_journal(const fs::path& git_dir, const Journal& journal) {
  const fs::path target = journal_path(git_dir);
  const fs::path temp = git_dir / "vault-journal.new";
  const int fd = ::open(temp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0644);
  if (fd < 0) {
    throw Error("{}: cannot write: {}", temp.string(), std::strerror(errno));
  }
  try {
    write_all(fd, render(journal), temp);
    if (::fsync(fd) != 0) {
      throw Error("{}: cannot sync: {}", temp.string(), std::strerror(errno));
    }
  } catch (...) {
    ::close(fd);
    ::unlink(temp.c_str());
    throw;
  }
  ::close(fd);
  if (::rename(temp.c_str(), target.c_str()) != 0) {
    const std::string why = std::strerror(errno);
    ::unlink(temp.c_str());
    throw Error("{}: cannot write: {}", target.string(), why);
  }
  sync_path(git_dir);
}

std::optional<Journal> read_journal(const fs::path& git_dir) {
  const fs::path path = journal_path(git_dir);
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
  if (fd < 0) {
    if (errno == ENOENT) {
      return std::nullopt;
    }
    throw Error("{}: cannot read: {}", path.string(), std::strerror(errno));
  }
  std::string text;
  char buffer[65536];
  while (true) {
    const auto n = ::read(fd, buffer, sizeof buffer);
    if (n < 0 && errno == EINTR) {
      continue;
    }
    if (n <= 0) {
      break;
    }
    text.append(buffer, static_cast<std::size_t>(n));
  }
  ::close(fd);
  Journal journal;
  std::size_t line_number = 0;
  bool ended = false;
  for (const std::string_view line : split(text, '\n')) {
    ++line_number;
    if (line_number == 1) {
      if (line != k_magic) {
        throw Error("{}:1: not a git-vault journal", path.string());
      }
      continue;
    }
    if (line == "end") {
      ended = true;
      break;
    }
    if (line.empty()) {
      continue;  // the newline ending a journal cut short
    }
    const std::size_t space = line.find(' ');
    if (space == std::string_view::npos ||
        !parse_line(journal, line.substr(0, space), line.substr(space + 1))) {
      throw Error("{}:{}: cannot read this journal line", path.string(), line_number);
    }
  }
  if (!ended) {
    throw Error("{}: the journal is cut short", path.string());
  }
  return journal;
}

void remove_journal(const fs::path& git_dir) {
  if (::unlink(journal_path(git_dir).c_str()) != 0 && errno != ENOENT) {
    throw Error("{}: cannot remove: {}", journal_path(git_dir).string(), std::strerror(errno));
  }
  sync_path(git_dir);
}

}  // namespace gv::git
