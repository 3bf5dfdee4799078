#include "core/agent/context.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <set>

#include "core/memory/body.hpp"
#include "core/memory/frontmatter.hpp"
#include "core/memory/tokens.hpp"
#include "core/recall/entry.hpp"
#include "core/recall/files.hpp"
#include "core/search/terms.hpp"
#include "core/snapshot/snapshot.hpp"

namespace gv::agent {
namespace {

constexpr std::string_view k_exempt_topic_prefix = "email/preferences/";

std::string upper(std::string_view text) {
  std::string out(text);
  for (char& c : out) {
    c = (c >= 'a' && c <= 'z') ? static_cast<char>(c - 'a' + 'A') : c;
  }
  return out;
}

std::int64_t days_ago(Date today, Date date) {
  return std::max<std::int64_t>(0, today.days - date.days);
}

std::string age(std::int64_t days) {
  if (days == 0) {
    return "today";
  }
  return days == 1 ? "1 day ago" : fmt::format("{} days ago", days);
}

// Entries of `parsed` under a level-2 heading named `section` (case-insensitive), in order.
std::vector<std::string> section_entries(const recall::ParsedFile& parsed,
                                         std::string_view section) {
  const std::vector<Heading> headings = find_headings(parsed.bytes);
  std::vector<std::string> out;
  for (const recall::Entry& entry : parsed.entries) {
    const Heading* current = nullptr;
    for (const Heading& heading : headings) {
      if (heading.line >= entry.line) {
        break;
      }
      if (heading.level <= 2) {
        current = &heading;
      }
    }
    if (current != nullptr && current->level == 2 && upper(current->text) == upper(section)) {
      out.push_back(entry.text);
    }
  }
  return out;
}

// The non-empty lines of CLAUDE.local.md's `## Active Context` whose value is not a template
// placeholder such as `[not yet set]` or `[none]`.
std::vector<std::string> active_context_lines(std::string_view bytes) {
  std::vector<std::string> out;
  const std::vector<Heading> headings = find_headings(bytes);
  for (std::size_t i = 0; i < headings.size(); ++i) {
    if (headings[i].level != 2 || upper(headings[i].text) != "ACTIVE CONTEXT") {
      continue;
    }
    const std::size_t end = i + 1 < headings.size() ? headings[i + 1].begin : bytes.size();
    std::string_view rest = bytes.substr(headings[i].next, end - headings[i].next);
    while (!rest.empty()) {
      const std::size_t newline = rest.find('\n');
      std::string_view line = rest.substr(0, newline);
      rest = newline == std::string_view::npos ? std::string_view{} : rest.substr(newline + 1);
      while (!line.empty() && (line.back() == '\r' || line.back() == ' ')) {
        line.remove_suffix(1);
      }
      if (line.empty() || line.starts_with("<!--")) {
        continue;
      }
      const std::size_t colon = line.find(':');
      std::string_view value = colon == std::string_view::npos ? line : line.substr(colon + 1);
      while (!value.empty() && (value.front() == ' ' || value.front() == '*')) {
        value.remove_prefix(1);
      }
      if (value.starts_with("[") && value.ends_with("]")) {
        continue;
      }
      out.emplace_back(line);
    }
  }
  return out;
}

}  // namespace

std::vector<std::string> context_keywords(std::string_view text) {
  std::set<std::string> unique;
  std::string word;
  auto flush = [&] {
    if (word.size() > 3 && !search::is_stop_word(word)) {
      unique.insert(word);
    }
    word.clear();
  };
  for (const char c : text) {
    if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')) {
      word += (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c;
    } else {
      flush();
    }
  }
  flush();
  std::vector<std::string> keywords(unique.begin(), unique.end());
  if (keywords.size() > k_context_max_keywords) {
    keywords.resize(k_context_max_keywords);
  }
  return keywords;
}

ContextSelection select_context(const std::vector<Memory>& memories, std::string_view task,
                                std::string_view task_type, std::int64_t token_budget,
                                std::size_t max_entries) {
  ContextSelection selection;
  selection.keywords = context_keywords(task);
  const std::string type_upper = upper(task_type);
  // How often each task keyword was given: a memory scores that many for a key it has.
  std::map<std::string, std::int64_t, std::less<>> wanted;
  for (const std::string& keyword : selection.keywords) {
    ++wanted[keyword];
  }
  std::vector<ContextPick> scored;
  std::vector<std::string_view> matched;  // the memory's keys already counted
  for (const Memory& memory : memories) {
    if (!memory.active()) {
      continue;
    }
    if (std::string_view(memory.topic).starts_with(k_exempt_topic_prefix) && task_type != "email") {
      continue;
    }
    // The task keywords found among the memory's distinct keyword keys, without building a
    // set of keys for each of a hundred thousand memories.
    std::int64_t score = 0;
    matched.clear();
    for (const std::string& keyword : memory.keywords) {
      const std::string key = keyword_key(keyword);
      const auto found = wanted.find(key);
      if (found != wanted.end() &&
          std::find(matched.begin(), matched.end(), found->first) == matched.end()) {
        matched.push_back(found->first);
        score += found->second;
      }
    }
    if (!task_type.empty() && memory.topic == task_type) {
      score += 2;
    } else if (!task_type.empty() && category_key(memory) == type_upper) {
      score += 1;
    }
    if (score >= 1) {
      scored.push_back({&memory, score});
    }
  }
  // The original sorts index entries (in id order) by score with a stable sort.
  std::stable_sort(scored.begin(), scored.end(), [](const ContextPick& a, const ContextPick& b) {
    if (a.score != b.score) {
      return a.score > b.score;
    }
    return a.memory->id < b.memory->id;
  });
  for (const ContextPick& pick : scored) {
    if (selection.picked.size() >= max_entries) {
      break;
    }
    if (selection.tokens + pick.memory->token_count > token_budget) {
      continue;
    }
    selection.tokens += pick.memory->token_count;
    selection.picked.push_back(pick);
  }
  return selection;
}

std::string without_history(std::string_view file) {
  const FrontmatterSplit split = split_frontmatter(file);
  const std::string_view body = split.body(file);
  const BodySections sections = locate_sections(body);
  if (!sections.history) {
    return std::string(file);
  }
  const std::size_t begin = split.body_begin + sections.history->begin;
  const std::size_t end = split.body_begin + sections.history->end;
  return std::string(file.substr(0, begin)) + std::string(file.substr(end));
}

std::string render_context_block(
    const ContextSelection& selection,
    const std::function<std::optional<std::string>(const Memory&)>& read) {
  std::string out =
      "<memory-context>\nThe following memories from previous sessions may be relevant to this "
      "task.\n\n";
  for (const ContextPick& pick : selection.picked) {
    std::optional<std::string> bytes = read(*pick.memory);
    if (!bytes) {
      continue;
    }
    *bytes = without_history(*bytes);
    // The original reads the file through a command substitution, which drops its final
    // newlines; the blank line after each memory comes from the format.
    while (!bytes->empty() && bytes->back() == '\n') {
      bytes->pop_back();
    }
    out += fmt::format("### {} (relevance: {})\n{}\n\n", pick.memory->title, pick.score, *bytes);
  }
  out += "</memory-context>\n";
  return out;
}

SessionBriefing session_briefing(const std::vector<Memory>& memories, const Snapshot& snapshot,
                                 Date today, const scoring::PendingRetrievalMap& pending,
                                 std::int64_t token_budget, std::size_t max_memories) {
  std::vector<std::string> context;
  std::vector<std::string> loops;
  for (const recall::ManagedFile& file : recall::list_managed_files(snapshot)) {
    if (file.tier == recall::Tier::archive) {
      continue;
    }
    std::optional<std::string> bytes = snapshot.read(file.path);
    if (!bytes) {
      continue;
    }
    if (file.tier == recall::Tier::working) {
      context = active_context_lines(*bytes);
    }
    const recall::ParsedFile parsed = recall::parse_file(file, std::move(*bytes));
    const bool loops_register = file.display_path == "registers/open-loops.md";
    for (const std::string& text :
         section_entries(parsed, loops_register ? "Active" : "Open Loops")) {
      if (loops_register && !std::string_view(text).starts_with("[ ]")) {
        continue;
      }
      if (file.tier == recall::Tier::working || loops_register) {
        loops.push_back(fmt::format("- {} ({})", text, file.display_path));
      }
    }
  }

  struct Used {
    const Memory* memory;
    std::int64_t count;
    std::optional<Date> last;
  };
  std::vector<Used> used;
  for (const Memory& memory : memories) {
    if (!memory.active()) {
      continue;
    }
    Used entry{&memory, memory.retrieval_count, memory.last_retrieved};
    if (const auto found = pending.find(memory.id); found != pending.end()) {
      entry.count += found->second.count;
      if (found->second.last_retrieved &&
          (!entry.last || *entry.last < *found->second.last_retrieved)) {
        entry.last = found->second.last_retrieved;
      }
    }
    used.push_back(entry);
  }
  std::sort(used.begin(), used.end(), [](const Used& a, const Used& b) {
    if (a.count != b.count) {
      return a.count > b.count;
    }
    if (a.last != b.last) {
      return a.last > b.last;
    }
    return a.memory->id < b.memory->id;
  });
  if (used.size() > max_memories) {
    used.resize(max_memories);
  }
  std::vector<std::string> memory_lines;
  std::vector<std::string> ids;
  for (const Used& entry : used) {
    const Memory& memory = *entry.memory;
    std::string line = fmt::format("- {}: {} (", memory.id, memory.title);
    const std::string category = category_key(memory);
    if (!category.empty()) {
      line += category + ", ";
    }
    line += fmt::format("created {}", age(days_ago(today, memory.created)));
    if (entry.count > 0) {
      line += fmt::format(", retrieved {} {}", entry.count, entry.count == 1 ? "time" : "times");
      if (entry.last) {
        line += fmt::format(", last {}", age(days_ago(today, *entry.last)));
      }
    } else {
      line += ", never retrieved";
    }
    line += ")";
    memory_lines.push_back(std::move(line));
    ids.push_back(memory.id);
  }

  auto render = [&] {
    std::string out = fmt::format("<memory-briefing date=\"{}\">\n", format_date(today));
    if (!context.empty()) {
      out += "## Active context\n";
      for (const std::string& line : context) {
        out += line + "\n";
      }
    }
    if (!loops.empty()) {
      out += "## Open loops\n";
      for (const std::string& line : loops) {
        out += line + "\n";
      }
    }
    if (!memory_lines.empty()) {
      out += "## Memories used most\n";
      for (const std::string& line : memory_lines) {
        out += line + "\n";
      }
    }
    out += "</memory-briefing>\n";
    return out;
  };
  std::string text = render();
  // Over budget: drop whole lines, memories first, then open loops, then active context, so
  // what the agent is working on now survives longest.
  while (count_words(text) * 13 / 10 > token_budget) {
    if (!memory_lines.empty()) {
      memory_lines.pop_back();
      ids.pop_back();
    } else if (!loops.empty()) {
      loops.pop_back();
    } else if (!context.empty()) {
      context.pop_back();
    } else {
      break;
    }
    text = render();
  }
  SessionBriefing briefing;
  briefing.tokens = count_words(text) * 13 / 10;
  briefing.text = std::move(text);
  briefing.memories = std::move(ids);
  return briefing;
}

}  // namespace gv::agent
