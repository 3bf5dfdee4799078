#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace gv {

// A UTC calendar date as days since 1970-01-01. All vault dates are calendar dates (no time
// zone arithmetic), so days_between is plain subtraction.
struct Date {
  std::int64_t days = 0;

  friend auto operator<=>(const Date&, const Date&) = default;
};

// A UTC instant, whole seconds since the epoch.
struct Instant {
  std::int64_t seconds = 0;

  friend auto operator<=>(const Instant&, const Instant&) = default;
};

// Parses `YYYY-MM-DD`, also accepting a full ISO-8601 timestamp (`2026-04-15T00:00:00Z`,
// `...+00:00`) of which only the date part counts. nullopt when the text is not a real date.
[[nodiscard]] std::optional<Date> parse_date(std::string_view text);

// Parses `YYYY-MM-DDTHH:MM:SSZ` (offsets like `+00:00` are applied). A bare date is midnight UTC.
[[nodiscard]] std::optional<Instant> parse_instant(std::string_view text);

[[nodiscard]] std::string format_date(Date date);           // YYYY-MM-DD
[[nodiscard]] std::string format_instant(Instant instant);  // YYYY-MM-DDTHH:MM:SSZ
[[nodiscard]] Date date_of(Instant instant);

[[nodiscard]] inline std::int64_t days_between(Date later, Date earlier) {
  return later.days - earlier.days;
}

// "Today" and "now" for this process: `--today`/`--now` set them, else GIT_VAULT_TODAY /
// GIT_VAULT_NOW, else the system clock (UTC). Throws UsageError on a malformed override.
struct Clock {
  Date today;
  Instant now;
};
[[nodiscard]] Clock resolve_clock(std::optional<std::string> today_flag,
                                  std::optional<std::string> now_flag);

}  // namespace gv
