#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace gv::agent {

// Something in a text that looks like a credential. The matched bytes are deliberately not
// kept: a message about a secret must never repeat it.
struct SecretFinding {
  int line = 0;      // 1-based
  std::string kind;  // e.g. `private key`, `GitHub token`, `password assignment`
};

// Scans `text` for private keys, provider tokens with a known shape (AWS, GitHub, GitLab,
// Slack, Stripe, OpenAI, Anthropic, Google, npm, PyPI), JSON web tokens, passwords in URLs and
// `password=`/`api_key:`-style assignments whose value looks random. One finding per line (the
// first kind found there), in line order. Placeholders (`<token>`, `${VAR}`, `xxxx`,
// `your-api-key`) are not secrets.
[[nodiscard]] std::vector<SecretFinding> scan_secrets(std::string_view text);

}  // namespace gv::agent
