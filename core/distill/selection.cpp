#include "core/distill/selection.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>

#include "core/error.hpp"
#include "core/util/shell_word.hpp"

namespace gv::distill {
namespace {

std::optional<std::size_t> parse_number(std::string_view text) {
  std::size_t value = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc{} || end != text.data() + text.size()) {
    return std::nullopt;
  }
  return value;
}

}  // namespace

Selection parse_selection(std::string_view text, const std::vector<std::string>& keys) {
  Selection selection;
  std::vector<bool> chosen(keys.size(), false);
  std::size_t pos = 0;
  while (pos < text.size()) {
    const std::size_t end = text.find_first_of(", \t\r\n", pos);
    const std::string_view token =
        text.substr(pos, end == std::string_view::npos ? end : end - pos);
    pos = end == std::string_view::npos ? text.size() : end + 1;
    if (token.empty()) {
      continue;
    }
    if (token == "a" || token == "all") {
      std::fill(chosen.begin(), chosen.end(), true);
      continue;
    }
    if (const auto key = std::find(keys.begin(), keys.end(), token); key != keys.end()) {
      chosen[static_cast<std::size_t>(key - keys.begin())] = true;
      continue;
    }
    const std::size_t dash = token.find('-');
    const auto first = parse_number(token.substr(0, dash));
    const auto last = dash == std::string_view::npos ? first : parse_number(token.substr(dash + 1));
    if (!first || !last || *first < 1 || *last < *first || *last > keys.size()) {
      selection.error = keys.empty() ? fmt::format("`{}` is not a candidate: there are none", token)
                                     : fmt::format(
                                           "`{}` is not a candidate: use numbers 1-{}, ranges like "
                                           "1-2, candidate names, or `a` for all",
                                           token, keys.size());
      return selection;
    }
    for (std::size_t i = *first; i <= *last; ++i) {
      chosen[i - 1] = true;
    }
  }
  for (std::size_t i = 0; i < chosen.size(); ++i) {
    if (chosen[i]) {
      selection.indexes.push_back(i);
    }
  }
  return selection;
}

std::string selection_help(const CandidateSet& set, std::size_t shown) {
  const std::size_t count = set.candidates.size();
  std::string text = fmt::format("The {} candidate{}, with the keys --select takes:\n", count,
                                 count == 1 ? "" : "s");
  for (std::size_t i = 0; i < count && i < shown; ++i) {
    text += fmt::format("  {:>2}. {}\n", i + 1, set.candidates[i].key);
  }
  if (count > shown) {
    text += fmt::format("  ... and {} more, numbered {}-{} in the same order\n", count - shown,
                        shown + 1, count);
  }
  return text;
}

std::string run_hint(std::string_view flag, const CandidateSet& set) {
  if (set.candidates.empty()) {
    return {};
  }
  return fmt::format(
      "To carry it out: git vault distill {0} (on a terminal it asks which), or name them: git "
      "vault distill {0} --select {1} (--all takes every one).\n",
      flag, util::shell_word(set.candidates.front().key));
}

std::vector<std::size_t> prompt_selection(const CandidateSet& set, const Terminal& terminal,
                                          std::size_t shown) {
  std::string text = fmt::format("{} ({} found)\n\n", set.question, set.candidates.size());
  const std::size_t count =
      shown == 0 ? set.candidates.size() : std::min(shown, set.candidates.size());
  for (std::size_t i = 0; i < count; ++i) {
    const Candidate& candidate = set.candidates[i];
    text += fmt::format("  {:>2}. {}\n", i + 1, candidate.shown_label());
    const std::string details = candidate.shown_details();
    std::size_t start = 0;
    while (start < details.size()) {
      const std::size_t end = details.find('\n', start);
      const std::size_t stop = end == std::string::npos ? details.size() : end;
      text += fmt::format("      {}\n", std::string_view(details).substr(start, stop - start));
      start = stop + 1;
    }
  }
  if (count < set.candidates.size()) {
    text += fmt::format(
        "  ... and {} more, numbered {} to {}: every number, range or id works here; `--limit 0` "
        "lists them all, `--dry-run` shows them as a table\n",
        set.candidates.size() - count, count + 1, set.candidates.size());
  }
  terminal.write(text);
  std::vector<std::string> keys;
  for (const Candidate& candidate : set.candidates) {
    keys.push_back(candidate.key);
  }
  while (true) {
    terminal.write("\nSelect (numbers, ranges like 1-3, `a` for all, empty for none): ");
    const Terminal::Line line = terminal.read_line();
    const Selection selection = parse_selection(line.text, keys);
    if (selection.error.empty()) {
      return selection.indexes;
    }
    if (line.at_end) {
      throw Error("{}", selection.error);
    }
    terminal.write(fmt::format("{}\n", selection.error));
  }
}

}  // namespace gv::distill
