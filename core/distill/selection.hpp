#pragma once

#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/distill/sub_mode.hpp"

namespace gv::distill {

// The result of reading a selection: indexes into the candidate list (ascending, no repeats),
// or an error message saying which part was not understood.
struct Selection {
  std::vector<std::size_t> indexes;
  std::string error;  // empty when the text was understood
};

// Reads what a person typed at the prompt or passed to --select: comma- or space-separated
// candidate numbers (1-based), ranges (`2-4`), candidate keys (`MEM-x`), `a`/`all` for every
// candidate; empty text selects nothing.
[[nodiscard]] Selection parse_selection(std::string_view text,
                                        const std::vector<std::string>& keys);

// For a run that needs a selection and has no terminal to ask on: the first `shown` candidates
// of `set`, numbered, each with the key --select takes for it, then how to select the rest.
// Without it a merge pair's key (`MEM-a+MEM-b`) could only be guessed: the dry run's table does
// not show keys.
[[nodiscard]] std::string selection_help(const CandidateSet& set, std::size_t shown);

// The line a dry run of an action that needs a selection ends with: the commands that carry it
// out as printed, on a terminal (which asks) and off one (`--select` with the first
// candidate's key, or `--all`). `flag` is the sub-mode's, e.g. `--merge`.
[[nodiscard]] std::string run_hint(std::string_view flag, const CandidateSet& set);

// The terminal the selection prompt talks to, passed in by the command so that the prompt runs
// the same against a test's script.
struct Terminal {
  struct Line {
    std::string text;     // without its newline
    bool at_end = false;  // input ended before a newline (or before anything was typed)
  };
  std::function<void(std::string_view)> write;
  std::function<Line()> read_line;
};

// The selection prompt: the candidates of `set` with their details, the first `shown` of them
// (0: all) and then how many more there are, so that the prompt is not scrolled away by
// thousands of lines; then one line of numbers, ranges, names or `a`, read from `terminal`,
// which may name any candidate, shown or not. Asks again after a line it cannot read. Returns
// the selected indexes (possibly none). Throws gv::Error with parse_selection's message when
// the input ends on a line it cannot read.
[[nodiscard]] std::vector<std::size_t> prompt_selection(const CandidateSet& set,
                                                        const Terminal& terminal,
                                                        std::size_t shown = 0);

}  // namespace gv::distill
