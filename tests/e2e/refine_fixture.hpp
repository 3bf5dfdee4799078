#pragma once

#include <stdexcept>
#include <string>

#include "tests/e2e/sandbox.hpp"

namespace gv::test {

// MEM-retry needs all three Tier 1 fixes and nothing from Tier 2: keywords retry, Backoff,
// RETRY, jitter, timeout, backoff (two duplicates; four left), an empty summary, topic
// `/Python/Libs/`.
inline const std::string k_refine_retry =
    "---\n"
    "title: \"Retry\"\n"
    "created: 2026-11-01\n"
    "tags: [PATTERN]\n"
    "topic: \"/Python/Libs/\"\n"
    "source: \"user input\"\n"
    "modified: 2026-11-01\n"
    "keywords:\n"
    "  - retry\n"
    "  - Backoff\n"
    "  - RETRY\n"
    "  - jitter\n"
    "  - timeout\n"
    "  - backoff\n"
    "summary: \"\"\n"
    "retrieval_count: 1\n"
    "last_retrieved: 2026-11-20\n"
    "---\n"
    "\n"
    "# Retry\n"
    "\n"
    "Wrap flaky HTTP calls in a retry loop with exponential waits.\n"
    "\n"
    "## Connections\n"
    "<!-- Add links to related memories using [[filename]] syntax -->\n";

// MEM-retry after Tier 1, as refine and auto must write it on 2026-11-30.
inline const std::string k_refine_retry_fixed =
    "---\n"
    "title: \"Retry\"\n"
    "created: 2026-11-01\n"
    "tags: [PATTERN]\n"
    "topic: \"python/libs\"\n"
    "source: \"user input\"\n"
    "modified: 2026-11-30\n"
    "keywords:\n"
    "  - retry\n"
    "  - Backoff\n"
    "  - jitter\n"
    "  - timeout\n"
    "summary: \"Wrap flaky HTTP calls in a retry loop with exponential waits.\"\n"
    "retrieval_count: 1\n"
    "last_retrieved: 2026-11-20\n"
    "---\n"
    "\n"
    "# Retry\n"
    "\n"
    "Wrap flaky HTTP calls in a retry loop with exponential waits.\n"
    "\n"
    "## Connections\n"
    "<!-- Add links to related memories using [[filename]] syntax -->\n";

// MEM-editor has only Tier 2 issues: one keyword while `plugin` appears three times
// (keyword_enrich), eleven CONFIG cue words under a PATTERN tag (category_reclassify), and the
// one-segment topic `neovim` that MEM-tools files as `tools/neovim` (topic_correct).
inline const std::string k_refine_editor =
    "---\n"
    "title: \"Editor setup\"\n"
    "created: 2026-11-01\n"
    "tags: [PATTERN, STANDARD]\n"
    "topic: \"neovim\"\n"
    "source: \"user input\"\n"
    "modified: 2026-11-01\n"
    "keywords: [lazy]\n"
    "summary: \"How the editor is set up\"\n"
    "retrieval_count: 1\n"
    "last_retrieved: 2026-11-20\n"
    "---\n"
    "\n"
    "# Editor setup\n"
    "\n"
    "Install the plugin manager, then configure each plugin. Plugin settings live in one\n"
    "config file; every option has a default. Keymaps: the keymap table.\n";

// Clean: four keywords, a summary, a normalised two-segment topic, no cue words.
inline const std::string k_refine_tools =
    "---\n"
    "title: \"Tools\"\n"
    "created: 2026-11-01\n"
    "tags: [INSIGHT]\n"
    "topic: \"tools/neovim\"\n"
    "source: \"user input\"\n"
    "modified: 2026-11-01\n"
    "keywords: [editor, terminal, shell, tmux]\n"
    "summary: \"Tool notes\"\n"
    "retrieval_count: 1\n"
    "last_retrieved: 2026-11-20\n"
    "---\n"
    "\n"
    "# Tools\n"
    "\n"
    "Short notes.\n";

// Writes MEM-tools and, when asked, MEM-retry and MEM-editor, regenerates the index files with
// `git vault index` and commits everything.
inline void write_refine_vault(Sandbox& sandbox, bool with_retry = true, bool with_editor = true) {
  if (with_retry) {
    sandbox.write(".memory/10-Memories/MEM-retry.md", k_refine_retry);
  }
  if (with_editor) {
    sandbox.write(".memory/10-Memories/MEM-editor.md", k_refine_editor);
  }
  sandbox.write(".memory/10-Memories/MEM-tools.md", k_refine_tools);
  sandbox.write("specs/state.json", "{}\n");  // refreshed by actions, never created (D8)
  const Result index = sandbox.vault({"index"});
  if (index.code != 0) {
    throw std::runtime_error("git vault index failed: " + index.err);
  }
  sandbox.commit_all("refine fixture");
}

}  // namespace gv::test
