#include "core/distill/summarize.hpp"

#include <fmt/format.h>

#include <catch2/catch.hpp>

#include "core/error.hpp"
#include "core/memory/tokens.hpp"

namespace summarize_test {

using gv::distill::extractive_summary;
using gv::distill::lost_keywords;
using gv::distill::run_summarizer;
using gv::distill::SummarizerCommand;

namespace {

// 40 words: budget 16. Worked out by hand in the first test.
const std::string k_main =
    "\n"
    "Retries need care. Use exponential backoff for every retry. The weather is nice today.\n"
    "Jitter spreads the load.\n"
    "\n"
    "## Details\n"
    "\n"
    "- First item about nothing.\n"
    "- Second item mentions jitter.\n"
    "\n"
    "```sh\n"
    "retry --max 3\n"
    "```\n"
    "\n"
    "Closing remarks without keywords here.\n";

}  // namespace

TEST_CASE("the summariser keeps headings, code, the lead and one sentence per keyword",
          "[summarize]") {
  // Headings and code (7 words) and the lead (3) are kept; `backoff` and `jitter` each need
  // their first sentence (6 + 4 words, 20 in all), which already exceeds the 16-word budget,
  // so the second jitter item is dropped.
  CHECK(extractive_summary(k_main, {"Jitter", "backoff", "jitter"}) ==
        "- Retries need care.\n"
        "- Use exponential backoff for every retry.\n"
        "- Jitter spreads the load.\n"
        "\n"
        "## Details\n"
        "\n"
        "```sh\n"
        "retry --max 3\n"
        "```\n");
}

TEST_CASE("the summariser fills its budget with the sentences carrying most keywords",
          "[summarize]") {
  // 40 words, budget 16: the lead (2 words), alpha's first sentence (4) and beta's (5) make
  // 11; the remaining keyword sentence (4) still fits, the filler never does.
  const std::string text =
      "Short lead. Alpha appears once here. Alpha and beta appear here. Beta appears alone "
      "here. Filler words one two three. Filler words four five six. Filler words seven eight "
      "nine. Filler words ten eleven twelve. Filler words end right here.";
  CHECK(gv::count_words(text) == 40);
  CHECK(extractive_summary(text, {"alpha", "beta"}) ==
        "- Short lead.\n"
        "- Alpha appears once here.\n"
        "- Alpha and beta appear here.\n"
        "- Beta appears alone here.\n");
  // With a budget too small for it, the last sentence goes.
  CHECK(extractive_summary(text.substr(0, text.find(" Filler words ten")), {"alpha", "beta"}) ==
        "- Short lead.\n"
        "- Alpha appears once here.\n"
        "- Alpha and beta appear here.\n");
}

TEST_CASE("the summariser is deterministic and cuts a long note by about 60%", "[summarize]") {
  std::string text;
  for (int i = 0; i < 60; ++i) {
    text +=
        fmt::format("Sentence {} talks about {} in detail. ", i, i % 3 == 0 ? "caching" : "others");
    if (i % 10 == 9) {
      text += "\n\n";
    }
  }
  const std::string first = extractive_summary(text, {"caching"});
  CHECK(first == extractive_summary(text, {"caching"}));
  const auto before = gv::count_words(text);
  const auto after = gv::count_words(first);
  CHECK(before == 60 * 7);
  // The 20 caching sentences (7 words each, 140 of the 168-word budget), each with a bullet.
  CHECK(after <= before * 45 / 100);
  CHECK(after >= before * 30 / 100);
  CHECK(first.find("caching") != std::string::npos);
}

TEST_CASE("text without keywords keeps its lead sentence", "[summarize]") {
  CHECK(extractive_summary("One. Two three. Four five six.\n", {}) == "- One.\n");
  CHECK(extractive_summary("", {"x"}).empty());
}

TEST_CASE("a keyword is lost only when the old text mentioned it", "[summarize]") {
  CHECK(lost_keywords("Uses Redis and caching", "uses redis", {"redis", "Caching", "absent"}) ==
        std::vector<std::string>{"caching"});
  CHECK(lost_keywords("a b", "A B", {"a", "b"}).empty());
}

TEST_CASE("an external summariser gets the text on stdin and its stdout is the summary",
          "[summarize][process]") {
  SummarizerCommand command;
  command.command = "head -c 5";
  CHECK(run_summarizer(command, "abcdefghij") == "abcde");
  command.command = "tr a-z A-Z";
  CHECK(run_summarizer(command, "shout\n") == "SHOUT\n");
  command.command = "printf '%s:%s' \"$GIT_VAULT_MEMORY_ID\" \"$(cat | wc -c)\"";
  command.env = {{"GIT_VAULT_MEMORY_ID", "MEM-x"}};
  CHECK(run_summarizer(command, "four") == "MEM-x:4");
}

TEST_CASE("a summariser that stops reading a large input early does not break the run",
          "[summarize][process]") {
  const std::string big(4 * 1024 * 1024, 'x');
  SummarizerCommand command;
  command.command = "head -c 50";
  CHECK(run_summarizer(command, big) == std::string(50, 'x'));
  command.command = "cat";
  CHECK(run_summarizer(command, big).size() == big.size());
}

TEST_CASE("a failing summariser is an error naming the command", "[summarize][process]") {
  SummarizerCommand command;
  command.command = "echo broken >&2; exit 3";
  CHECK_THROWS_WITH(run_summarizer(command, "x"),
                    "summarizer `echo broken >&2; exit 3` exited with status 3: broken; nothing "
                    "was written");
  command.command = "no-such-summarizer-command-here";
  CHECK_THROWS_WITH(run_summarizer(command, "x"),
                    Catch::Contains("`no-such-summarizer-command-here` exited with status 127"));
}

TEST_CASE("a summariser past its time limit is killed with its children", "[summarize][process]") {
  SummarizerCommand command;
  command.command = "sleep 30 | cat";
  command.timeout = std::chrono::milliseconds(300);
  const auto start = std::chrono::steady_clock::now();
  CHECK_THROWS_WITH(run_summarizer(command, "x"),
                    "summarizer `sleep 30 | cat` did not finish within 0.3 seconds; nothing was "
                    "written");
  CHECK(std::chrono::steady_clock::now() - start < std::chrono::seconds(5));
}

}  // namespace summarize_test
