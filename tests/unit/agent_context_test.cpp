#include <catch2/catch.hpp>

#include "core/agent/briefing.hpp"
#include "core/agent/context.hpp"
#include "core/vault/vault.hpp"
#include "tests/unit/gate_test_snapshot.hpp"

namespace agent_context_test {

using gv::Memory;
using gv::agent::ContextSelection;
using gv::agent::select_context;

namespace {

Memory memory(const std::string& id, std::vector<std::string> keywords, std::int64_t tokens,
              const std::string& topic = "misc", const std::string& category = "PATTERN") {
  Memory m;
  m.id = id;
  m.path = gv::memory_path(id);
  m.title = "Title of " + id;
  m.keywords = std::move(keywords);
  m.token_count = tokens;
  m.topic = topic;
  m.category = category;
  m.tags = {category};
  return m;
}

std::vector<std::string> picked(const ContextSelection& selection) {
  std::vector<std::string> ids;
  for (const auto& pick : selection.picked) {
    ids.push_back(pick.memory->id);
  }
  return ids;
}

}  // namespace

TEST_CASE("context keywords: letters only, stop words out, longer than three, sorted, ten",
          "[context]") {
  CHECK(gv::agent::context_keywords("Fix the Neovim telescope-picker and the LSP config, again!") ==
        std::vector<std::string>{"config", "neovim", "picker", "telescope"});
  CHECK(gv::agent::context_keywords("alpha bravo charlie delta echoes foxtrot golf hotel india "
                                    "juliet kilos lima mike")
            .size() == 10);
  CHECK(gv::agent::context_keywords("python3 py2exe") == std::vector<std::string>{"python"});
}

TEST_CASE("context scores keywords plus a topic or category bonus; ties in id order", "[context]") {
  const std::vector<Memory> memories{
      memory("MEM-c", {"neovim", "telescope"}, 100),
      memory("MEM-a", {"neovim"}, 100),
      memory("MEM-b", {"neovim"}, 100, "neovim"),         // topic == type: +2
      memory("MEM-d", {"other"}, 100, "misc", "CONFIG"),  // category == type: +1 (no keyword)
      memory("MEM-e", {"unrelated"}, 100),
  };
  const ContextSelection neovim = select_context(memories, "neovim telescope setup", "neovim");
  CHECK(picked(neovim) == std::vector<std::string>{"MEM-b", "MEM-c", "MEM-a"});
  CHECK(neovim.picked[0].score == 3);
  const ContextSelection config = select_context(memories, "neovim telescope", "config");
  CHECK(picked(config) == std::vector<std::string>{"MEM-c", "MEM-a", "MEM-b", "MEM-d"});
}

TEST_CASE("context takes at most five memories and 2,000 tokens, skipping one too large",
          "[context]") {
  std::vector<Memory> memories;
  memories.push_back(memory("MEM-0-huge", {"deploy", "release", "staging"}, 2500));
  for (int i = 1; i <= 7; ++i) {
    memories.push_back(memory("MEM-" + std::to_string(i), {"deploy"}, 300));
  }
  memories.push_back(memory("MEM-8-big", {"deploy", "release"}, 1900));
  const ContextSelection selection = select_context(memories, "deploy release staging", "");
  // MEM-0-huge (score 3) alone exceeds the budget and is skipped; MEM-8-big (score 2) fits;
  // no 300-token memory fits after it (1900 + 300 > 2000).
  CHECK(picked(selection) == std::vector<std::string>{"MEM-8-big"});
  CHECK(selection.tokens == 1900);

  memories.pop_back();
  const ContextSelection five = select_context(memories, "deploy", "");
  CHECK(picked(five) == std::vector<std::string>{"MEM-1", "MEM-2", "MEM-3", "MEM-4", "MEM-5"});
  CHECK(five.tokens == 1500);
}

TEST_CASE("context leaves out tombstoned memories and email preferences", "[context]") {
  std::vector<Memory> memories{memory("MEM-a", {"inbox"}, 10),
                               memory("MEM-b", {"inbox"}, 10, "email/preferences/work/x"),
                               memory("MEM-c", {"inbox"}, 10)};
  memories[2].tombstoned = true;
  CHECK(picked(select_context(memories, "inbox rules", "")) == std::vector<std::string>{"MEM-a"});
  CHECK(picked(select_context(memories, "inbox rules", "email")) ==
        std::vector<std::string>{"MEM-a", "MEM-b"});
}

TEST_CASE("the memory-context block has the original's exact layout", "[context]") {
  const std::vector<Memory> memories{memory("MEM-a", {"deploy"}, 10)};
  const ContextSelection selection = select_context(memories, "deploy", "");
  const std::string block = gv::agent::render_context_block(
      selection, [](const Memory&) { return std::optional<std::string>("---\nx\n---\nbody\n\n"); });
  CHECK(block ==
        "<memory-context>\nThe following memories from previous sessions may be relevant to this "
        "task.\n\n### Title of MEM-a (relevance: 1)\n---\nx\n---\nbody\n\n</memory-context>\n");
}

TEST_CASE("the memory-context block leaves out a memory's History, as its token count does",
          "[context]") {
  const std::string file =
      "---\ntitle: x\n---\n\n# X\n\nCurrent advice.\n\n## History\n\n### Previous Version "
      "(2026-01-01)\n\nOld advice.\n\n## Connections\n- [[MEM-b]]\n";
  CHECK(gv::agent::without_history(file) ==
        "---\ntitle: x\n---\n\n# X\n\nCurrent advice.\n\n## Connections\n- [[MEM-b]]\n");
  // No History, or a `## History` inside fenced code: the file as it is.
  const std::string plain = "---\ntitle: x\n---\n\n# X\n\n```\n## History\n```\n";
  CHECK(gv::agent::without_history(plain) == plain);
  CHECK(gv::agent::without_history("no frontmatter\n## History\nold\n") == "no frontmatter\n");

  const std::vector<Memory> memories{memory("MEM-a", {"deploy"}, 10)};
  const std::string block = gv::agent::render_context_block(select_context(memories, "deploy", ""),
                                                            [&](const Memory&) { return file; });
  CHECK_THAT(block, Catch::Contains("Current advice.") && !Catch::Contains("Old advice."));
}

TEST_CASE("the session briefing lists open loops, active context and used memories in budget",
          "[context]") {
  gv::test::MapSnapshot snapshot({
      {"CLAUDE.local.md",
       "# Working Memory\n\n## Active Context\n\n**Current Focus**: shipping the MCP server\n"
       "**Key Deadline**: [none]\n\n## Open Loops\n\n- [None yet]\n- answer the review\n"},
      {"memory/registers/open-loops.md",
       "# Open Loops\n\n## Active\n\n- [ ] renew the certificate ^tr0123456789\n\n"
       "## Recently Closed\n\n- [x] old thing\n"},
  });
  std::vector<Memory> memories{memory("MEM-a", {"k"}, 10), memory("MEM-b", {"k"}, 10)};
  memories[0].created = gv::Date{100};
  memories[1].created = gv::Date{100};
  memories[1].retrieval_count = 2;
  memories[1].last_retrieved = gv::Date{105};
  const gv::agent::SessionBriefing briefing = gv::agent::session_briefing(
      memories, snapshot, gv::Date{110}, {{"MEM-a", {5, gv::Date{110}}}}, 1000);
  CHECK(briefing.memories == std::vector<std::string>{"MEM-a", "MEM-b"});
  CHECK_THAT(briefing.text, Catch::Contains("**Current Focus**: shipping the MCP server"));
  CHECK_THAT(briefing.text, !Catch::Contains("Key Deadline"));
  CHECK_THAT(briefing.text, Catch::Contains("- answer the review (CLAUDE.local.md)"));
  CHECK_THAT(briefing.text,
             Catch::Contains("- [ ] renew the certificate (registers/open-loops.md)"));
  CHECK_THAT(briefing.text, !Catch::Contains("old thing"));
  CHECK_THAT(briefing.text, Catch::Contains("MEM-a: Title of MEM-a (PATTERN, created 10 days ago, "
                                            "retrieved 5 times, last today)"));
  CHECK_THAT(briefing.text, Catch::Contains("retrieved 2 times, last 5 days ago"));

  const gv::agent::SessionBriefing small =
      gv::agent::session_briefing(memories, snapshot, gv::Date{110}, {}, 40);
  CHECK(small.tokens <= 40);
  CHECK_THAT(small.text, Catch::Contains("shipping the MCP server"));
}

}  // namespace agent_context_test
