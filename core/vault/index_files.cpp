#include "core/vault/index_files.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cstdint>
#include <map>
#include <nlohmann/json.hpp>
#include <utility>

namespace gv {

namespace {

using OrderedJson = nlohmann::ordered_json;

// TODO: use gv::format_date once core/dates.cpp lands; this is the same civil-from-days
// conversion (proleptic Gregorian, UTC).
std::string format_day(Date date) {
  const std::int64_t z = date.days + 719468;
  const std::int64_t era = (z >= 0 ? z : z - 146096) / 146097;
  const std::int64_t doe = z - era * 146097;
  const std::int64_t yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
  const std::int64_t doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
  const std::int64_t mp = (5 * doy + 2) / 153;
  const std::int64_t day = doy - (153 * mp + 2) / 5 + 1;
  const std::int64_t month = mp < 10 ? mp + 3 : mp - 9;
  const std::int64_t year = yoe + era * 400 + (month <= 2 ? 1 : 0);
  return fmt::format("{:04}-{:02}-{:02}", year, month, day);
}

std::vector<const Memory*> sorted_by_id(const std::vector<Memory>& memories, bool active_only) {
  std::vector<const Memory*> out;
  out.reserve(memories.size());
  for (const Memory& memory : memories) {
    if (!active_only || memory.active()) {
      out.push_back(&memory);
    }
  }
  std::sort(out.begin(), out.end(), [](const Memory* a, const Memory* b) { return a->id < b->id; });
  return out;
}

OrderedJson entry_json(const Memory& memory) {
  OrderedJson entry;
  entry["id"] = memory.id;
  entry["path"] = memory.path;
  entry["title"] = memory.title;
  entry["summary"] = memory.summary;
  entry["topic"] = memory.topic;
  entry["category"] = memory.category;
  entry["keywords"] = OrderedJson::array();
  for (const std::string& keyword : memory.keywords) {
    entry["keywords"].push_back(keyword);
  }
  entry["token_count"] = memory.token_count;
  entry["created"] = format_day(memory.created);
  entry["modified"] = format_day(memory.modified);
  entry["last_retrieved"] =
      memory.last_retrieved ? OrderedJson(format_day(*memory.last_retrieved)) : OrderedJson();
  entry["retrieval_count"] = memory.retrieval_count;
  entry["status"] = memory.tombstoned ? "tombstoned" : "active";
  // "Preserved when present" in the original, whatever the status.
  if (memory.tombstoned_at) {
    entry["tombstoned_at"] = format_day(*memory.tombstoned_at);
  }
  if (!memory.tombstone_reason.empty()) {
    entry["tombstone_reason"] = memory.tombstone_reason;
  }
  return entry;
}

// A title or topic is one Markdown line: a YAML double-quoted scalar may hold line breaks or
// tabs, which would otherwise break the list structure.
std::string one_line(std::string_view text) {
  std::string out(text);
  for (char& c : out) {
    if (c == '\n' || c == '\r' || c == '\t' || c == '\v' || c == '\f') {
      c = ' ';
    }
  }
  return out;
}

// TODO: use gv::category_key once core/memory lands; D2 compares categories upper-cased.
std::string upper_ascii(std::string_view text) {
  std::string out(text);
  for (char& c : out) {
    if (c >= 'a' && c <= 'z') {
      c = static_cast<char>(c - 'a' + 'A');
    }
  }
  return out;
}

std::string index_link(const Memory& memory) {
  return fmt::format("- [{0}](../10-Memories/{0}.md) - {1}", memory.id, one_line(memory.title));
}

constexpr std::string_view k_no_memories = "No active memories.\n";

// Groups ids under headings. Named groups come in ascending byte order; the group for an empty
// key (no category, no topic) comes last under `fallback`, so a real heading never collides
// with it and the common groups stay at the top.
void append_groups(std::string& out, const std::vector<const Memory*>& active,
                   std::string (*key_of)(const Memory&), std::string_view fallback) {
  if (active.empty()) {
    out += k_no_memories;
    return;
  }
  std::map<std::string, std::vector<const Memory*>> groups;  // active is id-sorted already
  for (const Memory* memory : active) {
    groups[key_of(*memory)].push_back(memory);
  }
  bool first = true;
  const auto emit = [&](std::string_view heading, const std::vector<const Memory*>& members) {
    if (!first) {
      out += '\n';
    }
    first = false;
    out += fmt::format("### {}\n", heading);
    for (const Memory* memory : members) {
      out += index_link(*memory);
      out += '\n';
    }
  };
  for (const auto& [key, members] : groups) {
    if (!key.empty()) {
      emit(key, members);
    }
  }
  if (const auto it = groups.find(""); it != groups.end()) {
    emit(fallback, it->second);
  }
}

std::string category_heading_key(const Memory& memory) { return upper_ascii(memory.category); }
std::string topic_heading_key(const Memory& memory) { return one_line(memory.topic); }

}  // namespace

std::string render_index_json(const std::vector<Memory>& memories, std::string_view generated_at) {
  const std::vector<const Memory*> all = sorted_by_id(memories, false);
  std::int64_t total_tokens = 0;
  OrderedJson entries = OrderedJson::array();
  for (const Memory* memory : all) {
    total_tokens += memory->token_count;
    entries.push_back(entry_json(*memory));
  }
  OrderedJson document;
  document["version"] = k_index_version;
  document["generated_at"] = generated_at;
  document["entry_count"] = all.size();
  document["total_tokens"] = total_tokens;
  document["entries"] = std::move(entries);
  return document.dump(2, ' ', false, OrderedJson::error_handler_t::replace) + "\n";
}

// Layout follows the index.md the original scripts generated (distill.md §3.3), minus the
// "Last updated" line (D4). Choices where the original is silent or varies:
// - Recent Memories: the 10 newest by `created`, ties broken by id, both descending (the
//   observed tie order).
// - By Category: the category upper-cased (D2), so `enforcement` and `ENFORCEMENT` share one
//   heading; memories with no category at all come last under `(uncategorized)`.
// - By Topic: the full topic string as heading; an empty topic comes last under `(no topic)`.
// - An empty section says "No active memories." so the file keeps its shape.
// - Titles are written as they are, on one line; Markdown in them is not escaped.
std::string render_index_md(const std::vector<Memory>& memories) {
  const std::vector<const Memory*> active = sorted_by_id(memories, true);

  std::string out =
      "# Memory Vault Index\n"
      "\n"
      "## Quick Navigation\n"
      "- [Inbox](../00-Inbox/) - Quick capture for new memories\n"
      "- [Memories](../10-Memories/) - All stored memory entries\n"
      "- [Templates](../30-Templates/) - Memory entry templates\n"
      "\n"
      "## Recent Memories\n"
      "\n";
  std::vector<const Memory*> recent = active;
  std::sort(recent.begin(), recent.end(), [](const Memory* a, const Memory* b) {
    if (a->created != b->created) {
      return a->created > b->created;
    }
    return a->id > b->id;
  });
  constexpr std::size_t k_recent_limit = 10;
  if (recent.size() > k_recent_limit) {
    recent.resize(k_recent_limit);
  }
  if (recent.empty()) {
    out += k_no_memories;
  }
  for (const Memory* memory : recent) {
    out += fmt::format("{} ({})\n", index_link(*memory), format_day(memory->created));
  }

  out += "\n## By Category\n\n";
  append_groups(out, active, &category_heading_key, "(uncategorized)");

  out += "\n## By Topic\n\n";
  append_groups(out, active, &topic_heading_key, "(no topic)");

  std::int64_t active_tokens = 0;
  for (const Memory* memory : active) {
    active_tokens += memory->token_count;
  }
  out += fmt::format(
      "\n"
      "## JSON Index\n"
      "\n"
      "Machine-queryable index available at [memory-index.json](../memory-index.json) with "
      "version, entry metadata, keyword search support, and retrieval tracking.\n"
      "\n"
      "## Statistics\n"
      "- Total memories: {} active ({} tombstoned)\n"
      "- Total tokens: {}\n",
      active.size(), memories.size() - active.size(), active_tokens);
  return out;
}

// Layout follows the README.md the original scripts generated (distill.md §3.4, observed form),
// with the count the original's procedure asks for in the introduction line.
std::string render_memories_readme(const std::vector<Memory>& memories) {
  const std::vector<const Memory*> active = sorted_by_id(memories, true);
  std::string out = fmt::format(
      "# Memories\n"
      "\n"
      "Organized memory entries. Total: {} active {}.\n"
      "\n"
      "## Contents\n"
      "\n"
      "### Files\n"
      "\n",
      active.size(), active.size() == 1 ? "memory" : "memories");
  if (active.empty()) {
    out += k_no_memories;
  }
  for (const Memory* memory : active) {
    out += fmt::format("- [{0}]({0}.md) - {1}\n", memory->id, one_line(memory->title));
  }
  out +=
      "\n"
      "## Navigation\n"
      "\n"
      "- [← Parent Directory](../README.md)\n";
  return out;
}

IndexFiles render_index_files(const std::vector<Memory>& memories, Date today) {
  return IndexFiles{render_index_json(memories, format_day(today)), render_index_md(memories),
                    render_memories_readme(memories)};
}

}  // namespace gv
