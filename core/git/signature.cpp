#include "core/git/signature.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <charconv>
#include <chrono>
#include <ctime>
#include <string>

namespace gv::git {

namespace {

// A tiny cursor over the date text; every reader returns false on a mismatch.
class Reader {
 public:
  explicit Reader(std::string_view text) : m_text(text) {}

  [[nodiscard]] bool done() const { return m_pos == m_text.size(); }
  [[nodiscard]] char peek() const { return done() ? '\0' : m_text[m_pos]; }
  void skip_spaces() {
    while (!done() && std::isspace(static_cast<unsigned char>(peek())) != 0) {
      ++m_pos;
    }
  }
  bool literal(char c) {
    if (peek() != c) {
      return false;
    }
    ++m_pos;
    return true;
  }
  // Exactly `digits` decimal digits (or 1..18 when digits is 0).
  bool number(std::int64_t& out, std::size_t digits) {
    const std::size_t limit = digits == 0 ? m_text.size() : std::min(m_text.size(), m_pos + digits);
    std::size_t end = m_pos;
    while (end < limit && std::isdigit(static_cast<unsigned char>(m_text[end])) != 0) {
      ++end;
    }
    const std::size_t length = end - m_pos;
    if (length == 0 || (digits != 0 && length != digits) || length > 18) {
      return false;
    }
    std::from_chars(m_text.data() + m_pos, m_text.data() + end, out);
    m_pos = end;
    return true;
  }
  std::string_view word() {
    const std::size_t start = m_pos;
    while (!done() && std::isalpha(static_cast<unsigned char>(peek())) != 0) {
      ++m_pos;
    }
    return m_text.substr(start, m_pos - start);
  }

 private:
  std::string_view m_text;
  std::size_t m_pos = 0;
};

// `Z`, `+hh:mm`, `+hhmm` or `-…`; false when none is there.
bool read_zone(Reader& in, int& offset_minutes) {
  if (in.literal('Z')) {
    offset_minutes = 0;
    return true;
  }
  int sign = 0;
  if (in.literal('+')) {
    sign = 1;
  } else if (in.literal('-')) {
    sign = -1;
  } else {
    return false;
  }
  std::int64_t hours = 0;
  std::int64_t minutes = 0;
  if (!in.number(hours, 2)) {
    return false;
  }
  in.literal(':');
  if (!in.number(minutes, 2) || hours > 14 || minutes > 59) {
    return false;
  }
  offset_minutes = sign * static_cast<int>(hours * 60 + minutes);
  return true;
}

std::optional<std::int64_t> utc_seconds(std::int64_t year, std::int64_t month, std::int64_t day,
                                        std::int64_t hour, std::int64_t minute,
                                        std::int64_t second) {
  using namespace std::chrono;
  const year_month_day date{std::chrono::year{static_cast<int>(year)},
                            std::chrono::month{static_cast<unsigned>(month)},
                            std::chrono::day{static_cast<unsigned>(day)}};
  if (!date.ok() || hour > 23 || minute > 59 || second > 60) {
    return std::nullopt;
  }
  const auto days = sys_days{date}.time_since_epoch().count();
  return static_cast<std::int64_t>(days) * 86400 + hour * 3600 + minute * 60 + second;
}

// The local zone's offset at `utc`, for dates written without a zone (git reads them as local).
int local_offset_minutes(std::int64_t utc) {
  const auto raw = static_cast<std::time_t>(utc);
  std::tm local{};
  localtime_r(&raw, &local);
  return static_cast<int>(local.tm_gmtoff / 60);
}

std::optional<GitTime> parse_raw(std::string_view text) {
  Reader in(text);
  in.literal('@');
  std::int64_t seconds = 0;
  if (!in.number(seconds, 0)) {
    return std::nullopt;
  }
  in.skip_spaces();
  int offset = 0;
  if (!in.done() && !read_zone(in, offset)) {
    return std::nullopt;
  }
  in.skip_spaces();
  if (!in.done()) {
    return std::nullopt;
  }
  return GitTime{seconds, offset};
}

std::optional<GitTime> parse_iso(std::string_view text) {
  Reader in(text);
  std::int64_t year = 0, month = 0, day = 0, hour = 0, minute = 0, second = 0;
  if (!in.number(year, 4) || !in.literal('-') || !in.number(month, 2) || !in.literal('-') ||
      !in.number(day, 2)) {
    return std::nullopt;
  }
  if (!in.literal('T')) {
    if (!in.literal(' ')) {
      return std::nullopt;
    }
    in.skip_spaces();
  }
  if (!in.number(hour, 2) || !in.literal(':') || !in.number(minute, 2) || !in.literal(':') ||
      !in.number(second, 2)) {
    return std::nullopt;
  }
  if (in.literal('.')) {  // fractions of a second: git drops them
    std::int64_t ignored = 0;
    if (!in.number(ignored, 0)) {
      return std::nullopt;
    }
  }
  in.skip_spaces();
  const std::optional<std::int64_t> utc = utc_seconds(year, month, day, hour, minute, second);
  if (!utc) {
    return std::nullopt;
  }
  int offset = 0;
  if (in.done()) {
    // A local time: find the zone offset that maps it back to itself.
    offset = local_offset_minutes(*utc);
    offset = local_offset_minutes(*utc - offset * 60);
    return GitTime{*utc - offset * 60, offset};
  }
  if (!read_zone(in, offset)) {
    return std::nullopt;
  }
  in.skip_spaces();
  if (!in.done()) {
    return std::nullopt;
  }
  return GitTime{*utc - offset * 60, offset};
}

std::optional<GitTime> parse_rfc2822(std::string_view text) {
  static constexpr std::array<std::string_view, 12> k_months = {
      "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"};
  Reader in(text);
  if (std::isalpha(static_cast<unsigned char>(in.peek())) != 0) {
    in.word();  // day of the week; not checked, as git does not check it either
    if (!in.literal(',')) {
      return std::nullopt;
    }
    in.skip_spaces();
  }
  std::int64_t year = 0, day = 0, hour = 0, minute = 0, second = 0;
  if (!in.number(day, 0)) {
    return std::nullopt;
  }
  in.skip_spaces();
  const std::string_view month_name = in.word();
  std::int64_t month = 0;
  for (std::size_t i = 0; i < k_months.size(); ++i) {
    if (month_name == k_months[i]) {
      month = static_cast<std::int64_t>(i) + 1;
    }
  }
  in.skip_spaces();
  if (month == 0 || !in.number(year, 4)) {
    return std::nullopt;
  }
  in.skip_spaces();
  if (!in.number(hour, 2) || !in.literal(':') || !in.number(minute, 2) || !in.literal(':') ||
      !in.number(second, 2)) {
    return std::nullopt;
  }
  in.skip_spaces();
  int offset = 0;
  if (!read_zone(in, offset)) {
    return std::nullopt;
  }
  in.skip_spaces();
  const std::optional<std::int64_t> utc = utc_seconds(year, month, day, hour, minute, second);
  if (!in.done() || !utc) {
    return std::nullopt;
  }
  return GitTime{*utc - offset * 60, offset};
}

}  // namespace

std::optional<GitTime> parse_git_date(std::string_view text) {
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.front())) != 0) {
    text.remove_prefix(1);
  }
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.back())) != 0) {
    text.remove_suffix(1);
  }
  if (auto raw = parse_raw(text)) {
    return raw;
  }
  if (auto iso = parse_iso(text)) {
    return iso;
  }
  return parse_rfc2822(text);
}

}  // namespace gv::git
