#include "core/distill/review_rules.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <set>

#include "core/dates.hpp"
#include "core/memory/lines.hpp"
#include "core/memory/stop_words.hpp"
#include "core/util/text.hpp"

namespace gv::distill {
namespace {

constexpr std::string_view k_rule =
    "records sharing the question's words (stop words left out) or named by it; most words "
    "first, then newest";
constexpr std::size_t k_prompt_excerpt = 100;
// Named records come before any that only share words.
constexpr std::size_t k_named = 1000;

bool is_word_byte(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' ||
         c == '_' || c == '.' || static_cast<unsigned char>(c) >= 0x80;
}

// The words of `text` as review compares them: runs of letters, digits, `-`, `_` and `.`,
// trimmed of punctuation at their ends and lower-cased; each compound (`max_time`,
// `service-worker`) also by its parts.
std::set<std::string> review_words(std::string_view text) {
  std::set<std::string> out;
  std::size_t i = 0;
  while (i < text.size()) {
    while (i < text.size() && !is_word_byte(text[i])) {
      ++i;
    }
    std::size_t begin = i;
    while (i < text.size() && is_word_byte(text[i])) {
      ++i;
    }
    std::size_t end = i;
    while (begin < end && (text[begin] == '-' || text[begin] == '_' || text[begin] == '.')) {
      ++begin;
    }
    while (end > begin && (text[end - 1] == '-' || text[end - 1] == '_' || text[end - 1] == '.')) {
      --end;
    }
    if (begin == end) {
      continue;
    }
    const std::string word = util::to_lower_ascii(text.substr(begin, end - begin));
    out.insert(word);
    std::size_t part = 0;
    for (std::size_t k = 0; k <= word.size(); ++k) {
      if (k == word.size() || word[k] == '-' || word[k] == '_' || word[k] == '.') {
        if (k > part && k - part < word.size()) {
          out.insert(word.substr(part, k - part));
        }
        part = k + 1;
      }
    }
  }
  return out;
}

std::size_t matched(std::string_view text, const std::vector<std::string>& terms) {
  const std::set<std::string> words = review_words(text);
  return static_cast<std::size_t>(std::count_if(
      terms.begin(), terms.end(), [&](const std::string& term) { return words.contains(term); }));
}

std::string iso_of_ms(std::int64_t ms) { return format_instant(Instant{ms / 1000}); }

std::string term_list(const std::vector<std::string>& terms) {
  std::string out;
  for (std::size_t i = 0; i < terms.size(); ++i) {
    out += fmt::format("{}`{}`", i == 0 ? "" : (i + 1 == terms.size() ? " or " : ", "), terms[i]);
  }
  return out;
}

// Keeps the best `k_review_citations_per_source` of `scored` (most terms, then the given order).
template <class T>
std::vector<std::pair<const T*, std::size_t>> best(
    std::vector<std::pair<const T*, std::size_t>> scored) {
  std::stable_sort(scored.begin(), scored.end(),
                   [](const auto& a, const auto& b) { return a.second > b.second; });
  if (scored.size() > k_review_citations_per_source) {
    scored.resize(k_review_citations_per_source);
  }
  return scored;
}

}  // namespace

std::vector<std::string> question_terms(std::string_view question) {
  std::vector<std::string> terms;
  std::size_t i = 0;
  while (i < question.size()) {
    while (i < question.size() && !is_word_byte(question[i])) {
      ++i;
    }
    std::size_t begin = i;
    while (i < question.size() && is_word_byte(question[i])) {
      ++i;
    }
    std::size_t end = i;
    while (begin < end &&
           (question[begin] == '-' || question[begin] == '_' || question[begin] == '.')) {
      ++begin;
    }
    while (end > begin &&
           (question[end - 1] == '-' || question[end - 1] == '_' || question[end - 1] == '.')) {
      --end;
    }
    const std::string word = util::to_lower_ascii(question.substr(begin, end - begin));
    if (word.size() < 2 || is_stop_word(word) ||
        std::find(terms.begin(), terms.end(), word) != terms.end()) {
      continue;
    }
    terms.push_back(word);
  }
  return terms;
}

ReviewAnswer answer_review(std::string_view question, const ReviewSources& sources,
                           const TermScoring& /*terms*/) {
  ReviewAnswer answer;
  answer.rule = std::string(k_rule);
  answer.terms = question_terms(question);
  const std::set<std::string> named = review_words(question);
  const std::string about = term_list(answer.terms);

  // Vault memories, by id; a memory the question names by its id comes first.
  if (sources.memories != nullptr) {
    std::vector<const Memory*> active;
    for (const Memory& memory : *sources.memories) {
      if (memory.active()) {
        active.push_back(&memory);
      }
    }
    std::sort(active.begin(), active.end(),
              [](const Memory* a, const Memory* b) { return a->id < b->id; });
    std::vector<std::pair<const Memory*, std::size_t>> scored;
    std::vector<const Memory*> named_memories;
    std::size_t total = 0;
    for (const Memory* memory : active) {
      std::string text = memory->title + " " + memory->summary + " " + memory->topic;
      for (const std::string& keyword : memory->keywords) {
        text += " " + keyword;
      }
      std::size_t hits = matched(text, answer.terms);
      if (named.contains(util::to_lower_ascii(memory->id))) {
        named_memories.push_back(memory);
        hits += k_named;
      }
      if (hits > 0) {
        scored.push_back({memory, hits});
        ++total;
      }
    }
    const auto kept = best(scored);
    for (const Memory* memory : named_memories) {
      answer.answer.push_back(
          fmt::format("The question names {}: \"{}\"{}", memory->id, memory->title,
                      memory->summary.empty() || memory->summary == memory->title
                          ? std::string(".")
                          : fmt::format(" -- {}", memory->summary)));
    }
    if (kept.size() > named_memories.size()) {
      const Memory* closest = kept[named_memories.size()].first;
      answer.answer.push_back(
          fmt::format("{} in the vault mention {}; the closest is {} (\"{}\").",
                      util::plural(total - named_memories.size(), "memory", "memories"), about,
                      closest->id, closest->title));
    }
    for (const auto& [memory, hits] : kept) {
      answer.evidence.push_back(
          {"Vault / memory", memory->id, memory->title, hits >= k_named ? hits - k_named : hits});
    }
  }

  // Events, newest first.
  if (!sources.events || sources.events->empty()) {
    answer.unavailable.push_back("No events captured yet in specs/events.jsonl for this query.");
  } else {
    std::vector<const events::Event*> ordered;
    for (const events::Event& event : *sources.events) {
      ordered.push_back(&event);
    }
    std::stable_sort(
        ordered.begin(), ordered.end(),
        [](const events::Event* a, const events::Event* b) { return a->timestamp > b->timestamp; });
    std::vector<std::pair<const events::Event*, std::size_t>> scored;
    std::map<std::string, std::size_t> by_category;
    for (const events::Event* event : ordered) {
      std::string text = event->message;
      for (const auto& [key, value] : event->detail.items()) {
        if (value.is_string()) {
          text += " " + value.get<std::string>();
        }
      }
      std::size_t hits = matched(text, answer.terms);
      if (named.contains(util::to_lower_ascii(event->event_id))) {
        hits += k_named;
      }
      if (hits > 0) {
        scored.push_back({event, hits});
        ++by_category[event->category];
      }
    }
    if (!scored.empty()) {
      std::string counts;
      for (const auto& [category, count] : by_category) {
        counts += fmt::format("{}{} {}", counts.empty() ? "" : ", ", count, category);
      }
      const events::Event* latest = scored.front().first;
      answer.answer.push_back(
          fmt::format("{} in specs/events.jsonl mention it ({}); the latest, {} at {}, says: {}",
                      util::plural(scored.size(), "recorded event", "recorded events"), counts,
                      latest->event_id, latest->timestamp, latest->message));
      for (const auto& [event, hits] : best(scored)) {
        answer.evidence.push_back({"Tier 2 / events.jsonl", event->event_id, event->message,
                                   hits >= k_named ? hits - k_named : hits});
      }
    }
  }

  // Prompts, newest first.
  if (!sources.prompts || sources.prompts->empty()) {
    answer.unavailable.push_back("history.jsonl not found or empty for this repo/session.");
  } else {
    std::vector<const events::Prompt*> ordered;
    for (const events::Prompt& prompt : *sources.prompts) {
      ordered.push_back(&prompt);
    }
    std::stable_sort(ordered.begin(), ordered.end(),
                     [](const events::Prompt* a, const events::Prompt* b) {
                       return a->timestamp_ms > b->timestamp_ms;
                     });
    std::vector<std::pair<const events::Prompt*, std::size_t>> scored;
    std::set<std::string> sessions;
    for (const events::Prompt* prompt : ordered) {
      if (const std::size_t hits = matched(prompt->display, answer.terms); hits > 0) {
        scored.push_back({prompt, hits});
        sessions.insert(prompt->session_id);
      }
    }
    if (!scored.empty()) {
      answer.answer.push_back(
          fmt::format("It came up in {} over {} in this repository, last on {}.",
                      util::plural(scored.size(), "prompt", "prompts"),
                      util::plural(sessions.size(), "session", "sessions"),
                      format_date(date_of(Instant{scored.front().first->timestamp_ms / 1000}))));
      for (const auto& [prompt, hits] : best(scored)) {
        answer.evidence.push_back({"Tier 3 / history.jsonl", iso_of_ms(prompt->timestamp_ms),
                                   "\"" + excerpt(prompt->display, k_prompt_excerpt) + "\"", hits});
      }
    }
  }

  // Transcripts are never read: their archived specs stand in for them.
  answer.unavailable.push_back(
      "No transcript available within the 30-day window for this task/session; falling back to "
      "history.jsonl's prompt-level record and the task's own archived specs/ artifacts.");
  {
    std::vector<std::pair<const Citation*, std::size_t>> scored;
    std::vector<Citation> lines;
    lines.reserve(sources.artifacts.size());
    for (const auto& [path, text] : sources.artifacts) {
      std::size_t best_hits = 0;
      Citation citation;
      for (const TextLine& line : split_lines(text)) {
        const std::string_view content = line_text(text, line);
        const std::size_t hits = matched(content, answer.terms);
        if (hits > best_hits) {
          best_hits = hits;
          citation = {"Tier 4 fallback / archived specs",
                      fmt::format("{}:{}", path, line_of_offset(text, line.begin)),
                      excerpt(util::trim(content), k_prompt_excerpt), hits};
        }
      }
      if (best_hits > 0) {
        lines.push_back(std::move(citation));
      }
    }
    for (const Citation& citation : lines) {
      scored.push_back({&citation, citation.matched_terms});
    }
    if (!scored.empty()) {
      answer.answer.push_back(fmt::format("{} of archived tasks mention it, e.g. {}.",
                                          util::plural(scored.size(), "artifact", "artifacts"),
                                          scored.front().first->record));
      for (const auto& [citation, hits] : best(scored)) {
        answer.evidence.push_back(*citation);
      }
    }
  }

  answer.unavailable.insert(
      answer.unavailable.begin(),
      "OTel not enabled for this session/repo -- outcome evidence unavailable for this question.");
  if (answer.answer.empty()) {
    answer.answer.push_back(answer.terms.empty()
                                ? std::string("The question has no terms to look for.")
                                : fmt::format("No record in the vault, the event store, the prompt "
                                              "history or the archived tasks mentions {}.",
                                              about));
  }
  return answer;
}

std::string render_review(const ReviewAnswer& answer, std::string_view question) {
  std::string out = fmt::format("## Review: {}\n\n", question);
  for (const std::string& statement : answer.answer) {
    out += statement + "\n";
  }
  out += "\nEvidence:\n";
  if (answer.evidence.empty()) {
    out += "- (none)\n";
  }
  for (const Citation& citation : answer.evidence) {
    out += fmt::format("- [{}] {}: {}\n", citation.tier, citation.record, citation.text);
  }
  if (!answer.unavailable.empty()) {
    out += "\nNot consulted:\n";
    for (const std::string& message : answer.unavailable) {
      out += fmt::format("- {}\n", message);
    }
  }
  out += fmt::format(
      "\nRule: {}.\n\nIf this points at something actionable:\n"
      "  - Memory correction -> run `git vault distill --revise` to review and apply.\n"
      "  - System-improvement proposal -> run `git vault distill --meta` to propose it.\n"
      "  - New memory worth capturing -> run `git vault learn` to create it.\n",
      answer.rule);
  return out;
}

}  // namespace gv::distill
