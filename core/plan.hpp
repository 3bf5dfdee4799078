#pragma once

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace gv {

// One `Key: value` line in the trailer block of a commit message.
struct Trailer {
  std::string key;
  std::string value;

  friend bool operator==(const Trailer&, const Trailer&) = default;
};

// Trailer keys every action commit carries (doc/decisions.md D7); `git vault log` and `revert` find
// an action's commit through Vault-Log-Id because a log entry cannot hold its own commit's id.
inline constexpr const char* k_trailer_action = "Vault-Action";
inline constexpr const char* k_trailer_log_id = "Vault-Log-Id";
inline constexpr const char* k_trailer_memories = "Vault-Memories";

// Everything one mutating run wants to change, as a value: `--dry-run` prints it and the
// Transaction (core/git/transaction.hpp) applies it as exactly one commit. No I/O here.
struct Plan {
  // Repo-relative path (`/` separators) -> new bytes, or nullopt to delete the file. Ordered,
  // so printing and applying a plan are deterministic.
  std::map<std::string, std::optional<std::string>> changes;

  std::string subject;                // `vault(<sub-mode>): <what>`
  std::string body;                   // free text between subject and trailers; may be empty
  std::string action;                 // Vault-Action; omitted from the message when empty
  std::string log_id;                 // Vault-Log-Id; omitted when empty
  std::vector<std::string> memories;  // Vault-Memories, comma separated; omitted when empty

  void write(std::string path, std::string bytes) { changes[std::move(path)] = std::move(bytes); }
  void remove(std::string path) { changes[std::move(path)] = std::nullopt; }
  [[nodiscard]] bool empty() const { return changes.empty(); }

  // The trailers in their fixed order: Vault-Action, Vault-Log-Id, Vault-Memories.
  [[nodiscard]] std::vector<Trailer> trailers() const;
  // The full commit message: subject, blank line, body, blank line, trailers, final newline.
  [[nodiscard]] std::string message() const;
};

// Formats `Key: value` lines, each ending in a newline. A value that would make its line longer
// than k_trailer_width is folded after commas onto lines that begin with a space.
inline constexpr std::size_t k_trailer_width = 72;
[[nodiscard]] std::string format_trailers(const std::vector<Trailer>& trailers);

// Reads the trailer block of a commit message: its last paragraph, when every line of it is a
// `Key: value` trailer (a line starting with whitespace continues the previous value). A
// message with no such paragraph, or only a subject, has no trailers.
[[nodiscard]] std::vector<Trailer> parse_trailers(std::string_view message);

// The value of the first trailer named `key` (case-insensitive, as git treats trailer keys).
[[nodiscard]] std::optional<std::string> find_trailer(const std::vector<Trailer>& trailers,
                                                      std::string_view key);

}  // namespace gv
