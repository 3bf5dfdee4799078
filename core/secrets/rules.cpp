#include "core/secrets/rules.hpp"

#include <array>
#include <string>
#include <tuple>
#include <utility>

#include "core/secrets/shape.hpp"

namespace gv::secrets {
namespace {

// What may follow a provider's prefix.
enum class Body { alnum, token, hex, aws, path };

bool accepts(Body body, char c) {
  switch (body) {
    case Body::alnum:
      return is_alnum(c);
    case Body::token:
      return is_token_char(c);
    case Body::hex:
      return is_hex(c);
    case Body::aws:  // upper case and digits (AWS spells key ids in base32's alphabet)
      return (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
    case Body::path:
      return is_alnum(c) || c == '/';
  }
  return false;
}

// A token a provider marks with a fixed prefix.
struct Prefixed {
  std::string_view prefix;
  Body body;
  std::size_t min_length;  // of the body
  std::size_t exact = 0;   // when not 0, the body has exactly this length and ends a word
  bool random = false;     // the body must also look generated (the prefix alone is common)
  std::string_view kind;
};

// Ordered: a longer prefix before a shorter one it starts with (`sk-ant-` before `sk-`).
constexpr std::array k_prefixed{
    // clang-format off
    Prefixed{"AKIA", Body::aws, 16, 16, false, "AWS access key"},
    Prefixed{"ASIA", Body::aws, 16, 16, false, "AWS access key"},
    Prefixed{"ABIA", Body::aws, 16, 16, false, "AWS access key"},
    Prefixed{"ACCA", Body::aws, 16, 16, false, "AWS access key"},
    Prefixed{"ghp_", Body::alnum, 36, 0, false, "GitHub token"},
    Prefixed{"gho_", Body::alnum, 36, 0, false, "GitHub token"},
    Prefixed{"ghu_", Body::alnum, 36, 0, false, "GitHub token"},
    Prefixed{"ghs_", Body::alnum, 36, 0, false, "GitHub token"},
    Prefixed{"ghr_", Body::alnum, 36, 0, false, "GitHub token"},
    Prefixed{"github_pat_", Body::token, 22, 0, false, "GitHub token"},
    Prefixed{"glpat-", Body::token, 20, 0, false, "GitLab token"},
    Prefixed{"glptt-", Body::token, 20, 0, false, "GitLab token"},
    Prefixed{"gldt-", Body::token, 20, 0, false, "GitLab token"},
    Prefixed{"glrt-", Body::token, 20, 0, false, "GitLab token"},
    Prefixed{"glsoat-", Body::token, 20, 0, false, "GitLab token"},
    Prefixed{"xoxb-", Body::token, 10, 0, true, "Slack token"},
    Prefixed{"xoxp-", Body::token, 10, 0, true, "Slack token"},
    Prefixed{"xoxa-", Body::token, 10, 0, true, "Slack token"},
    Prefixed{"xoxe-", Body::token, 10, 0, true, "Slack token"},
    Prefixed{"xoxr-", Body::token, 10, 0, true, "Slack token"},
    Prefixed{"xoxs-", Body::token, 10, 0, true, "Slack token"},
    Prefixed{"hooks.slack.com/services/", Body::path, 20, 0, true, "Slack webhook"},
    Prefixed{"sk_live_", Body::alnum, 20, 0, false, "Stripe key"},
    Prefixed{"sk_test_", Body::alnum, 20, 0, false, "Stripe key"},
    Prefixed{"rk_live_", Body::alnum, 20, 0, false, "Stripe key"},
    Prefixed{"rk_test_", Body::alnum, 20, 0, false, "Stripe key"},
    Prefixed{"whsec_", Body::alnum, 24, 0, false, "Stripe key"},
    Prefixed{"sk-ant-", Body::token, 20, 0, false, "Anthropic API key"},
    Prefixed{"sk-proj-", Body::token, 20, 0, false, "OpenAI API key"},
    Prefixed{"sk-svcacct-", Body::token, 20, 0, false, "OpenAI API key"},
    Prefixed{"sk-admin-", Body::token, 20, 0, false, "OpenAI API key"},
    Prefixed{"sk-", Body::alnum, 32, 0, true, "OpenAI API key"},
    Prefixed{"AIza", Body::token, 35, 35, false, "Google API key"},
    Prefixed{"GOCSPX-", Body::token, 28, 0, false, "Google OAuth client secret"},
    Prefixed{"ya29.", Body::token, 30, 0, true, "Google OAuth token"},
    Prefixed{"npm_", Body::alnum, 36, 36, false, "npm token"},
    Prefixed{"pypi-", Body::token, 50, 0, false, "PyPI token"},
    Prefixed{"hf_", Body::alnum, 34, 0, false, "Hugging Face token"},
    Prefixed{"dop_v1_", Body::hex, 64, 0, false, "DigitalOcean token"},
    Prefixed{"doo_v1_", Body::hex, 64, 0, false, "DigitalOcean token"},
    Prefixed{"dor_v1_", Body::hex, 64, 0, false, "DigitalOcean token"},
    Prefixed{"shpat_", Body::hex, 32, 0, false, "Shopify token"},
    Prefixed{"shpss_", Body::hex, 32, 0, false, "Shopify token"},
    Prefixed{"shpca_", Body::hex, 32, 0, false, "Shopify token"},
    Prefixed{"shppa_", Body::hex, 32, 0, false, "Shopify token"},
    Prefixed{"dckr_pat_", Body::token, 27, 0, false, "Docker Hub token"},
    Prefixed{"hvs.", Body::token, 24, 0, true, "HashiCorp Vault token"},
    Prefixed{"hvb.", Body::token, 24, 0, true, "HashiCorp Vault token"},
    Prefixed{"lin_api_", Body::alnum, 40, 0, false, "Linear API key"},
    Prefixed{"SK", Body::hex, 32, 32, false, "Twilio API key"},
    // clang-format on
};

// Whether a token starts at `at`: the line's start, or after a character no token holds.
bool word_start(std::string_view line, std::size_t at) {
  return at == 0 || !is_token_char(line[at - 1]);
}

template <class Accept>
std::size_t run_length(std::string_view line, std::size_t begin, Accept accept) {
  std::size_t end = begin;
  while (end < line.size() && accept(line[end])) {
    ++end;
  }
  return end - begin;
}

// The rules by the first byte of their prefix: a line is read once, and at each word start
// only the rules whose prefix begins with that byte are tried.
using RulesByFirstByte = std::array<std::vector<const Prefixed*>, 128>;
const RulesByFirstByte& rules_by_first_byte() {
  static const RulesByFirstByte table = [] {
    RulesByFirstByte built;
    for (const Prefixed& rule : k_prefixed) {
      built[static_cast<unsigned char>(rule.prefix.front())].push_back(&rule);
    }
    return built;
  }();
  return table;
}

// A provider's token starting at `at` (a word start).
void prefixed_at(std::string_view line, std::size_t at, std::vector<LineMatch>& out) {
  const auto first = static_cast<unsigned char>(line[at]);
  const RulesByFirstByte& table = rules_by_first_byte();
  if (first >= table.size()) {
    return;
  }
  for (const Prefixed* rule : table[first]) {
    if (line.compare(at, rule->prefix.size(), rule->prefix) != 0) {
      continue;
    }
    const std::size_t body_at = at + rule->prefix.size();
    const std::size_t length =
        run_length(line, body_at, [&](char c) { return accepts(rule->body, c); });
    if (length < rule->min_length) {
      continue;
    }
    if (rule->exact != 0 && (length != rule->exact || (body_at + length < line.size() &&
                                                       is_token_char(line[body_at + length])))) {
      continue;
    }
    const std::string_view body = line.substr(body_at, length);
    if (looks_like_mask(body) || (rule->random && !looks_random(body))) {
      continue;
    }
    out.push_back({at, body_at + length, rule->kind});
    return;  // the first rule of this prefix that matches (a longer prefix comes first)
  }
}

// SendGrid: `SG.` then 22 and 43 token characters joined by a dot.
void sendgrid_at(std::string_view line, std::size_t at, std::vector<LineMatch>& out) {
  if (line.compare(at, 3, "SG.") != 0) {
    return;
  }
  const std::size_t first = run_length(line, at + 3, is_token_char);
  const std::size_t dot = at + 3 + first;
  if (first != 22 || dot >= line.size() || line[dot] != '.') {
    return;
  }
  const std::size_t second = run_length(line, dot + 1, is_token_char);
  if (second == 43 && !looks_like_mask(line.substr(at + 3, 22 + 1 + 43))) {
    out.push_back({at, dot + 1 + second, "SendGrid API key"});
  }
}

// Telegram: a bot id of 8 to 10 digits, `:AA`, then 33 token characters.
void telegram_at(std::string_view line, std::size_t at, std::vector<LineMatch>& out) {
  const std::size_t digits = run_length(line, at, is_digit);
  const std::size_t colon = at + digits;
  if (digits < 8 || digits > 10 || line.compare(colon, 3, ":AA") != 0) {
    return;
  }
  const std::size_t length = run_length(line, colon + 3, is_token_char);
  if (length == 33 && !looks_like_mask(line.substr(colon + 3, length))) {
    out.push_back({at, colon + 3 + length, "Telegram bot token"});
  }
}

// A JSON web token: three base64url parts joined by dots, the first a JSON object (`eyJ`).
void json_web_token_at(std::string_view line, std::size_t at, std::vector<LineMatch>& out) {
  if (line.compare(at, 3, "eyJ") != 0) {
    return;
  }
  std::size_t pos = at;
  for (int part = 0; part < 3; ++part) {
    const std::size_t length = run_length(line, pos, is_token_char);
    if (length < 10) {
      return;
    }
    pos += length;
    if (part < 2) {
      if (pos >= line.size() || line[pos] != '.') {
        return;
      }
      ++pos;
    }
  }
  out.push_back({at, pos, "JSON web token"});
}

// `scheme://user:password@host`: the password, unless it is a placeholder or the user name
// again (`postgres:postgres` is a local default, not a credential).
void url_passwords(std::string_view line, std::vector<LineMatch>& out) {
  for (std::size_t at = line.find("://"); at != std::string_view::npos;
       at = line.find("://", at + 3)) {
    const std::size_t start = at + 3;
    std::size_t end = start;
    while (end < line.size() && line[end] != '@' && line[end] != '/' && line[end] != ' ' &&
           line[end] != '\t' && line[end] != '"' && line[end] != '\'') {
      ++end;
    }
    if (end >= line.size() || line[end] != '@') {
      continue;
    }
    const std::string_view credentials = line.substr(start, end - start);
    const std::size_t colon = credentials.find(':');
    if (colon == std::string_view::npos) {
      continue;
    }
    const std::string_view user = credentials.substr(0, colon);
    const std::string_view password = credentials.substr(colon + 1);
    if (password.size() >= 6 && password != user && !looks_like_placeholder(password)) {
      out.push_back({start + colon + 1, end, "password in a URL"});
    }
  }
}

bool contains_any(std::string_view lowered, std::initializer_list<std::string_view> names) {
  for (const std::string_view name : names) {
    if (lowered.find(name) != std::string_view::npos) {
      return true;
    }
  }
  return false;
}

bool is_blank(char c) { return c == ' ' || c == '\t'; }
bool is_quote(char c) { return c == '"' || c == '\'' || c == '`'; }

// The value that starts at `pos`: up to its closing quote when quoted, so that a password with
// punctuation in it (`"Tr0ub4dor&3xyzQ"`) is read whole; else up to a blank or a character that
// ends a value in code or a table, and `&` too in a query string (`?user=x&password=…&ssl=1`).
std::pair<std::size_t, std::size_t> value_at(std::string_view line, std::size_t pos,
                                             bool in_query) {
  if (pos < line.size() && is_quote(line[pos])) {
    const std::size_t close = line.find(line[pos], pos + 1);
    return {pos + 1, close == std::string_view::npos ? line.size() : close};
  }
  std::size_t end = pos;
  while (end < line.size()) {
    const char c = line[end];
    if (is_blank(c) || c == ',' || c == ';' || c == ')' || c == '}' || c == ']' || is_quote(c) ||
        (c == '&' && in_query) || c == '<' || c == '|') {
      break;
    }
    ++end;
  }
  return {pos, end};
}

// The key an assignment at `op` (its `=` or `:`) assigns to: the name before it, past a
// closing quote or emphasis (`"password":`, `**Token**:`). `in_query` is set when the name is a
// query string's (after `?` or `&`).
std::string key_before(std::string_view line, std::size_t op, bool& in_query) {
  std::size_t end = op;
  while (end > 0 && is_blank(line[end - 1])) {
    --end;
  }
  while (end > 0 && (is_quote(line[end - 1]) || line[end - 1] == '*')) {
    --end;
  }
  std::size_t begin = end;
  while (begin > 0 && (is_token_char(line[begin - 1]) || line[begin - 1] == '.')) {
    --begin;
  }
  in_query = begin > 0 && (line[begin - 1] == '?' || line[begin - 1] == '&');
  std::string key;
  for (std::size_t i = begin; i < end; ++i) {
    key += lower(line[i]);
  }
  return key;
}

bool is_auth_scheme(std::string_view word) {
  std::string lowered;
  for (const char c : word) {
    lowered += lower(c);
  }
  return lowered == "bearer" || lowered == "basic" || lowered == "token" || lowered == "digest";
}

// `password = "…"`, `DB_PASSWORD: …`, `client_secret=…`, `AccountKey=…`, `Authorization: Bearer
// …`: a value assigned to a name that says it is a credential, when the value looks like one.
void assignments(std::string_view line, std::vector<LineMatch>& out) {
  for (std::size_t op = 0; op < line.size(); ++op) {
    if (line[op] != '=' && line[op] != ':') {
      continue;
    }
    if (line.substr(op, 3) == "://") {
      continue;  // a URL: url_passwords reads it
    }
    if (op > 0 && line[op] == '=' && line[op - 1] == ':') {
      continue;  // `:=`, read at its `:`
    }
    bool in_query = false;
    const std::string key = key_before(line, op, in_query);
    if (key.empty()) {
      continue;
    }
    const bool password =
        contains_any(key, {"password", "passwd", "passphrase", "pwd"}) && key != "pwd";
    const bool aws_secret = contains_any(key, {"secret_access_key", "secretaccesskey"});
    const bool azure = key.ends_with("accountkey");
    const bool secret =
        contains_any(key, {"secret", "token", "api_key", "apikey", "api-key", "access_key",
                           "accesskey", "private_key", "privatekey", "auth", "credential"});
    if (!password && !aws_secret && !azure && !secret) {
      continue;
    }
    std::size_t pos = op + 1;
    while (pos < line.size() && (line[pos] == '=' || line[pos] == '>')) {
      ++pos;  // `==`, `=>`, `:=`
    }
    while (pos < line.size() && is_blank(line[pos])) {
      ++pos;
    }
    auto [begin, end] = value_at(line, pos, in_query);
    if (is_auth_scheme(line.substr(begin, end - begin))) {
      pos = end;
      while (pos < line.size() && is_blank(line[pos])) {
        ++pos;
      }
      std::tie(begin, end) = value_at(line, pos, in_query);
    }
    const std::string_view value = line.substr(begin, end - begin);
    if (value.empty()) {
      continue;
    }
    const std::size_t base64 = run_length(value, 0, is_base64_char);
    if (aws_secret && value.size() == 40 && base64 == 40 && !looks_like_mask(value)) {
      out.push_back({begin, end, "AWS secret access key"});
    } else if (azure && value.size() >= 40 && base64 == value.size() && !looks_like_mask(value)) {
      out.push_back({begin, end, "Azure storage key"});
    } else if (password && looks_like_password(value)) {
      out.push_back({begin, end, "password assignment"});
    } else if ((secret || aws_secret || azure) && looks_random(value)) {
      out.push_back({begin, end, "secret assignment"});
    }
  }
}

// `Bearer <token>` anywhere, as in a `curl -H` line, when the token looks generated.
void bearer_at(std::string_view line, std::size_t at, std::vector<LineMatch>& out) {
  static constexpr std::string_view k_scheme = "bearer ";
  if (line.size() - at < k_scheme.size()) {
    return;
  }
  for (std::size_t i = 0; i < k_scheme.size(); ++i) {
    if (lower(line[at + i]) != k_scheme[i]) {
      return;
    }
  }
  std::size_t pos = at + k_scheme.size();
  while (pos < line.size() && line[pos] == ' ') {
    ++pos;
  }
  const std::size_t length = run_length(line, pos, [](char c) {
    return is_base64_char(c) || c == '_' || c == '-' || c == '.' || c == '~';
  });
  if (length >= 20 && looks_random(line.substr(pos, length))) {
    out.push_back({pos, pos + length, "bearer token"});
  }
}

}  // namespace

void match_line(std::string_view line, std::vector<LineMatch>& out) {
  // One pass over the word starts for the rules that begin a word; the search for `://` and
  // for `=` / `:` covers the rest. A line is read a few times, not once per rule.
  for (std::size_t at = 0; at < line.size(); ++at) {
    if (!word_start(line, at)) {
      continue;
    }
    const char c = line[at];
    prefixed_at(line, at, out);
    if (c == 'S') {
      sendgrid_at(line, at, out);
    } else if (c == 'e') {
      json_web_token_at(line, at, out);
    } else if (c == 'b' || c == 'B') {
      bearer_at(line, at, out);
    } else if (is_digit(c)) {
      telegram_at(line, at, out);
    }
  }
  url_passwords(line, out);
  assignments(line, out);
}

}  // namespace gv::secrets
