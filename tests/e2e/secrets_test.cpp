#include <fmt/format.h>

#include <algorithm>
#include <catch2/catch.hpp>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <vector>

#include "tests/e2e/sandbox.hpp"
#include "tests/e2e/vault_fixture.hpp"
#include "tests/secret_corpus.hpp"

namespace secrets_test {

using gv::test::CorpusEntry;
using gv::test::Result;
using gv::test::Sandbox;
using json = nlohmann::json;

namespace {

constexpr std::string_view k_secrets_memory = ".memory/10-Memories/MEM-credentials.md";
constexpr std::string_view k_secrets_register = "memory/registers/credentials.md";

// A memory whose body holds every entry of `corpus`, one paragraph each, and the line each
// entry starts at.
std::string memory_with(const std::vector<CorpusEntry>& corpus, std::vector<int>& lines) {
  std::string text =
      "---\ntitle: \"Deploy credentials\"\ncreated: 2026-11-01\ntags: [CONFIG]\n"
      "topic: \"ops/deploy\"\nsource: \"user input\"\nmodified: 2026-11-01\n"
      "keywords: [deploy, credentials]\nsummary: \"Where the deploy credentials live.\"\n"
      "retrieval_count: 0\nlast_retrieved: null\n---\n\n# Deploy credentials\n\n";
  int line = static_cast<int>(std::count(text.begin(), text.end(), '\n')) + 1;
  for (const CorpusEntry& entry : corpus) {
    lines.push_back(line);
    text += entry.text + "\n\n";
    line += static_cast<int>(std::count(entry.text.begin(), entry.text.end(), '\n')) + 2;
  }
  return text;
}

// A register of the one-line entries of `corpus`, each a tagged entry, and the line of each
// (0 for entries left out).
std::string register_with(const std::vector<CorpusEntry>& corpus, std::vector<int>& lines) {
  std::string text = "# Credentials\n\n";
  int line = 3;
  int id = 100;
  for (const CorpusEntry& entry : corpus) {
    if (entry.text.find('\n') != std::string::npos) {
      lines.push_back(0);
      continue;
    }
    lines.push_back(line++);
    // A look-alike that is itself an entry with its id goes in as it is: a second id after it
    // would make the line's id malformed.
    if (entry.text.starts_with("- ") && entry.text.find(" ^tr") != std::string::npos) {
      text += entry.text + "\n";
      continue;
    }
    text += fmt::format("- {} ^tr{:010}\n", entry.text, id++);
  }
  return text;
}

// The value of a corpus entry: its longest run of token characters.
std::string value_of(const CorpusEntry& entry) {
  std::string best;
  std::string run;
  for (const char c : entry.text + " ") {
    if (gv::test::k_urlsafe.find(c) != std::string_view::npos || c == '+' || c == '/') {
      run += c;
    } else {
      best = run.size() > best.size() ? run : best;
      run.clear();
    }
  }
  return best;
}

json check_json(const Sandbox& sandbox, std::vector<std::string> args = {}) {
  args.insert(args.begin(), {"--json", "check"});
  const Result result = sandbox.vault(args);
  INFO(result.err);
  REQUIRE((result.code == 0 || result.code == 1));
  return json::parse(result.out);
}

// The secret findings of a check document, by path and line: the message.
std::map<std::pair<std::string, int>, std::string> secret_findings(const json& document) {
  std::map<std::pair<std::string, int>, std::string> out;
  for (const json& finding : document["findings"]) {
    if (finding["check"] == "secret") {
      CHECK(finding["severity"] == "error");
      out[{finding["path"].get<std::string>(), finding["line"].get<int>()}] =
          finding["message"].get<std::string>();
    }
  }
  return out;
}

void write_base(Sandbox& sandbox) {
  sandbox.write("CLAUDE.local.md", "# Working\n- Prefers tabs ^tr0000000001\n");
  gv::test::write_scored_vault(sandbox);
  REQUIRE(sandbox.vault({"hooks", "install"}).code == 0);
}

// Every secret of the corpus, at its line and with its kind, in both files; nothing else.
void expect_every_secret(const std::map<std::pair<std::string, int>, std::string>& found,
                         const std::vector<CorpusEntry>& corpus,
                         const std::vector<int>& memory_lines,
                         const std::vector<int>& register_lines) {
  std::size_t expected = 0;
  for (std::size_t i = 0; i < corpus.size(); ++i) {
    INFO(corpus[i].name);
    const auto in_memory = found.find({std::string(k_secrets_memory), memory_lines[i]});
    REQUIRE(in_memory != found.end());
    CHECK(in_memory->second == "looks like a secret (" + corpus[i].kind + ")");
    ++expected;
    if (register_lines[i] != 0) {
      const auto in_register = found.find({std::string(k_secrets_register), register_lines[i]});
      REQUIRE(in_register != found.end());
      CHECK(in_register->second == "looks like a secret (" + corpus[i].kind + ")");
      ++expected;
    }
  }
  CHECK(found.size() == expected);
}

}  // namespace

TEST_CASE("the gate blocks every secret of the corpus, in the hook and in check --range",
          "[e2e][secrets][hooks]") {
  Sandbox sandbox;
  write_base(sandbox);
  const std::string base = sandbox.git({"rev-parse", "HEAD"}).out.substr(0, 40);
  const std::vector<CorpusEntry> corpus = gv::test::secret_corpus();
  std::vector<int> memory_lines;
  std::vector<int> register_lines;
  sandbox.write(k_secrets_memory, memory_with(corpus, memory_lines));
  sandbox.write(k_secrets_register, register_with(corpus, register_lines));
  REQUIRE(sandbox.vault({"index"}).code == 0);
  REQUIRE(sandbox.git({"add", "-A"}).code == 0);

  // The work tree.
  expect_every_secret(secret_findings(check_json(sandbox)), corpus, memory_lines, register_lines);
  // The pre-commit hook: the commit is refused, and nothing it prints holds a value.
  const Result commit = sandbox.sh("git commit -q -m 'add credentials'");
  CHECK(commit.code != 0);
  CHECK_THAT(commit.err,
             Catch::Contains(fmt::format("{}:{}: error: looks like a secret (AWS access key) "
                                         "[secret]",
                                         k_secrets_memory, memory_lines[0])));
  const Result human = sandbox.vault({"check", "--staged", "--limit", "1000"});
  CHECK(human.code == 1);
  for (const CorpusEntry& entry : corpus) {
    INFO(entry.name);
    CHECK(commit.err.find(value_of(entry)) == std::string::npos);
    CHECK(human.out.find(value_of(entry)) == std::string::npos);
  }
  expect_every_secret(secret_findings(check_json(sandbox, {"--staged"})), corpus, memory_lines,
                      register_lines);

  // Committed past the hook, the range check finds them all under that commit.
  REQUIRE(sandbox.sh("git commit -q --no-verify -m 'add credentials'").code == 0);
  const std::string bad = sandbox.git({"rev-parse", "HEAD"}).out.substr(0, 40);
  const json range = check_json(sandbox, {"--range", base + "..HEAD"});
  CHECK(range["ok"] == false);
  for (const json& finding : range["findings"]) {
    CHECK(finding["commit"] == bad);
  }
  // check --range reports a finding once per path and message: one per kind and file.
  std::map<std::string, int> per_file;
  for (const json& finding : range["findings"]) {
    if (finding["check"] == "secret") {
      ++per_file[finding["path"].get<std::string>()];
    }
  }
  std::set<std::string> kinds;
  std::set<std::string> register_kinds;
  for (std::size_t i = 0; i < corpus.size(); ++i) {
    kinds.insert(corpus[i].kind);
    if (register_lines[i] != 0) {
      register_kinds.insert(corpus[i].kind);
    }
  }
  CHECK(per_file[std::string(k_secrets_memory)] == static_cast<int>(kinds.size()));
  CHECK(per_file[std::string(k_secrets_register)] == static_cast<int>(register_kinds.size()));
}

TEST_CASE("no look-alike of the corpus blocks a commit or a range", "[e2e][secrets][hooks]") {
  Sandbox sandbox;
  write_base(sandbox);
  const std::string base = sandbox.git({"rev-parse", "HEAD"}).out.substr(0, 40);
  const std::vector<CorpusEntry> corpus = gv::test::lookalike_corpus();
  std::vector<int> memory_lines;
  std::vector<int> register_lines;
  sandbox.write(k_secrets_memory, memory_with(corpus, memory_lines));
  sandbox.write(k_secrets_register, register_with(corpus, register_lines));
  REQUIRE(sandbox.vault({"index"}).code == 0);
  REQUIRE(sandbox.git({"add", "-A"}).code == 0);
  const json staged = check_json(sandbox, {"--staged"});
  INFO(staged.dump(2));
  CHECK(secret_findings(staged).empty());
  const Result commit = sandbox.sh("git commit -q -m 'documented examples'");
  INFO(commit.err);
  CHECK(commit.code == 0);
  const json range = check_json(sandbox, {"--range", base + "..HEAD"});
  CHECK(range["ok"] == true);
}

TEST_CASE("a commit that adds a secret to one memory is blocked, and its fix goes through",
          "[e2e][secrets][hooks]") {
  Sandbox sandbox;
  write_base(sandbox);
  const std::string token =
      gv::test::cat({"gl", "pat-", gv::test::fake(gv::test::k_alnum, 20, 77)});
  // A commit through the hook leaves the gate's baseline; the next one is checked from what
  // changed since (the memory it edits), and the memories it does not touch keep their findings.
  sandbox.write("notes.txt", "unrelated\n");
  REQUIRE(sandbox.git({"add", "-A"}).code == 0);
  REQUIRE(sandbox.sh("git commit -q -m notes").code == 0);
  const std::string alpha = sandbox.read(".memory/10-Memories/MEM-alpha.md");
  sandbox.write(".memory/10-Memories/MEM-alpha.md", alpha + "CI uses " + token + " to push.\n");
  REQUIRE(sandbox.vault({"index"}).code == 0);
  REQUIRE(sandbox.git({"add", "-A"}).code == 0);
  const Result blocked = sandbox.sh("git commit -q -m 'ci note'");
  CHECK(blocked.code != 0);
  const int line = static_cast<int>(std::count(alpha.begin(), alpha.end(), '\n')) + 1;
  CHECK_THAT(blocked.err,
             Catch::Contains(fmt::format(".memory/10-Memories/MEM-alpha.md:{}: error: looks like "
                                         "a secret (GitLab token) [secret]",
                                         line)) &&
                 Catch::Contains("git-vault:allow-secret"));
  CHECK(blocked.err.find(token) == std::string::npos);

  SECTION("taken out") {
    sandbox.write(".memory/10-Memories/MEM-alpha.md", alpha + "CI uses $CI_PUSH_TOKEN to push.\n");
  }
  SECTION("marked as a documented example") {
    sandbox.write(".memory/10-Memories/MEM-alpha.md",
                  alpha + "CI uses " + token + " to push. <!-- git-vault:allow-secret -->\n");
  }
  REQUIRE(sandbox.vault({"index"}).code == 0);
  REQUIRE(sandbox.git({"add", "-A"}).code == 0);
  const Result fixed = sandbox.sh("git commit -q -m 'ci note'");
  INFO(fixed.err);
  CHECK(fixed.code == 0);
  // GIT_VAULT_SKIP names the check like any other.
  sandbox.write(k_secrets_register, "# Creds\n- " + token + " ^tr0000000009\n");
  REQUIRE(sandbox.git({"add", "-A"}).code == 0);
  CHECK(sandbox.sh("git commit -q -m register").code != 0);
  CHECK(sandbox.sh("GIT_VAULT_SKIP=secret git commit -q -m register").code == 0);
}

TEST_CASE("dream writes no prompt text into what it commits, and its revert leaves none",
          "[e2e][secrets][telemetry]") {
  Sandbox sandbox;
  write_base(sandbox);
  const std::string root = sandbox.root().string();
  const std::string token = gv::test::cat({"gh", "p_", gv::test::fake(gv::test::k_alnum, 36, 5)});
  const auto prompt = [&](std::string_view display, std::string_view session, long long ms) {
    return fmt::format(R"({{"display":"{}","timestamp":{},"project":"{}","sessionId":"{}"}})"
                       "\n",
                       display, ms, root, session);
  };
  sandbox.write(
      "history.jsonl",
      prompt("rotate the deploy credentials AKIAIOSFODNN7EXAMPLE now", "s1", 1764000000000) +
          prompt("rotate the deploy credentials, password=Tr0ub4dor&3xyz", "s2", 1764100000000) +
          prompt("rotate the deploy credentials with token " + token, "s3", 1764200000000));
  sandbox.write(".git/info/exclude", "history.jsonl\n");
  const std::string history = (sandbox.root() / "history.jsonl").string();

  const Result run = sandbox.vault({"distill", "--dream", "--history", history});
  INFO(run.err);
  REQUIRE(run.code == 0);
  // The terminal shows the themes, with the secrets withheld even there.
  CHECK_THAT(run.out, Catch::Contains("recurring interest, no existing memory or task found."));
  CHECK_THAT(run.out, Catch::Contains("[secret withheld: GitHub token]"));
  CHECK(run.out.find(token) == std::string::npos);
  CHECK(run.out.find("Tr0ub4dor") == std::string::npos);

  const auto holds_prompt_text = [&](const std::string& text) {
    for (const std::string_view word :
         {"AKIAIOSFODNN7EXAMPLE", "Tr0ub4dor", "rotate", "credentials", "deploy"}) {
      if (text.find(word) != std::string::npos) {
        return true;
      }
    }
    return text.find(token) != std::string::npos;
  };
  const std::string committed_files = sandbox.git({"show", "--stat", "--format=", "HEAD"}).out;
  CHECK_THAT(committed_files, Catch::Contains("distill-log.json"));
  for (const std::string path : {".memory/distill-log.json", ".memory/dream-log.json"}) {
    INFO(path);
    CHECK_FALSE(holds_prompt_text(sandbox.git({"show", "HEAD:" + path}).out));
  }
  const json log = json::parse(sandbox.read(".memory/distill-log.json"));
  const json& entry = log["operations"].back();
  CHECK(entry["type"] == "dream");
  REQUIRE(entry["themes"].size() == 1);
  CHECK(entry["themes"][0]["prompt_timestamps"].size() == 3);
  CHECK(check_json(sandbox)["ok"] == true);

  const Result revert = sandbox.vault({"revert", "HEAD"});
  INFO(revert.err);
  REQUIRE(revert.code == 0);
  CHECK_FALSE(holds_prompt_text(sandbox.git({"show", "HEAD:.memory/distill-log.json"}).out));
  CHECK(check_json(sandbox)["ok"] == true);
}

TEST_CASE("revise never writes the secret an event carries into a memory or a log",
          "[e2e][secrets][telemetry]") {
  Sandbox sandbox;
  write_base(sandbox);
  const std::string token = gv::test::cat({"xo", "xb-", gv::test::fake(gv::test::k_digits, 11, 1),
                                           "-", gv::test::fake(gv::test::k_alnum, 24, 2)});
  std::string store;
  for (int i = 1; i <= 3; ++i) {
    store += fmt::format(
        R"({{"event_id":"evt_{}","event_type":"deviation","category":"deviation",)"
        R"("timestamp":"2026-11-2{}T10:00:00Z","session_id":"sess_{}_a","checkpoint":"phase_2",)"
        R"("message":"Payment callback retried with {} in the payload",)"
        R"("detail":{{"reason":"bearer {} rejected"}}}})"
        "\n",
        i, i, i, token, token);
  }
  sandbox.write("specs/events.jsonl", store);
  sandbox.commit_all("events");
  const Result dry = sandbox.vault({"distill", "--revise", "--dry-run"});
  INFO(dry.err);
  REQUIRE(dry.code == 0);
  CHECK(dry.out.find(token) == std::string::npos);
  const Result run = sandbox.vault({"distill", "--revise", "--all"});
  INFO(run.out << run.err);
  REQUIRE(run.code == 0);
  const std::string changed = sandbox.git({"show", "--format=", "--name-only", "HEAD"}).out;
  REQUIRE_THAT(changed, Catch::Contains(".memory/10-Memories/"));
  CHECK(sandbox.git({"show", "HEAD"}).out.find(token) == std::string::npos);
  CHECK_THAT(sandbox.git({"show", "HEAD"}).out, Catch::Contains("[secret withheld: Slack token]"));
  CHECK(check_json(sandbox)["ok"] == true);
}

TEST_CASE("learn stores a documented example marked as one, and refuses it unmarked",
          "[e2e][secrets][learn]") {
  Sandbox sandbox;
  write_base(sandbox);
  const std::string key = gv::test::cat({"AK", "IA", gv::test::fake(gv::test::k_upper32, 16, 3)});
  sandbox.write("note.md", "Configure the CLI:\n\n```ini\naws_access_key_id = " + key + "\n```\n");
  const Result refused = sandbox.vault({"learn", "--title", "AWS CLI profile", "note.md"});
  CHECK(refused.code == 128);
  CHECK_THAT(refused.err, Catch::Contains("note.md:4 (AWS access key)"));
  CHECK(refused.err.find(key) == std::string::npos);
  sandbox.write("note.md",
                "Configure the CLI:\n\n```ini git-vault:allow-secret\n"
                "aws_access_key_id = " +
                    key + "\n```\n");
  const Result stored = sandbox.vault({"learn", "--title", "AWS CLI profile", "note.md"});
  INFO(stored.err);
  CHECK(stored.code == 0);
  CHECK(check_json(sandbox)["ok"] == true);
}

}  // namespace secrets_test
