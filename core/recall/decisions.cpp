#include "core/recall/decisions.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <set>

#include "core/error.hpp"
#include "core/recall/entry.hpp"
#include "core/util/text.hpp"

namespace gv::recall {
namespace {

constexpr std::int64_t k_max_snooze_days = 36500;

using util::trim;

std::string lower(std::string_view text) { return util::to_lower_ascii(text); }

std::string choices_of(CandidateKind kind) {
  return kind == CandidateKind::pressure ? "keep, pin, snooze, demote, archive, mark-superseded"
                                         : "archive, keep";
}

}  // namespace

std::optional<Action> parse_action(std::string_view word) {
  const std::string name = lower(trim(word));
  if (name == "k" || name == "keep") {
    return Action::keep;
  }
  if (name == "p" || name == "pin") {
    return Action::pin;
  }
  if (name == "s" || name == "snooze") {
    return Action::snooze;
  }
  if (name == "d" || name == "demote") {
    return Action::demote;
  }
  if (name == "a" || name == "archive") {
    return Action::archive;
  }
  if (name == "m" || name == "mark-superseded" || name == "mark_superseded" ||
      name == "supersede" || name == "superseded") {
    return Action::mark_superseded;
  }
  return std::nullopt;
}

std::optional<std::int64_t> parse_days(std::string_view text) {
  text = trim(text);
  if (text.ends_with('d') || text.ends_with('D')) {
    text.remove_suffix(1);
  }
  if (text.empty() || text.size() > 5) {
    return std::nullopt;
  }
  std::int64_t days = 0;
  for (const char c : text) {
    if (c < '0' || c > '9') {
      return std::nullopt;
    }
    days = days * 10 + (c - '0');
  }
  if (days < 1 || days > k_max_snooze_days) {
    return std::nullopt;
  }
  return days;
}

DecideArg parse_decide_arg(std::string_view arg) {
  const std::size_t equals = arg.find('=');
  if (equals == std::string_view::npos) {
    throw UsageError("--decide '{}': expected ID=ACTION[:days]", arg);
  }
  std::string_view id = trim(arg.substr(0, equals));
  if (id.starts_with('^')) {
    id.remove_prefix(1);
  }
  // A list number (`2=archive`) is resolved against the run's candidates later.
  const bool number =
      !id.empty() && id.size() <= 9 && id.find_first_not_of("0123456789") == std::string_view::npos;
  if (!number && !is_valid_id(id)) {
    throw UsageError(
        "--decide '{}': '{}' is neither an entry id (tr + 10 lowercase hex digits) nor a "
        "candidate's list number",
        arg, id);
  }
  std::string_view action_text = arg.substr(equals + 1);
  std::optional<std::string_view> days_text;
  if (const std::size_t colon = action_text.find(':'); colon != std::string_view::npos) {
    days_text = action_text.substr(colon + 1);
    action_text = action_text.substr(0, colon);
  }
  const std::optional<Action> action = parse_action(action_text);
  if (!action) {
    throw UsageError(
        "--decide '{}': unknown action '{}' (keep, pin, snooze, demote, archive, "
        "mark-superseded)",
        arg, action_text);
  }
  Decision decision{*action, k_default_snooze_days};
  if (days_text) {
    if (*action != Action::snooze) {
      throw UsageError("--decide '{}': only snooze takes a number of days", arg);
    }
    const std::optional<std::int64_t> days = parse_days(*days_text);
    if (!days) {
      throw UsageError("--decide '{}': '{}' is not a number of days from 1 to {}", arg, *days_text,
                       k_max_snooze_days);
    }
    decision.snooze_days = *days;
  }
  return DecideArg{std::string{id}, decision};
}

Decisions resolve_decisions(const Analysis& analysis, const std::vector<std::string>& decide_args,
                            bool apply_all) {
  std::map<std::string, CandidateKind> kinds;
  for (const Candidate* candidate : analysis.numbered()) {
    kinds.emplace(candidate->id, candidate->kind);
  }
  const std::vector<const Candidate*> numbered = analysis.numbered();
  Decisions decisions;
  for (const std::string& arg : decide_args) {
    DecideArg parsed = parse_decide_arg(arg);
    if (!parsed.id.empty() && parsed.id.find_first_not_of("0123456789") == std::string::npos) {
      const std::size_t number = std::stoul(parsed.id);
      if (numbered.empty()) {
        throw UsageError(
            "--decide '{}': this run lists no candidates, so there is nothing to decide "
            "(git vault recall maintain --dry-run shows what it finds)",
            arg);
      }
      if (number == 0 || number > numbered.size()) {
        throw UsageError("--decide '{}': this run lists {}", arg,
                         numbered.size() == 1 ? std::string("one candidate, number 1")
                                              : fmt::format("candidates 1 to {}", numbered.size()));
      }
      parsed.id = numbered[number - 1]->id;
    }
    const auto kind = kinds.find(parsed.id);
    if (kind == kinds.end()) {
      throw UsageError("--decide '{}': ^{} is not a candidate of this run", arg, parsed.id);
    }
    if (!action_allowed(kind->second, parsed.decision.action)) {
      throw UsageError("--decide '{}': a superseded entry can only be given: {}", arg,
                       choices_of(kind->second));
    }
    if (!decisions.emplace(parsed.id, parsed.decision).second) {
      throw UsageError("--decide '{}': ^{} is decided twice", arg, parsed.id);
    }
  }
  if (apply_all) {
    for (const auto& [id, kind] : kinds) {
      decisions.emplace(id, recommended_decision(kind));
    }
  }
  return decisions;
}

std::optional<Mode> parse_mode_answer(std::string_view answer) {
  const std::string text = lower(trim(answer));
  if (text == "a" || text == "all" || text == "apply all" || text == "y" || text == "yes") {
    return Mode::apply_all;
  }
  if (text == "i" || text == "d" || text == "individually" || text == "decide individually") {
    return Mode::individually;
  }
  if (text == "c" || text == "q" || text == "n" || text == "no" || text == "cancel" ||
      text == "quit") {
    return Mode::cancel;
  }
  return std::nullopt;
}

std::optional<Decision> parse_candidate_answer(std::string_view answer, CandidateKind kind) {
  answer = trim(answer);
  // `s14d` as well as `s 14d`: split the leading word from a number glued to it.
  std::size_t split = answer.find_first_of(" \t");
  if (split == std::string_view::npos) {
    split = answer.find_first_of("0123456789");
  }
  const std::string_view word = answer.substr(0, split);
  const std::string_view rest = split == std::string_view::npos ? "" : answer.substr(split);
  const std::optional<Action> action = parse_action(word);
  if (!action || !action_allowed(kind, *action)) {
    return std::nullopt;
  }
  Decision decision{*action, k_default_snooze_days};
  if (!trim(rest).empty()) {
    const std::optional<std::int64_t> days = parse_days(rest);
    if (*action != Action::snooze || !days) {
      return std::nullopt;
    }
    decision.snooze_days = *days;
  }
  return decision;
}

}  // namespace gv::recall
