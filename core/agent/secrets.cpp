#include "core/agent/secrets.hpp"

#include <array>
#include <cmath>
#include <optional>

namespace gv::agent {
namespace {

bool is_alnum(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
}
bool is_upper_or_digit(char c) { return (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9'); }
bool is_token_char(char c) { return is_alnum(c) || c == '_' || c == '-'; }
bool is_base64_char(char c) { return is_alnum(c) || c == '+' || c == '/' || c == '='; }

char lower(char c) { return (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c; }

// Length of the run of `accept` characters starting at `begin`.
template <class Accept>
std::size_t run_length(std::string_view line, std::size_t begin, Accept accept) {
  std::size_t end = begin;
  while (end < line.size() && accept(line[end])) {
    ++end;
  }
  return end - begin;
}

// Shannon entropy in bits per character: random keys score above 3.5, words and
// placeholders well below.
double entropy(std::string_view value) {
  std::array<int, 256> counts{};
  for (const char c : value) {
    ++counts[static_cast<unsigned char>(c)];
  }
  double bits = 0.0;
  for (const int count : counts) {
    if (count > 0) {
      const double p = static_cast<double>(count) / static_cast<double>(value.size());
      bits -= p * std::log2(p);
    }
  }
  return bits;
}

bool looks_like_placeholder(std::string_view value) {
  std::string lowered;
  for (const char c : value) {
    lowered += lower(c);
  }
  for (const std::string_view marker :
       {"xxxx", "****", "....", "<", ">", "${", "$(", "{{", "your", "example", "placeholder",
        "changeme", "redacted", "dummy", "secret", "password", "token", "env", "getenv"}) {
    if (lowered.find(marker) != std::string::npos) {
      return true;
    }
  }
  return false;
}

bool looks_random(std::string_view value) {
  bool letter = false;
  bool digit = false;
  for (const char c : value) {
    letter = letter || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
    digit = digit || (c >= '0' && c <= '9');
  }
  return value.size() >= 12 && letter && digit && entropy(value) >= 3.0 &&
         !looks_like_placeholder(value);
}

// A token that starts with `prefix` (at a word boundary) followed by at least `min_length`
// characters accepted by `accept`.
template <class Accept>
bool prefixed_token(std::string_view line, std::string_view prefix, std::size_t min_length,
                    Accept accept) {
  std::size_t at = line.find(prefix);
  while (at != std::string_view::npos) {
    const bool boundary = at == 0 || !is_token_char(line[at - 1]);
    if (boundary) {
      const std::size_t length = run_length(line, at + prefix.size(), accept);
      if (length >= min_length &&
          !looks_like_placeholder(line.substr(at + prefix.size(), length))) {
        return true;
      }
    }
    at = line.find(prefix, at + 1);
  }
  return false;
}

struct TokenShape {
  std::string_view prefix;
  std::size_t min_length;
  std::string_view kind;
};

constexpr std::array<TokenShape, 21> k_token_shapes{{
    {"ghp_", 36, "GitHub token"},
    {"gho_", 36, "GitHub token"},
    {"ghu_", 36, "GitHub token"},
    {"ghs_", 36, "GitHub token"},
    {"ghr_", 36, "GitHub token"},
    {"github_pat_", 22, "GitHub token"},
    {"glpat-", 20, "GitLab token"},
    {"xoxb-", 10, "Slack token"},
    {"xoxa-", 10, "Slack token"},
    {"xoxp-", 10, "Slack token"},
    {"xoxr-", 10, "Slack token"},
    {"xoxs-", 10, "Slack token"},
    {"sk_live_", 20, "Stripe key"},
    {"rk_live_", 20, "Stripe key"},
    {"sk-ant-", 20, "Anthropic API key"},
    {"sk-proj-", 20, "OpenAI API key"},
    {"sk-", 32, "OpenAI API key"},
    {"AIza", 35, "Google API key"},
    {"npm_", 36, "npm token"},
    {"pypi-", 50, "PyPI token"},
    {"hooks.slack.com/services/", 8, "Slack webhook"},
}};

std::optional<std::string_view> aws_access_key(std::string_view line) {
  for (const std::string_view prefix : {"AKIA", "ASIA"}) {
    std::size_t at = line.find(prefix);
    while (at != std::string_view::npos) {
      const bool boundary = at == 0 || !is_alnum(line[at - 1]);
      const std::size_t length = run_length(line, at + 4, is_upper_or_digit);
      if (boundary && length == 16) {
        return "AWS access key";
      }
      at = line.find(prefix, at + 1);
    }
  }
  return std::nullopt;
}

bool json_web_token(std::string_view line) {
  std::size_t at = line.find("eyJ");
  while (at != std::string_view::npos) {
    std::size_t pos = at;
    int parts = 0;
    while (parts < 3) {
      const std::size_t length = run_length(line, pos, is_token_char);
      if (length < 10) {
        break;
      }
      ++parts;
      pos += length;
      if (parts < 3) {
        if (pos >= line.size() || line[pos] != '.') {
          break;
        }
        ++pos;
      }
    }
    if (parts == 3) {
      return true;
    }
    at = line.find("eyJ", at + 1);
  }
  return false;
}

// `scheme://user:password@host` with a password that is not a placeholder.
bool url_password(std::string_view line) {
  std::size_t at = line.find("://");
  while (at != std::string_view::npos) {
    const std::size_t start = at + 3;
    std::size_t end = start;
    while (end < line.size() && line[end] != '@' && line[end] != '/' && line[end] != ' ' &&
           line[end] != '\t') {
      ++end;
    }
    if (end < line.size() && line[end] == '@') {
      const std::string_view credentials = line.substr(start, end - start);
      const std::size_t colon = credentials.find(':');
      if (colon != std::string_view::npos && colon + 1 < credentials.size()) {
        const std::string_view password = credentials.substr(colon + 1);
        if (password.size() >= 6 && !looks_like_placeholder(password) && password != "pass") {
          return true;
        }
      }
    }
    at = line.find("://", at + 3);
  }
  return false;
}

// The value that starts at `pos`: up to its closing quote when quoted, so that a password with
// punctuation in it (`"Tr0ub4dor&3xyzQ"`) is read whole; else up to a space or a character that
// ends a value in code or prose.
std::string_view assigned_value(std::string_view line, std::size_t pos) {
  if (pos < line.size() && (line[pos] == '"' || line[pos] == '\'')) {
    const std::size_t close = line.find(line[pos], pos + 1);
    const std::size_t end = close == std::string_view::npos ? line.size() : close;
    return line.substr(pos + 1, end - pos - 1);
  }
  const std::size_t length = run_length(line, pos, [](char c) {
    return c != ' ' && c != '\t' && c != ',' && c != ';' && c != ')' && c != '}' && c != ']' &&
           c != '"' && c != '\'';
  });
  return line.substr(pos, length);
}

// An HTTP authorization scheme that comes before its credentials: `Bearer <token>`.
bool is_auth_scheme(std::string_view word) {
  std::string lowered;
  for (const char c : word) {
    lowered += lower(c);
  }
  return lowered == "bearer" || lowered == "basic" || lowered == "token";
}

// `password = "…"`, `API_KEY: …`, `client_secret=…`, `Authorization: Bearer …` whose value looks
// random.
bool secret_assignment(std::string_view line) {
  static constexpr std::array<std::string_view, 10> k_names{
      "password", "passwd",  "secret",     "token",       "api_key",
      "apikey",   "api-key", "access_key", "private_key", "auth"};
  std::string lowered;
  lowered.reserve(line.size());
  for (const char c : line) {
    lowered += lower(c);
  }
  const auto skip_blanks = [&](std::size_t pos) {
    while (pos < line.size() && (line[pos] == ' ' || line[pos] == '\t')) {
      ++pos;
    }
    return pos;
  };
  for (const std::string_view name : k_names) {
    std::size_t at = lowered.find(name);
    while (at != std::string::npos) {
      std::size_t pos = at + name.size();
      // The rest of the key name (`_token`, `Secret"`), then `=` or `:`.
      pos += run_length(lowered, pos, [](char c) { return is_token_char(c); });
      while (pos < lowered.size() && (lowered[pos] == '"' || lowered[pos] == '\'' ||
                                      lowered[pos] == ' ' || lowered[pos] == '\t')) {
        ++pos;
      }
      if (pos < lowered.size() && (lowered[pos] == '=' || lowered[pos] == ':')) {
        std::string_view value = assigned_value(line, skip_blanks(pos + 1));
        if (is_auth_scheme(value)) {
          const std::size_t after =
              skip_blanks(static_cast<std::size_t>(value.data() + value.size() - line.data()));
          value = assigned_value(line, after);
        }
        if (looks_random(value)) {
          return true;
        }
      }
      at = lowered.find(name, at + 1);
    }
  }
  return false;
}

// `Bearer <token>` anywhere, as in a `curl -H` line, when the token looks random.
bool bearer_token(std::string_view line) {
  std::string lowered;
  for (const char c : line) {
    lowered += lower(c);
  }
  std::size_t at = lowered.find("bearer ");
  while (at != std::string::npos) {
    std::size_t pos = at + 7;
    while (pos < line.size() && line[pos] == ' ') {
      ++pos;
    }
    const std::size_t length = run_length(line, pos, [](char c) {
      return is_base64_char(c) || c == '_' || c == '-' || c == '.' || c == '~';
    });
    if (length >= 20 && looks_random(line.substr(pos, length))) {
      return true;
    }
    at = lowered.find("bearer ", at + 1);
  }
  return false;
}

std::optional<std::string_view> classify_line(std::string_view line) {
  if (line.find("-----BEGIN") != std::string_view::npos &&
      line.find("PRIVATE KEY") != std::string_view::npos) {
    return "private key";
  }
  if (const auto aws = aws_access_key(line)) {
    return aws;
  }
  for (const TokenShape& shape : k_token_shapes) {
    if (prefixed_token(line, shape.prefix, shape.min_length,
                       [](char c) { return is_token_char(c); })) {
      return shape.kind;
    }
  }
  if (json_web_token(line)) {
    return "JSON web token";
  }
  if (url_password(line)) {
    return "password in a URL";
  }
  if (secret_assignment(line)) {
    return "secret assignment";
  }
  if (bearer_token(line)) {
    return "bearer token";
  }
  return std::nullopt;
}

}  // namespace

std::vector<SecretFinding> scan_secrets(std::string_view text) {
  std::vector<SecretFinding> findings;
  std::size_t start = 0;
  int line_number = 0;
  while (start <= text.size()) {
    std::size_t end = text.find('\n', start);
    if (end == std::string_view::npos) {
      end = text.size();
    }
    ++line_number;
    if (const auto kind = classify_line(text.substr(start, end - start))) {
      findings.push_back({line_number, std::string(*kind)});
    }
    if (end == text.size()) {
      break;
    }
    start = end + 1;
  }
  return findings;
}

}  // namespace gv::agent
