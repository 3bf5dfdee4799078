#include "core/distill/revise_rules.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cstdint>
#include <map>
#include <set>
#include <unordered_map>

namespace gv::distill {
namespace {

using events::Event;

constexpr std::string_view k_system_words[] = {
    "skill", "skills", "hook",   "hooks",   "rule", "rules", "command",      "commands",
    "agent", "agents", "script", "scripts", "doc",  "docs",  "documentation"};

bool is_deviation_or_blocker(const Event& event) {
  return event.category == "deviation" || event.category == "blocker";
}

std::string checkpoint_of(const Event& event) { return event.checkpoint.value_or("(none)"); }

void collect_strings(const nlohmann::ordered_json& value, std::string& out) {
  if (value.is_string()) {
    out += ' ';
    out += value.get<std::string>();
  } else if (value.is_array() || value.is_object()) {
    for (const auto& item : value) {
      collect_strings(item, out);
    }
  }
}

// A group of deviations/blockers at one checkpoint and event type.
struct StrikeGroup {
  std::vector<const Event*> events;
  std::set<std::string> sessions;
};
using GroupKey = std::pair<std::string, std::string>;  // checkpoint, event_type

}  // namespace

std::string key_slug(std::string_view text) {
  std::string out;
  for (char c : text) {
    const char lower = (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c;
    const bool keep = (lower >= 'a' && lower <= 'z') || (lower >= '0' && lower <= '9');
    if (keep) {
      out += lower;
    } else if (!out.empty() && out.back() != '-') {
      out += '-';
    }
  }
  while (!out.empty() && out.back() == '-') {
    out.pop_back();
  }
  return out.empty() ? "none" : out;
}

bool revise_evidence(const Event& event) {
  return is_deviation_or_blocker(event) || event.event_type == "reflection";
}

bool source_names_task(std::string_view source, std::int64_t task) {
  std::size_t i = 0;
  while (i < source.size()) {
    if (source[i] < '0' || source[i] > '9') {
      ++i;
      continue;
    }
    const std::size_t begin = i;
    while (i < source.size() && source[i] >= '0' && source[i] <= '9') {
      ++i;
    }
    std::string_view digits = source.substr(begin, i - begin);
    while (digits.size() > 1 && digits.front() == '0') {
      digits.remove_prefix(1);
    }
    if (digits == std::to_string(task)) {
      return true;
    }
  }
  return false;
}

std::string event_text(const Event& event) {
  std::string text = event.message;
  collect_strings(event.detail, text);
  return text;
}

bool names_system_part(std::string_view text) {
  std::string word;
  const auto check = [&] {
    const bool hit = std::find(std::begin(k_system_words), std::end(k_system_words), word) !=
                     std::end(k_system_words);
    word.clear();
    return hit;
  };
  for (char c : text) {
    if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')) {
      word += static_cast<char>(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
    } else if (!word.empty() && check()) {
      return true;
    }
  }
  return !word.empty() && check();
}

std::size_t ReviseResult::count(ReviseBucket bucket) const {
  return static_cast<std::size_t>(
      std::count_if(memories.begin(), memories.end(),
                    [&](const MemoryVerdict& verdict) { return verdict.bucket == bucket; }));
}

ReviseResult classify_revise(const std::vector<Memory>& memories, const std::vector<Event>& events,
                             const TermScoring& terms) {
  ReviseResult result;
  std::vector<const Memory*> active;
  for (const Memory& memory : memories) {
    if (memory.active()) {
      active.push_back(&memory);
    }
  }
  std::sort(active.begin(), active.end(),
            [](const Memory* a, const Memory* b) { return a->id < b->id; });

  // Each word of the active memories' keywords -> the memories holding it, in `active` order.
  // overlap is |words(segment) ∩ words(keywords)| / |words(segment)|, so an event is compared
  // only with the memories it shares a word with, and per event the cost follows those lists
  // rather than the vault (20,000 events over 10,000 memories took 24 s compared one by one).
  std::unordered_map<std::string, std::vector<std::uint32_t>> holders;
  for (std::uint32_t i = 0; i < active.size(); ++i) {
    for (const std::string& word : terms.words(active[i]->keywords)) {
      holders[word].push_back(i);
    }
  }
  std::vector<std::uint32_t> shared_words(active.size(), 0);
  std::vector<std::uint32_t> touched;

  std::map<std::string, MemoryVerdict> verdicts;
  std::map<std::string, std::vector<const Event*>> correlated;  // memory id -> events
  std::map<GroupKey, StrikeGroup> uncovered;
  for (const Event& event : events) {
    if (!revise_evidence(event)) {
      continue;
    }
    ++result.events;
    result.deviations += event.category == "deviation" ? 1 : 0;
    result.blockers += event.category == "blocker" ? 1 : 0;
    result.reflections += event.event_type == "reflection" ? 1 : 0;
    result.with_cc_session += event.cc_session_id ? 1 : 0;

    std::vector<std::pair<const Memory*, Correlation>> matches;
    if (event.task) {
      for (const Memory* memory : active) {
        if (source_names_task(memory->source, *event.task)) {
          matches.push_back({memory, {event.event_id, std::string(k_rule_task_in_source), 0.0}});
        }
      }
    }
    if (matches.empty() && !active.empty()) {
      const std::set<std::string> segment = terms.words(terms.key_terms(event_text(event)));
      touched.clear();
      for (const std::string& word : segment) {
        if (const auto found = holders.find(word); found != holders.end()) {
          for (const std::uint32_t i : found->second) {
            touched.push_back(i);
            ++shared_words[i];
          }
        }
      }
      // In `active` order, the first of the highest overlaps wins, as a scan of every memory
      // would choose; a memory sharing no word has overlap 0 and never does.
      std::sort(touched.begin(), touched.end());
      touched.erase(std::unique(touched.begin(), touched.end()), touched.end());
      const Memory* best = nullptr;
      double best_overlap = 0.0;
      for (const std::uint32_t i : touched) {
        const double overlap =
            static_cast<double>(shared_words[i]) / static_cast<double>(segment.size());
        shared_words[i] = 0;
        if (overlap > best_overlap + 1e-9) {
          best = active[i];
          best_overlap = overlap;
        }
      }
      if (best != nullptr && overlaps(best_overlap)) {
        matches.push_back(
            {best, {event.event_id, std::string(k_rule_keyword_overlap), best_overlap}});
      }
    }
    if (matches.empty()) {
      if (is_deviation_or_blocker(event)) {
        StrikeGroup& group = uncovered[{checkpoint_of(event), event.event_type}];
        group.events.push_back(&event);
        group.sessions.insert(event.session_id);
      }
      continue;
    }
    ++result.correlated_events;
    for (auto& [memory, correlation] : matches) {
      MemoryVerdict& verdict = verdicts[memory->id];
      verdict.memory_id = memory->id;
      verdict.correlations.push_back(std::move(correlation));
      correlated[memory->id].push_back(&event);
    }
  }

  for (auto& [id, verdict] : verdicts) {
    std::map<GroupKey, StrikeGroup> groups;
    std::set<std::string> all_sessions;
    for (const Event* event : correlated[id]) {
      all_sessions.insert(event->session_id);
      if (is_deviation_or_blocker(*event)) {
        StrikeGroup& group = groups[{checkpoint_of(*event), event->event_type}];
        group.events.push_back(event);
        group.sessions.insert(event->session_id);
      }
    }
    // The strike group with the most sessions decides (ties: the first key in order).
    const StrikeGroup* strike = nullptr;
    const GroupKey* strike_key = nullptr;
    for (const auto& [key, group] : groups) {
      if (group.sessions.size() >= k_strikes &&
          (strike == nullptr || group.sessions.size() > strike->sessions.size())) {
        strike = &group;
        strike_key = &key;
      }
    }
    const std::vector<const Event*>& evidence = strike ? strike->events : correlated[id];
    verdict.bucket = strike ? ReviseBucket::contradicted : ReviseBucket::corroborated;
    verdict.rule = std::string(strike ? k_rule_three_strikes : k_rule_below_three_strikes);
    verdict.sessions = strike ? strike->sessions.size() : all_sessions.size();
    if (strike_key) {
      verdict.checkpoint = strike_key->first;
      verdict.event_type = strike_key->second;
    }
    for (const Event* event : evidence) {
      verdict.evidence_ids.push_back(event->event_id);
      verdict.evidence_messages.push_back(event->message);
      const auto error_type = event->detail.find("error.type");
      if (error_type != event->detail.end() && error_type->is_string()) {
        verdict.otel_error_types.push_back(error_type->get<std::string>());
      }
    }
    result.memories.push_back(std::move(verdict));
  }

  for (const auto& [key, group] : uncovered) {
    if (group.sessions.size() < k_strikes) {
      continue;
    }
    ReviseGap gap;
    gap.checkpoint = key.first;
    gap.event_type = key.second;
    gap.key = fmt::format("gap-{}-{}", key_slug(key.first), key_slug(key.second));
    gap.sessions = group.sessions.size();
    std::string text;
    for (const Event* event : group.events) {
      gap.evidence_ids.push_back(event->event_id);
      gap.evidence_messages.push_back(event->message);
      text += event_text(*event) + "\n";
    }
    gap.key_terms = terms.key_terms(text);
    gap.rule = std::string(names_system_part(text) ? k_rule_gap_system : k_rule_gap_knowledge);
    result.gaps.push_back(std::move(gap));
  }
  std::sort(result.gaps.begin(), result.gaps.end(),
            [](const ReviseGap& a, const ReviseGap& b) { return a.key < b.key; });
  return result;
}

std::string evidence_digest(const std::vector<std::string>& ids,
                            const std::vector<std::string>& messages) {
  // One line per distinct message, the most frequent first (ties: the first seen), each with
  // the ids of its first events.
  struct Group {
    std::string message;
    std::vector<std::size_t> at;
  };
  std::vector<Group> groups;
  std::unordered_map<std::string, std::size_t> by_message;
  for (std::size_t i = 0; i < ids.size() && i < messages.size(); ++i) {
    const auto [it, added] = by_message.emplace(messages[i], groups.size());
    if (added) {
      groups.push_back({messages[i], {}});
    }
    groups[it->second].at.push_back(i);
  }
  std::stable_sort(groups.begin(), groups.end(),
                   [](const Group& a, const Group& b) { return a.at.size() > b.at.size(); });
  std::string out;
  for (std::size_t g = 0; g < groups.size() && g < k_digest_messages; ++g) {
    const Group& group = groups[g];
    std::string cited;
    for (std::size_t k = 0; k < group.at.size() && k < k_digest_ids; ++k) {
      cited += fmt::format("{}{}", k == 0 ? "" : ", ", ids[group.at[k]]);
    }
    if (group.at.size() > k_digest_ids) {
      cited += fmt::format(" and {} more", group.at.size() - k_digest_ids);
    }
    out += fmt::format(
        "- \"{}\" ({}: {})\n", excerpt(group.message, k_digest_width),
        group.at.size() == 1 ? std::string("once") : fmt::format("{} times", group.at.size()),
        cited);
  }
  if (groups.size() > k_digest_messages) {
    std::size_t rest = 0;
    for (std::size_t g = k_digest_messages; g < groups.size(); ++g) {
      rest += groups[g].at.size();
    }
    out += fmt::format("- and {} other messages ({} events)\n", groups.size() - k_digest_messages,
                       rest);
  }
  return out;
}

std::string proposed_revision(const MemoryVerdict& verdict, std::string_view today) {
  return fmt::format(
      "Revised {} from recorded events: in {} sessions, `{}` events at checkpoint `{}` went "
      "against the earlier guidance (kept under History below). Check what they record before "
      "relying on it again.\n\nWhat the events recorded ({} in all; every id is in "
      ".memory/revise-log.json):\n\n{}",
      today, verdict.sessions, verdict.event_type, verdict.checkpoint, verdict.evidence_ids.size(),
      evidence_digest(verdict.evidence_ids, verdict.evidence_messages));
}

std::string gap_title(const ReviseGap& gap) {
  // The most frequent message says what keeps happening (ties: the first to get there).
  std::unordered_map<std::string_view, std::size_t> counts;
  std::string_view best = gap.event_type;
  std::size_t best_count = 0;
  for (const std::string& message : gap.evidence_messages) {
    const std::size_t count = ++counts[message];
    if (count > best_count) {
      best = message;
      best_count = count;
    }
  }
  return whole_words(best, k_title_width);
}

std::string gap_guidance(const ReviseGap& gap) {
  return fmt::format(
      "This keeps happening at checkpoint `{}`: it was recorded as `{}` in {} distinct sessions, "
      "and no memory covered it. Expect it there, check for it before that checkpoint, and add "
      "to this memory what resolves it.\n\nWhat the events recorded ({} in all; every id is "
      "in .memory/revise-log.json):\n\n{}",
      gap.checkpoint, gap.event_type, gap.sessions, gap.evidence_ids.size(),
      evidence_digest(gap.evidence_ids, gap.evidence_messages));
}

}  // namespace gv::distill
