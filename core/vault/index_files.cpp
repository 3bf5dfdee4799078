#include "core/vault/index_files.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <unordered_map>
#include <utility>

namespace gv {

namespace {

using OrderedJson = nlohmann::ordered_json;

template <typename Item>
std::vector<const Item*> sorted_by_id(const std::vector<Item>& items, bool active_only) {
  std::vector<const Item*> out;
  out.reserve(items.size());
  for (const Item& item : items) {
    if (!active_only || item.active()) {
      out.push_back(&item);
    }
  }
  const auto by_id = [](const Item* a, const Item* b) { return a->id < b->id; };
  if (!std::is_sorted(out.begin(), out.end(), by_id)) {  // callers usually pass id order
    std::sort(out.begin(), out.end(), by_id);
  }
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
  entry["created"] = format_date(memory.created);
  entry["modified"] = format_date(memory.modified);
  entry["last_retrieved"] =
      memory.last_retrieved ? OrderedJson(format_date(*memory.last_retrieved)) : OrderedJson();
  entry["retrieval_count"] = memory.retrieval_count;
  entry["status"] = memory.tombstoned ? "tombstoned" : "active";
  // "Preserved when present" in the original, whatever the status.
  if (memory.tombstoned_at) {
    entry["tombstoned_at"] = format_date(*memory.tombstoned_at);
  }
  if (!memory.tombstone_reason.empty()) {
    entry["tombstone_reason"] = memory.tombstone_reason;
  }
  return entry;
}

// A title or topic is one Markdown line: a YAML double-quoted scalar may hold line breaks or
// tabs, which would otherwise break the list structure.
bool breaks_line(char c) { return c == '\n' || c == '\r' || c == '\t' || c == '\v' || c == '\f'; }

// one_line(text) appended to `out`, without a temporary: index.md and README.md carry one line
// per memory, and the gate renders them for every commit that changes the vault.
void append_one_line(std::string& out, std::string_view text) {
  const std::size_t at = out.size();
  out += text;
  for (std::size_t i = at; i < out.size(); ++i) {
    if (breaks_line(out[i])) {
      out[i] = ' ';
    }
  }
}

std::string one_line(std::string_view text) {
  std::string out;
  append_one_line(out, text);
  return out;
}

// `- [<id>](../10-Memories/<id>.md) - <title>`, appended piece by piece (fmt's formatting
// machinery costs more than the copying here, and this runs once per memory).
void append_index_link(std::string& out, const IndexRow& row) {
  out += "- [";
  out += row.id;
  out += "](../10-Memories/";
  out += row.id;
  out += ".md) - ";
  append_one_line(out, row.title);
}

constexpr std::string_view k_no_memories = "No active memories.\n";

// Groups ids under headings. Named groups come in ascending byte order; the group for an empty
// key (no category, no topic) comes last under `fallback`, so a real heading never collides
// with it and the common groups stay at the top.
void append_groups(std::string& out, const std::vector<const IndexRow*>& active,
                   std::string (*key_of)(const IndexRow&), std::string_view fallback) {
  if (active.empty()) {
    out += k_no_memories;
    return;
  }
  // Rows are grouped by hashing (a vault has few headings and many memories), then the headings
  // are sorted; each group keeps the id order `active` has.
  std::unordered_map<std::string, std::vector<const IndexRow*>> by_key;
  for (const IndexRow* row : active) {
    by_key[key_of(*row)].push_back(row);
  }
  std::vector<std::pair<std::string_view, const std::vector<const IndexRow*>*>> groups;
  groups.reserve(by_key.size());
  for (const auto& [key, members] : by_key) {
    groups.emplace_back(key, &members);
  }
  std::sort(groups.begin(), groups.end(),
            [](const auto& a, const auto& b) { return a.first < b.first; });
  bool first = true;
  const auto emit = [&](std::string_view heading, const std::vector<const IndexRow*>& members) {
    if (!first) {
      out += '\n';
    }
    first = false;
    out += "### ";
    out += heading;
    out += '\n';
    for (const IndexRow* row : members) {
      append_index_link(out, *row);
      out += '\n';
    }
  };
  // The empty key sorts first; its group goes last.
  for (const auto& [key, members] : groups) {
    if (!key.empty()) {
      emit(key, *members);
    }
  }
  if (!groups.empty() && groups.front().first.empty()) {
    emit(fallback, *groups.front().second);
  }
}

std::string category_heading_key(const IndexRow& row) { return category_key(row.category); }
std::string topic_heading_key(const IndexRow& row) { return one_line(row.topic); }

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

// Layout: doc/vault-format.md, "Index files" (the index.md the original scripts generated,
// minus the "Last updated" line, D4). Choices where the original is silent or varies:
// - Recent Memories: the 10 newest by `created`, ties broken by id, both descending (the
//   observed tie order).
// - By Category: the category upper-cased (D2), so `enforcement` and `ENFORCEMENT` share one
//   heading; memories with no category at all come last under `(uncategorized)`.
// - By Topic: the full topic string as heading; an empty topic comes last under `(no topic)`.
// - An empty section says "No active memories." so the file keeps its shape.
// - Titles are written as they are, on one line; Markdown in them is not escaped.
std::string render_index_md(const std::vector<IndexRow>& rows) {
  const std::vector<const IndexRow*> active = sorted_by_id(rows, true);

  std::string out;
  out.reserve(300 * active.size() + 1024);  // three lines per memory, about 100 bytes each
  out +=
      "# Memory Vault Index\n"
      "\n"
      "## Quick Navigation\n"
      "- [Inbox](../00-Inbox/) - Quick capture for new memories\n"
      "- [Memories](../10-Memories/) - All stored memory entries\n"
      "- [Templates](../30-Templates/) - Memory entry templates\n"
      "\n"
      "## Recent Memories\n"
      "\n";
  std::vector<const IndexRow*> recent = active;
  std::sort(recent.begin(), recent.end(), [](const IndexRow* a, const IndexRow* b) {
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
  for (const IndexRow* row : recent) {
    append_index_link(out, *row);
    out += " (";
    out += format_date(row->created);
    out += ")\n";
  }

  out += "\n## By Category\n\n";
  append_groups(out, active, &category_heading_key, "(uncategorized)");

  out += "\n## By Topic\n\n";
  append_groups(out, active, &topic_heading_key, "(no topic)");

  std::int64_t active_tokens = 0;
  for (const IndexRow* row : active) {
    active_tokens += row->token_count;
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
      active.size(), rows.size() - active.size(), active_tokens);
  return out;
}

std::string render_index_md(const std::vector<Memory>& memories) {
  return render_index_md(index_rows(memories));
}

// Layout: doc/vault-format.md, "Index files" (the README.md the original scripts generated,
// with the count the original's procedure asks for in the introduction line).
std::string render_memories_readme(const std::vector<IndexRow>& rows) {
  const std::vector<const IndexRow*> active = sorted_by_id(rows, true);
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
  out.reserve(out.size() + 100 * active.size() + 128);
  if (active.empty()) {
    out += k_no_memories;
  }
  for (const IndexRow* row : active) {  // `- [<id>](<id>.md) - <title>`
    out += "- [";
    out += row->id;
    out += "](";
    out += row->id;
    out += ".md) - ";
    append_one_line(out, row->title);
    out += '\n';
  }
  out +=
      "\n"
      "## Navigation\n"
      "\n"
      "- [← Parent Directory](../README.md)\n";
  return out;
}

std::string render_memories_readme(const std::vector<Memory>& memories) {
  return render_memories_readme(index_rows(memories));
}

IndexFiles render_index_files(const std::vector<Memory>& memories, Date today) {
  const std::vector<IndexRow> rows = index_rows(memories);
  return IndexFiles{render_index_json(memories, format_date(today)), render_index_md(rows),
                    render_memories_readme(rows)};
}

}  // namespace gv
