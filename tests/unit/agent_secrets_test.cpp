#include <catch2/catch.hpp>

#include "core/agent/secrets.hpp"

using gv::agent::scan_secrets;
using gv::agent::SecretFinding;

namespace {

std::vector<std::string> kinds(const std::vector<SecretFinding>& findings) {
  std::vector<std::string> out;
  for (const SecretFinding& finding : findings) {
    out.push_back(std::to_string(finding.line) + " " + finding.kind);
  }
  return out;
}

}  // namespace

TEST_CASE("the secret scanner names the line and kind of each credential", "[secrets]") {
  const std::string text =
      "intro\n"
      "-----BEGIN OPENSSH PRIVATE KEY-----\n"
      "aws_access_key_id = AKIAIOSFODNN7EXAMPLF\n"
      "token: ghp_" +
      std::string(36, 'Z') +
      "\n"
      "slack xoxb-1234567890-abcdefghij\n"
      "stripe sk_live_" +
      std::string(24, '4') +
      "\n"
      "anthropic sk-ant-api03-" +
      std::string(30, 'q') +
      "\n"
      "jwt "
      "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_"
      "XgL0n3I9PlFUP0THsR8U\n"
      "db postgres://admin:Zq8vL2mK9x@db.internal:5432/app\n"
      "client_secret = \"a8f5f167f44f4964e6c998dee827110c\"\n"
      "google AIza" +
      std::string(35, 'b') + "\n";
  CHECK(kinds(scan_secrets(text)) ==
        std::vector<std::string>{"2 private key", "3 AWS access key", "4 GitHub token",
                                 "5 Slack token", "6 Stripe key", "7 Anthropic API key",
                                 "8 JSON web token", "9 password in a URL", "10 secret assignment",
                                 "11 Google API key"});
}

TEST_CASE("a quoted password is read whole, punctuation and all, and bearer tokens are secrets",
          "[secrets]") {
  const std::string text =
      "password: \"Xk9#mP2$vL8qR4wZ\"\n"
      "{\"password\": \"Tr0ub4dor&3xyzQ\"}\n"
      "Authorization: Bearer 3f9a8b7c6d5e4f3a2b1c0d9e8f7a6b5c4d3e2f1a\n"
      "curl -H 'X-Api: Bearer 9sK2mQ7vX4pL8rT1wZ6yB3nD5' https://api.example.org\n"
      "db_passwd='p@ss:W0rd!x7Q#z'\n";
  CHECK(kinds(scan_secrets(text)) ==
        std::vector<std::string>{"1 secret assignment", "2 secret assignment",
                                 "3 secret assignment", "4 bearer token", "5 secret assignment"});
}

TEST_CASE("placeholders and ordinary prose are not secrets", "[secrets]") {
  const std::string text =
      "Set GITHUB_TOKEN=<your-token> and API_KEY=${API_KEY} before running.\n"
      "password: changeme\n"
      "token_count: 412\n"
      "author: Jane Doe\n"
      "The task-runner keeps a secret-free config; see https://example.com/docs.\n"
      "git clone https://github.com/org/repo.git\n"
      "postgres://user:password@localhost/db\n"
      "AKIA is the prefix of an AWS key id\n"
      "api_key = os.environ[\"API_KEY\"]\n"
      "Authorization: Bearer $TOKEN\n"
      "curl -H \"Authorization: Bearer <token>\" https://api.example.org\n"
      "password: \"correct horse battery staple\"\n"
      "The bearer of bad news, 2024 edition.\n";
  CHECK(scan_secrets(text).empty());
}
