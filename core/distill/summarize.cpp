#include "core/distill/summarize.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <optional>

#include "core/distill/text_edits.hpp"
#include "core/error.hpp"
#include "core/memory/lines.hpp"
#include "core/memory/memory.hpp"
#include "core/memory/tokens.hpp"
#include "core/util/process.hpp"
#include "core/util/text.hpp"

namespace gv::distill {
namespace {

// ---- the extractive summariser ----

enum class UnitKind { heading, code, table, sentence, item };

// One piece of the main content the summariser keeps or drops as a whole.
struct Unit {
  UnitKind kind = UnitKind::sentence;
  std::string text;  // verbatim lines for heading/code/table; one joined line for prose
  std::int64_t words = 0;
  std::vector<std::size_t> keywords;  // indexes into the keyword keys it carries
};

[[nodiscard]] bool is_prose(UnitKind kind) {
  return kind == UnitKind::sentence || kind == UnitKind::item || kind == UnitKind::table;
}

std::string lowered(std::string_view text) {
  std::string out(text);
  std::transform(out.begin(), out.end(), out.begin(), [](unsigned char c) {
    return static_cast<char>(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
  });
  return out;
}

using util::trim;

[[nodiscard]] bool is_heading(std::string_view line) {
  std::size_t pos = 0;
  while (pos < line.size() && pos < 3 && line[pos] == ' ') {
    ++pos;
  }
  std::size_t hashes = 0;
  while (pos + hashes < line.size() && line[pos + hashes] == '#') {
    ++hashes;
  }
  return hashes >= 1 && hashes <= 6 &&
         (pos + hashes == line.size() || line[pos + hashes] == ' ' || line[pos + hashes] == '\t');
}

// The text of a list item line without its marker (`- `, `* `, `+ `, `1. `, `1) `), or nullopt.
std::optional<std::string_view> item_text(std::string_view line) {
  const std::string_view text = trim(line);
  if (text.size() >= 2 && (text[0] == '-' || text[0] == '*' || text[0] == '+') &&
      (text[1] == ' ' || text[1] == '\t')) {
    return trim(text.substr(2));
  }
  std::size_t digits = 0;
  while (digits < text.size() && text[digits] >= '0' && text[digits] <= '9') {
    ++digits;
  }
  if (digits > 0 && digits + 1 < text.size() && (text[digits] == '.' || text[digits] == ')') &&
      (text[digits + 1] == ' ' || text[digits + 1] == '\t')) {
    return trim(text.substr(digits + 2));
  }
  return std::nullopt;
}

// Splits after `.`, `!` or `?` (and any closing quotes, brackets or emphasis) followed by a
// space. Abbreviations split too; the cost is a shorter kept sentence, never a lost one.
std::vector<std::string> split_sentences(std::string_view paragraph) {
  std::vector<std::string> sentences;
  std::size_t start = 0;
  for (std::size_t i = 0; i < paragraph.size(); ++i) {
    const char c = paragraph[i];
    if (c != '.' && c != '!' && c != '?') {
      continue;
    }
    std::size_t end = i + 1;
    while (end < paragraph.size() && std::strchr("\"')]*_`", paragraph[end]) != nullptr) {
      ++end;
    }
    if (end < paragraph.size() && paragraph[end] != ' ') {
      continue;
    }
    const std::string_view sentence = trim(paragraph.substr(start, end - start));
    if (!sentence.empty()) {
      sentences.emplace_back(sentence);
    }
    start = end;
    i = end;
  }
  const std::string_view rest = trim(paragraph.substr(std::min(start, paragraph.size())));
  if (!rest.empty()) {
    sentences.emplace_back(rest);
  }
  return sentences;
}

// The main content cut into units in document order: one per heading, code block, table, list
// item and sentence.
class Splitter {
 public:
  void feed(std::string_view line, bool in_fence) {
    if (in_fence) {
      if (m_open != UnitKind::code) {
        flush();
        m_open = UnitKind::code;
      }
      m_lines.emplace_back(line);
      return;
    }
    const std::string_view text = trim(line);
    if (text.empty()) {
      flush();
      return;
    }
    if (is_heading(line)) {
      flush();
      add(UnitKind::heading, std::string(line));
      return;
    }
    if (text.front() == '|') {
      if (m_open != UnitKind::table) {
        flush();
        m_open = UnitKind::table;
      }
      m_lines.emplace_back(line);
      return;
    }
    if (const auto item = item_text(line)) {
      flush();
      m_open = UnitKind::item;
      m_lines.emplace_back(*item);
      return;
    }
    if (m_open != UnitKind::item && m_open != UnitKind::sentence) {
      flush();
      m_open = UnitKind::sentence;
    }
    m_lines.emplace_back(text);  // a paragraph line, or the continuation of an item
  }

  std::vector<Unit> finish() {
    flush();
    return std::move(m_units);
  }

 private:
  void add(UnitKind kind, std::string text) {
    Unit unit;
    unit.kind = kind;
    unit.words = count_words(text);
    unit.text = std::move(text);
    m_units.push_back(std::move(unit));
  }

  void flush() {
    if (!m_open) {
      return;
    }
    const UnitKind kind = *m_open;
    m_open.reset();
    const std::vector<std::string> lines = std::move(m_lines);
    m_lines.clear();
    std::string joined;
    for (const std::string& line : lines) {
      if (!joined.empty()) {
        joined += kind == UnitKind::code || kind == UnitKind::table ? "\n" : " ";
      }
      joined += line;
    }
    if (kind != UnitKind::sentence) {
      add(kind, std::move(joined));
      return;
    }
    for (std::string& sentence : split_sentences(joined)) {
      add(UnitKind::sentence, std::move(sentence));
    }
  }

  std::optional<UnitKind> m_open;
  std::vector<std::string> m_lines;
  std::vector<Unit> m_units;
};

// A lead longer than the whole budget (an unpunctuated wall of text) is cut at the budget and
// marked `...`; the rest becomes the next unit, so keywords it carries can still be kept.
void split_long_lead(std::vector<Unit>& units, std::int64_t budget) {
  const auto lead = std::find_if(units.begin(), units.end(),
                                 [](const Unit& unit) { return is_prose(unit.kind); });
  if (lead == units.end() || lead->kind == UnitKind::table || lead->words <= budget ||
      budget <= 0) {
    return;
  }
  std::vector<std::string_view> words;
  const std::string_view text = lead->text;
  std::size_t pos = 0;
  while ((pos = text.find_first_not_of(" \t", pos)) != std::string_view::npos) {
    const std::size_t end = std::min(text.find_first_of(" \t", pos), text.size());
    words.push_back(text.substr(pos, end - pos));
    pos = end;
  }
  const auto cut = static_cast<std::size_t>(budget);
  std::string head;
  std::string rest;
  for (std::size_t i = 0; i < words.size(); ++i) {
    std::string& part = i < cut ? head : rest;
    part += part.empty() ? "" : " ";
    part += words[i];
  }
  Unit remainder;
  remainder.kind = UnitKind::sentence;
  remainder.words = count_words(rest);
  remainder.text = std::move(rest);
  lead->text = head + " ...";
  lead->words = count_words(lead->text);
  units.insert(lead + 1, std::move(remainder));
}

// ---- the external summariser ----

constexpr std::size_t k_max_output = 16 * 1024 * 1024;

std::string first_line(std::string_view text) {
  text = trim(text);
  return std::string(text.substr(0, text.find('\n')));
}

}  // namespace

std::string extractive_summary(std::string_view main_content,
                               const std::vector<std::string>& keywords) {
  std::vector<std::string> keys;
  for (const std::string& keyword : keywords) {
    std::string key = keyword_key(keyword);
    if (!key.empty()) {
      keys.push_back(std::move(key));
    }
  }
  std::sort(keys.begin(), keys.end());
  keys.erase(std::unique(keys.begin(), keys.end()), keys.end());

  Splitter splitter;
  FenceTracker fence;
  for (const TextLine& line : split_lines(main_content)) {
    const std::string_view text = line_text(main_content, line);
    splitter.feed(text, fence.feed(text));
  }
  std::vector<Unit> units = splitter.finish();
  const std::int64_t budget = count_words(main_content) * 4 / 10;
  split_long_lead(units, budget);
  for (Unit& unit : units) {
    const std::string lower = lowered(unit.text);
    for (std::size_t k = 0; k < keys.size(); ++k) {
      if (lower.find(keys[k]) != std::string::npos) {
        unit.keywords.push_back(k);
      }
    }
  }

  std::vector<bool> kept(units.size(), false);
  std::vector<bool> covered(keys.size(), false);
  std::int64_t used = 0;
  auto keep = [&](std::size_t i) {
    kept[i] = true;
    used += units[i].words;
    for (std::size_t k : units[i].keywords) {
      covered[k] = true;
    }
  };
  for (std::size_t i = 0; i < units.size(); ++i) {
    if (!is_prose(units[i].kind)) {
      keep(i);  // headings and code are the skeleton of the note
    }
  }
  for (std::size_t i = 0; i < units.size(); ++i) {
    if (is_prose(units[i].kind)) {
      keep(i);  // the lead sentence says what the note is about
      break;
    }
  }
  // Keyword coverage comes before the budget: no keyword the text mentioned may vanish.
  for (std::size_t k = 0; k < keys.size(); ++k) {
    for (std::size_t i = 0; i < units.size() && !covered[k]; ++i) {
      const auto& carried = units[i].keywords;
      if (!kept[i] && std::find(carried.begin(), carried.end(), k) != carried.end()) {
        keep(i);
      }
    }
  }
  std::vector<std::size_t> order;
  for (std::size_t i = 0; i < units.size(); ++i) {
    if (!kept[i] && !units[i].keywords.empty()) {
      order.push_back(i);
    }
  }
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    return units[a].keywords.size() > units[b].keywords.size();
  });
  for (std::size_t i : order) {
    if (used + units[i].words <= budget) {
      keep(i);
    }
  }

  std::string out;
  bool previous_was_bullet = false;
  for (std::size_t i = 0; i < units.size(); ++i) {
    if (!kept[i]) {
      continue;
    }
    const Unit& unit = units[i];
    const bool bullet = unit.kind == UnitKind::sentence || unit.kind == UnitKind::item;
    if (!out.empty() && !(bullet && previous_was_bullet)) {
      out += '\n';  // a blank line around headings, code and tables
    }
    out += bullet ? "- " + unit.text : unit.text;
    out += '\n';
    previous_was_bullet = bullet;
  }
  return out;
}

std::vector<std::string> lost_keywords(std::string_view before, std::string_view after,
                                       const std::vector<std::string>& keywords) {
  const std::string lower_before = lowered(before);
  const std::string lower_after = lowered(after);
  std::vector<std::string> lost;
  for (const std::string& keyword : keywords) {
    const std::string key = keyword_key(keyword);
    if (!key.empty() && lower_before.find(key) != std::string::npos &&
        lower_after.find(key) == std::string::npos) {
      lost.push_back(key);
    }
  }
  std::sort(lost.begin(), lost.end());
  lost.erase(std::unique(lost.begin(), lost.end()), lost.end());
  return lost;
}

std::optional<Summarizer> configured_summarizer(std::optional<std::string> command) {
  if (!command || command->empty()) {
    return std::nullopt;
  }
  Summarizer summarizer;
  summarizer.source = *command;
  summarizer.summarize = [command = *command](const SummaryRequest& request) {
    SummarizerCommand run;
    run.command = command;
    run.env = {{"GIT_VAULT_MEMORY_ID", std::string(request.memory_id)},
               {"GIT_VAULT_MEMORY_PATH", std::string(request.memory_path)},
               {"GIT_VAULT_KEYWORDS", fmt::format("{}", fmt::join(request.keywords, ","))}};
    const std::string input = fmt::format("{}\n", trim_blank_lines(request.main_content));
    return run_summarizer(run, input);
  };
  return summarizer;
}

std::string run_summarizer(const SummarizerCommand& command, std::string_view input) {
  const std::string& name = command.command;
  util::ShellRun run;
  run.command = name;
  run.label = fmt::format("summarizer `{}`", name);
  run.env = command.env;
  run.input = input;
  run.timeout = command.timeout;
  run.max_output = k_max_output;
  const util::ShellResult result = util::run_shell(run);
  const std::string why = first_line(result.err);
  switch (result.ending) {
    case util::ShellResult::Ending::timed_out:
      throw Error("summarizer `{}` did not finish within {} seconds; nothing was written", name,
                  static_cast<double>(command.timeout.count()) / 1000.0);
    case util::ShellResult::Ending::too_much_output:
      throw Error("summarizer `{}` printed more than {} bytes; nothing was written", name,
                  k_max_output);
    case util::ShellResult::Ending::signaled:
      throw Error("summarizer `{}` was killed by signal {}{}{}; nothing was written", name,
                  result.status, why.empty() ? "" : ": ", why);
    case util::ShellResult::Ending::exited:
      break;
  }
  if (result.status != 0) {
    throw Error("summarizer `{}` exited with status {}{}{}; nothing was written", name,
                result.status, why.empty() ? "" : ": ", why);
  }
  return result.out;
}

}  // namespace gv::distill
