#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "core/secrets/detector.hpp"
#include "tests/secret_corpus.hpp"

namespace secrets_test {

using gv::secrets::scan_secrets;
using gv::secrets::SecretFinding;
using gv::secrets::withhold_secrets;
using gv::test::CorpusEntry;

namespace {

std::vector<std::string> kinds(const std::vector<SecretFinding>& findings) {
  std::vector<std::string> out;
  for (const SecretFinding& finding : findings) {
    out.push_back(std::to_string(finding.line) + " " + finding.kind);
  }
  return out;
}

// The value a corpus line holds, for checking that withholding took it out: the longest run of
// characters a generated value is made of.
std::string longest_token(std::string_view text) {
  std::string best;
  std::string run;
  for (const char c : text) {
    if (gv::test::k_urlsafe.find(c) != std::string_view::npos || c == '+' || c == '/') {
      run += c;
    } else {
      if (run.size() > best.size()) {
        best = run;
      }
      run.clear();
    }
  }
  return run.size() > best.size() ? run : best;
}

}  // namespace

TEST_CASE("every secret of the corpus is found at its line, with its kind", "[secrets]") {
  const std::vector<CorpusEntry> corpus = gv::test::secret_corpus();
  REQUIRE(corpus.size() >= 30);
  for (const CorpusEntry& entry : corpus) {
    INFO(entry.name << ": " << entry.text);
    // After a line of prose, so the line number is checked too.
    const std::vector<SecretFinding> findings = scan_secrets("Some notes.\n" + entry.text + "\n");
    REQUIRE(findings.size() == 1);
    CHECK(findings[0].line == 2);
    CHECK(findings[0].kind == entry.kind);
  }
}

TEST_CASE("no look-alike of the corpus is taken for a secret", "[secrets]") {
  const std::vector<CorpusEntry> corpus = gv::test::lookalike_corpus();
  REQUIRE(corpus.size() >= 30);
  for (const CorpusEntry& entry : corpus) {
    INFO(entry.name << ": " << entry.text);
    CHECK(scan_secrets(entry.text + "\n").empty());
  }
}

TEST_CASE("withholding replaces the value and keeps the rest of the text", "[secrets]") {
  for (const CorpusEntry& entry : gv::test::secret_corpus()) {
    INFO(entry.name << ": " << entry.text);
    const std::string text = "before\n" + entry.text + "\nafter";
    const std::string withheld = withhold_secrets(text);
    CHECK_THAT(withheld, Catch::Contains("[secret withheld: " + entry.kind + "]"));
    CHECK_THAT(withheld, Catch::StartsWith("before\n") && Catch::EndsWith("\nafter"));
    CHECK(withheld.find(longest_token(entry.text)) == std::string::npos);
    CHECK(scan_secrets(withheld).empty());
  }
  // A look-alike comes back byte for byte.
  for (const CorpusEntry& entry : gv::test::lookalike_corpus()) {
    CHECK(withhold_secrets(entry.text) == entry.text);
  }
  // Only the value goes: what the line says around it stays readable.
  const std::string token = gv::test::cat({"gh", "p_", gv::test::fake(gv::test::k_alnum, 36, 7)});
  CHECK(withhold_secrets("deploy failed: token " + token + " was revoked") ==
        "deploy failed: token [secret withheld: GitHub token] was revoked");
}

TEST_CASE("a private key is one finding from its BEGIN line to its END line", "[secrets]") {
  const std::string key =
      gv::test::cat({"-----BEGIN EC ", "PRIVATE KEY", "-----\n", gv::test::key_lines(3, 9),
                     "-----END EC ", "PRIVATE KEY", "-----\n"});
  const std::string text = "# Notes\n\n" + key + "after the key, a token: " +
                           gv::test::cat({"np", "m_", gv::test::fake(gv::test::k_alnum, 36, 3)}) +
                           "\n";
  CHECK(kinds(scan_secrets(text)) == std::vector<std::string>{"3 private key", "8 npm token"});
  CHECK(withhold_secrets(text) ==
        "# Notes\n\n[secret withheld: private key]\nafter the key, a token: [secret withheld: npm "
        "token]\n");
  // Encrypted PEM keys and PGP blocks carry headers and a blank line before the material.
  const std::string encrypted = gv::test::cat(
      {"-----BEGIN RSA ", "PRIVATE KEY", "-----\nProc-Type: 4,ENCRYPTED\nDEK-Info: AES-128-CBC,",
       gv::test::fake(gv::test::k_hex, 32, 4), "\n\n", gv::test::key_lines(2, 5)});
  CHECK(kinds(scan_secrets(encrypted)) == std::vector<std::string>{"1 private key"});
}

TEST_CASE("the allow marker covers its line, or a code block from its opening fence", "[secrets]") {
  const std::string token = gv::test::cat({"gh", "p_", gv::test::fake(gv::test::k_alnum, 36, 1)});
  const std::string text =
      "token: " + token + " <!-- git-vault:allow-secret -->\n" + "token: " + token + "\n" +  // 2
      "```bash git-vault:allow-secret\n" + "export T=" + token + "\n" + "```\n" +            // 5
      "```bash\n" + "export T=" + token + "\n" + "```\n" +                                   // 7
      "~~~~ git-vault:allow-secret\n" + "```\n" + token +
      "\n~~~~\n" +   // a shorter fence inside does not close it
      token + "\n";  // 13
  CHECK(kinds(scan_secrets(text)) ==
        std::vector<std::string>{"2 GitHub token", "7 GitHub token", "13 GitHub token"});
}

TEST_CASE("a quoted password is read whole, and the kind is the most specific rule's",
          "[secrets]") {
  const std::string text =
      "password: \"Xk9#mP2$vL8qR4wZ\"\n"
      "{\"password\": \"Tr0ub4dor&3xyzQ\"}\n"
      "db_passwd='p@ss:W0rd!x7Q#z'\n"
      "PGPASSWORD=hunter22 psql -h db\n"
      "key=value password => 'S3cure-Pa55'\n";
  CHECK(kinds(scan_secrets(text)) ==
        std::vector<std::string>{"1 password assignment", "2 password assignment",
                                 "3 password assignment", "4 password assignment",
                                 "5 password assignment"});
}

TEST_CASE("prose about secrets is not a secret", "[secrets]") {
  const std::string text =
      "Set GITHUB_TOKEN=<your-token> and API_KEY=${API_KEY} before running.\n"
      "author: Jane Doe\n"
      "The task-runner keeps a secret-free config; see https://example.com/docs.\n"
      "git clone https://github.com/org/repo.git\n"
      "AKIA is the prefix of an AWS key id\n"
      "curl -H \"Authorization: Bearer <token>\" https://api.example.org\n"
      "password: \"correct horse battery staple\"\n"
      "The bearer of bad news, 2024 edition.\n"
      "**Token:** rotate it every 90 days\n"
      "Passwordless login: magic links expire after 15 minutes.\n"
      "PWD=/home/dev/src/project\n"
      "api_key = settings.api_key_v2\n";
  CHECK(kinds(scan_secrets(text)).empty());
}

}  // namespace secrets_test
