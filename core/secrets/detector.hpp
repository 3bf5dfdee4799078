#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

// The one secret detector (doc/decisions.md, D24; the rules in doc/secrets.md). Everything
// git-vault writes that a person or an agent typed passes through it: `learn` and the MCP
// server's writes refuse what it finds, the commit gate's `secret` check blocks it, and the
// telemetry sub-modes withhold it from what they read before anything is printed or written.
// What it finds names a kind and a line, never the value: a message about a secret must not
// repeat it.
namespace gv::secrets {

// On a line, the line is a documented example and never a finding; on the opening fence of a
// Markdown code block (```` ```ini git-vault:allow-secret ````), the whole block is.
inline constexpr std::string_view k_allow_marker = "git-vault:allow-secret";

// One credential-shaped value: where it is, for withhold_secrets, and what it looks like.
struct Match {
  int line = 0;           // 1-based, where it starts
  std::string_view kind;  // static text: `AWS access key`, `private key`, ...
  std::size_t begin = 0;  // its bytes in the text scanned, [begin, end)
  std::size_t end = 0;
};

// Every match in `text`, in order; lines the allow marker covers have none. A private key is
// one match from its `-----BEGIN` to its `-----END` line.
[[nodiscard]] std::vector<Match> find_secrets(std::string_view text);

// What a caller may say about a secret: its line and its kind.
struct SecretFinding {
  int line = 0;  // 1-based
  std::string kind;

  friend bool operator==(const SecretFinding&, const SecretFinding&) = default;
};

// One finding per line holding a secret (the first kind found there), in line order.
[[nodiscard]] std::vector<SecretFinding> scan_secrets(std::string_view text);

// Whether `text` holds anything scan_secrets would report.
[[nodiscard]] bool contains_secret(std::string_view text);

// `text` with every secret replaced by `[secret withheld: <kind>]`, the rest kept byte for
// byte: what a writer puts on disk or a terminal in place of what it read.
[[nodiscard]] std::string withhold_secrets(std::string_view text);

}  // namespace gv::secrets
