#pragma once

#include <chrono>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace gv::distill {

// The compress sub-mode's built-in summariser (D10): deterministic and extractive, so the same
// memory always compresses to the same bytes. From `main_content` (the lines between a memory's
// title and its `## History` / `## Connections`) it keeps every heading and fenced code block
// verbatim, the lead sentence, and sentences (list items, table blocks) that carry one of
// `keywords` (case-insensitive substring), aiming at 40% of the words: first one sentence for
// each keyword not yet covered, then the sentences carrying the most keywords while they fit.
// A lead longer than the budget is cut there and marked ` ...`. Kept sentences become `- `
// bullets in their original order. The result has no leading blank
// line and ends with one newline (empty for empty input).
[[nodiscard]] std::string extractive_summary(std::string_view main_content,
                                             const std::vector<std::string>& keywords);

// The keywords (as keyword_key) that occur in `before` but no longer in `after`, compared as
// case-insensitive substrings, in key order without repeats. A keyword the original text never
// mentioned (one only the frontmatter carries) cannot be lost.
[[nodiscard]] std::vector<std::string> lost_keywords(std::string_view before,
                                                     std::string_view after,
                                                     const std::vector<std::string>& keywords);

// How long an external summariser may run before it is killed.
inline constexpr std::chrono::milliseconds k_summarizer_timeout{120'000};

// A summariser command configured by the user (git config `vault.summarizer`, never a tracked
// file, D10).
struct SummarizerCommand {
  std::string command;                                   // run as `/bin/sh -c <command>`
  std::vector<std::pair<std::string, std::string>> env;  // added to the inherited environment
  std::chrono::milliseconds timeout = k_summarizer_timeout;
};

// What compress hands a summariser for one memory. The views are valid during the call.
struct SummaryRequest {
  std::string_view memory_id;
  std::string_view memory_path;
  const std::vector<std::string>& keywords;  // as written in the frontmatter
  std::string_view main_content;             // main_content_of the memory file
};

// The summariser capability compress is given (SubModeContext::summarizer): a name for
// messages and the log, and a function that returns the summariser's raw output for one memory
// (compress checks it with checked_summary). The function may run a process; it throws
// gv::Error when it fails. Tests pass a fake one.
struct Summarizer {
  std::string source;  // the command as configured; named in every error about its output
  std::function<std::string(const SummaryRequest&)> summarize;
};

// The summariser the user configured (git config `vault.summarizer`): a Summarizer that runs
// `command` through run_summarizer with the memory's main content (without surrounding blank
// lines, ending in a newline) on stdin and GIT_VAULT_MEMORY_ID, GIT_VAULT_MEMORY_PATH and
// GIT_VAULT_KEYWORDS (comma-separated) in its environment. nullopt for no command or an empty
// one, which means the built-in extractive_summary.
[[nodiscard]] std::optional<Summarizer> configured_summarizer(std::optional<std::string> command);

// Runs the command with `input` on its stdin and returns its stdout. Throws gv::Error naming the
// command when it cannot be started, exits non-zero, is killed, runs past its time limit (the
// whole process group is killed) or prints more than 16 MiB. The child's stderr is captured and
// its first line quoted in the error.
[[nodiscard]] std::string run_summarizer(const SummarizerCommand& command, std::string_view input);

}  // namespace gv::distill
