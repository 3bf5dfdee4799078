#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/recall/maintain.hpp"

namespace gv::recall {

// An action by name or letter: `keep`/`k`, `pin`/`p`, `snooze`/`s`, `demote`/`d`,
// `archive`/`a`, `mark-superseded` (also `mark_superseded`, `supersede`, `superseded`)/`m`.
[[nodiscard]] std::optional<Action> parse_action(std::string_view word);

// A snooze duration: a whole number of days from 1 to 36500, optionally followed by `d`.
[[nodiscard]] std::optional<std::int64_t> parse_days(std::string_view text);

struct DecideArg {
  std::string id;  // without the caret
  Decision decision;
};

// One `--decide ID=ACTION[:days]` value (the id may carry its caret, or be the candidate's list
// number, kept as digits in `id` for resolve_decisions). Throws gv::UsageError.
[[nodiscard]] DecideArg parse_decide_arg(std::string_view arg);

// The decisions a non-interactive run applies: each `--decide`, and with `apply_all` the
// recommended action for every candidate not decided explicitly. Throws gv::UsageError when an
// id is not a candidate, is decided twice, or gets an action its kind does not offer.
[[nodiscard]] Decisions resolve_decisions(const Analysis& analysis,
                                          const std::vector<std::string>& decide_args,
                                          bool apply_all);

// The answer to "Apply all / decide individually?".
enum class Mode { apply_all, individually, cancel };
[[nodiscard]] std::optional<Mode> parse_mode_answer(std::string_view answer);

// One candidate's answer on a terminal: a letter or name it offers, and for snooze an optional
// duration (`s 14`, `s 14d`, `snooze 7`). nullopt when the answer is not one of its choices.
[[nodiscard]] std::optional<Decision> parse_candidate_answer(std::string_view answer,
                                                             CandidateKind kind);

}  // namespace gv::recall
