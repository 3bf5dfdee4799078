#include "core/agent/briefing.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "core/memory/body.hpp"
#include "core/memory/parse.hpp"
#include "core/memory/tokens.hpp"
#include "core/recall/entry.hpp"
#include "core/recall/entry_title.hpp"
#include "core/recall/files.hpp"
#include "core/search/search.hpp"
#include "core/snapshot/snapshot.hpp"
#include "core/util/text.hpp"
#include "core/vault/vault.hpp"

namespace gv::agent {
namespace {

// How many of the most-counted memories most_used() parses to order them exactly: ties on the
// count are broken by the last retrieval, which only the files hold.
constexpr std::size_t k_candidates_per_memory = 4;
// A line of the briefing is a pointer, not the entry: longer text is cut.
constexpr std::size_t k_line_width = 160;

std::int64_t days_ago(Date today, Date date) {
  return std::max<std::int64_t>(0, today.days - date.days);
}

std::string age(std::int64_t days) {
  if (days == 0) {
    return "today";
  }
  return days == 1 ? "1 day ago" : fmt::format("{} days ago", days);
}

bool same_words(std::string_view a, std::string_view b) {
  return util::to_lower_ascii(util::trim(a)) == util::to_lower_ascii(util::trim(b));
}

std::string clip(std::string_view text) {
  text = util::trim(text);
  if (text.size() <= k_line_width) {
    return std::string(text);
  }
  std::size_t cut = text.rfind(' ', k_line_width);
  if (cut == std::string_view::npos || cut < k_line_width / 2) {
    cut = k_line_width;
    while (cut > 0 && (static_cast<unsigned char>(text[cut]) & 0xC0) == 0x80) {
      --cut;
    }
  }
  return std::string(util::trim(text.substr(0, cut))) + " …";
}

// The level-2 heading above `line`, or nullptr.
const Heading* section_of(const std::vector<Heading>& headings, int line) {
  const Heading* current = nullptr;
  for (const Heading& heading : headings) {
    if (heading.line >= line) {
      break;
    }
    if (heading.level <= 2) {
      current = heading.level == 2 ? &heading : nullptr;
    }
  }
  return current;
}

// The value of a claim block's `- **Field**: value` line (`field` compared without case), or
// nullopt.
std::optional<std::string> field_of(const recall::Entry& entry, std::string_view field) {
  std::string_view rest = entry.all_lines();
  while (!rest.empty()) {
    const std::size_t newline = rest.find('\n');
    std::string_view line = util::trim(rest.substr(0, newline));
    rest = newline == std::string_view::npos ? std::string_view{} : rest.substr(newline + 1);
    if (line.starts_with("- ")) {
      line = util::trim(line.substr(2));
    }
    if (!line.starts_with("**")) {
      continue;
    }
    const std::size_t close = line.find("**", 2);
    if (close == std::string_view::npos || !same_words(line.substr(2, close - 2), field)) {
      continue;
    }
    std::string_view value = line.substr(close + 2);
    const std::size_t colon = value.find(':');
    if (colon == std::string_view::npos) {
      continue;
    }
    value = util::trim(value.substr(colon + 1));
    // An id at the end of the line belongs to the entry, not to the value.
    if (const std::size_t caret = value.rfind(" ^tr"); caret != std::string_view::npos) {
      value = util::trim(value.substr(0, caret));
    }
    return std::string(value);
  }
  return std::nullopt;
}

struct Parts {
  std::vector<std::string> context;
  std::vector<std::string> loops;
  std::vector<std::string> decisions;
  std::vector<std::string> preferences;
};

// The non-empty lines of CLAUDE.local.md's `## Active Context` whose value is not a template
// placeholder such as `[not yet set]` or `[none]`.
std::vector<std::string> active_context_lines(std::string_view bytes) {
  std::vector<std::string> out;
  const std::vector<Heading> headings = find_headings(bytes);
  for (std::size_t i = 0; i < headings.size(); ++i) {
    if (headings[i].level != 2 || !same_words(headings[i].text, "active context")) {
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

bool is_open(std::string_view status) {
  const std::string lowered = util::to_lower_ascii(util::trim(status));
  return lowered.starts_with("open") || lowered.starts_with("in-progress") ||
         lowered.starts_with("in progress") || lowered.starts_with("blocked");
}

bool in_effect(const std::optional<std::string>& status) {
  if (!status) {
    return true;
  }
  const std::string lowered = util::to_lower_ascii(*status);
  return lowered.find("superseded") == std::string::npos &&
         lowered.find("reversed") == std::string::npos &&
         lowered.find("revisited") == std::string::npos;
}

// What the working memory contributes: each file's entries sorted into the briefing's parts.
Parts read_working_memory(const Snapshot& snapshot) {
  Parts parts;
  for (const recall::ManagedFile& file : recall::list_managed_files(snapshot)) {
    if (file.tier == recall::Tier::archive) {
      continue;
    }
    std::optional<std::string> bytes = snapshot.read(file.path);
    if (!bytes) {
      continue;
    }
    if (file.tier == recall::Tier::working) {
      parts.context = active_context_lines(*bytes);
    }
    const recall::ParsedFile parsed = recall::parse_file(file, std::move(*bytes));
    const std::vector<Heading> headings = find_headings(parsed.bytes);
    const std::vector<std::string> titles = recall::entry_titles(parsed);
    const std::string& name = file.display_path;
    for (std::size_t i = 0; i < parsed.entries.size(); ++i) {
      const recall::Entry& entry = parsed.entries[i];
      const Heading* section = section_of(headings, entry.line);
      const std::string title = titles[i].empty() ? entry.text : titles[i];
      const std::string where = fmt::format(" ({})", name);
      if (file.tier == recall::Tier::working) {
        if (section != nullptr && same_words(section->text, "open loops")) {
          parts.loops.push_back("- " + clip(title) + where);
        }
        continue;
      }
      if (name == "registers/open-loops.md") {
        const std::optional<std::string> status = field_of(entry, "status");
        const bool checkbox_open = std::string_view(entry.text).starts_with("[ ]") &&
                                   section != nullptr && same_words(section->text, "active");
        if (checkbox_open || (status && is_open(*status))) {
          std::string line = "- " + clip(title);
          if (status && !checkbox_open) {
            line += fmt::format(" [{}]", util::to_lower_ascii(*status));
          }
          if (const std::optional<std::string> due = field_of(entry, "due");
              due && !due->empty() && *due != "—" && *due != "-") {
            line += fmt::format(" (due {})", *due);
          }
          parts.loops.push_back(line + where);
        }
      } else if (name == "registers/decisions.md") {
        if (in_effect(field_of(entry, "status"))) {
          parts.decisions.push_back("- " + clip(title) + where);
        }
      } else if (name == "registers/preferences.md") {
        parts.preferences.push_back("- " + clip(title) + where);
      }
    }
  }
  // The newest decisions are written last in a register: they come first here, and the
  // budget drops the oldest.
  std::reverse(parts.decisions.begin(), parts.decisions.end());
  return parts;
}

void sort_used(std::vector<UsedMemory>& used, std::size_t max) {
  std::sort(used.begin(), used.end(), [](const UsedMemory& a, const UsedMemory& b) {
    if (a.count != b.count) {
      return a.count > b.count;
    }
    if (a.last != b.last) {
      return a.last > b.last;
    }
    return a.id < b.id;
  });
  if (used.size() > max) {
    used.resize(max);
  }
}

void add_pending(UsedMemory& used, const scoring::PendingRetrievalMap& pending) {
  if (const auto found = pending.find(used.id); found != pending.end()) {
    used.count += found->second.count;
    if (found->second.last_retrieved &&
        (!used.last || *used.last < *found->second.last_retrieved)) {
      used.last = found->second.last_retrieved;
    }
  }
}

}  // namespace

std::vector<UsedMemory> most_used(const std::vector<Memory>& memories,
                                  const scoring::PendingRetrievalMap& pending, std::size_t max) {
  std::vector<UsedMemory> used;
  for (const Memory& memory : memories) {
    if (!memory.active()) {
      continue;
    }
    UsedMemory entry{memory.id,      memory.title,           category_key(memory),
                     memory.created, memory.retrieval_count, memory.last_retrieved};
    add_pending(entry, pending);
    if (entry.count > 0) {
      used.push_back(std::move(entry));
    }
  }
  sort_used(used, max);
  return used;
}

std::vector<UsedMemory> most_used(const search::SearchIndex& index, const Snapshot& snapshot,
                                  const scoring::PendingRetrievalMap& pending, std::size_t max) {
  // The counts the index saved, plus the journal's; only the best few files are read.
  std::vector<std::pair<std::int64_t, std::string>> counted;
  for (auto& [id, count] : index.retrieval_counts()) {
    std::int64_t total = count;
    if (const auto found = pending.find(id); found != pending.end()) {
      total += found->second.count;
    }
    if (total > 0) {
      counted.emplace_back(total, std::move(id));
    }
  }
  const std::size_t candidates = std::min(counted.size(), max * k_candidates_per_memory);
  std::partial_sort(counted.begin(), counted.begin() + static_cast<std::ptrdiff_t>(candidates),
                    counted.end(), [](const auto& a, const auto& b) {
                      return a.first != b.first ? a.first > b.first : a.second < b.second;
                    });
  std::vector<UsedMemory> used;
  for (std::size_t i = 0; i < candidates; ++i) {
    const std::string path = memory_path(counted[i].second);
    const std::optional<std::string> bytes = snapshot.read(path);
    if (!bytes) {
      continue;
    }
    const ParsedMemory parsed = parse_memory(path, *bytes, {});
    if (!parsed.memory || !parsed.memory->active()) {
      continue;
    }
    const Memory& memory = *parsed.memory;
    UsedMemory entry{memory.id,      memory.title,           category_key(memory),
                     memory.created, memory.retrieval_count, memory.last_retrieved};
    add_pending(entry, pending);
    used.push_back(std::move(entry));
  }
  sort_used(used, max);
  return used;
}

SessionBriefing session_briefing(const std::vector<UsedMemory>& used, const Snapshot& snapshot,
                                 Date today, std::int64_t token_budget) {
  Parts parts = read_working_memory(snapshot);
  std::vector<std::string> memory_lines;
  std::vector<std::string> ids;
  for (const UsedMemory& memory : used) {
    std::string line = fmt::format("- {}: {} (", memory.id, memory.title);
    if (!memory.category.empty()) {
      line += memory.category + ", ";
    }
    line += fmt::format("created {}", age(days_ago(today, memory.created)));
    if (memory.count > 0) {
      line += fmt::format(", retrieved {} {}", memory.count, memory.count == 1 ? "time" : "times");
      if (memory.last) {
        line += fmt::format(", last {}", age(days_ago(today, *memory.last)));
      }
    } else {
      line += ", never retrieved";
    }
    line += ")";
    memory_lines.push_back(std::move(line));
    ids.push_back(memory.id);
  }

  const auto render = [&] {
    std::string out = fmt::format("<memory-briefing date=\"{}\">\n", format_date(today));
    const auto section = [&](std::string_view title, const std::vector<std::string>& lines) {
      if (lines.empty()) {
        return;
      }
      out += fmt::format("## {}\n", title);
      for (const std::string& line : lines) {
        out += line + "\n";
      }
    };
    section("Active context", parts.context);
    section("Open loops", parts.loops);
    section("Decisions in effect", parts.decisions);
    section("Preferences", parts.preferences);
    section("Memories used most", memory_lines);
    out += "</memory-briefing>\n";
    return out;
  };
  std::string text = render();
  // Over budget: drop whole lines, least pressing first.
  while (count_words(text) * 13 / 10 > token_budget) {
    if (!memory_lines.empty()) {
      memory_lines.pop_back();
      ids.pop_back();
    } else if (!parts.preferences.empty()) {
      parts.preferences.pop_back();
    } else if (!parts.decisions.empty()) {
      parts.decisions.pop_back();
    } else if (!parts.loops.empty()) {
      parts.loops.pop_back();
    } else if (!parts.context.empty()) {
      parts.context.pop_back();
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

SessionBriefing session_briefing(const std::vector<Memory>& memories, const Snapshot& snapshot,
                                 Date today, const scoring::PendingRetrievalMap& pending,
                                 std::int64_t token_budget, std::size_t max_memories) {
  return session_briefing(most_used(memories, pending, max_memories), snapshot, today,
                          token_budget);
}

}  // namespace gv::agent
