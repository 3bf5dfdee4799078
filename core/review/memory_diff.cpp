#include "core/review/memory_diff.hpp"

#include <algorithm>
#include <map>
#include <set>
#include <string_view>
#include <tuple>

#include "core/memory/body.hpp"
#include "core/memory/frontmatter.hpp"
#include "core/memory/parse.hpp"
#include "core/review/frontmatter_fields.hpp"
#include "core/snapshot/snapshot.hpp"
#include "core/vault/vault.hpp"

namespace gv::review {
namespace {

constexpr std::string_view k_merged_into = "merged_into:";

// One side of a changed memory file: what the lists are decided from.
struct Version {
  std::optional<Memory> memory;
  std::vector<RenderedField> fields;
  std::string body;
  int pre_compressions = 0;           // `### Pre-Compression …` headings
  std::set<std::string> merged_from;  // `## Merged From <id>` headings
};

Version read_version(const Snapshot& snapshot, const SnapshotEntry& entry, ParseCache* cache) {
  Version version;
  const std::optional<std::string> bytes = snapshot.read(entry.path);
  if (!bytes) {
    return version;
  }
  if (const ParsedMemory* cached =
          cache != nullptr ? cache->find(entry.path, entry.oid) : nullptr) {
    version.memory = cached->memory;
  } else {
    ParsedMemory parsed = parse_memory(entry.path, *bytes, entry.oid);
    version.memory = parsed.memory;
    if (cache != nullptr) {
      cache->store(entry.path, entry.oid, std::move(parsed));
    }
  }
  version.fields = render_fields(*bytes).value_or(std::vector<RenderedField>{});
  const FrontmatterSplit split = split_frontmatter(*bytes);
  version.body = std::string(split.body(*bytes));
  for (const Heading& heading : find_headings(version.body)) {
    if (heading.level == 3 && heading.text.starts_with("Pre-Compression")) {
      ++version.pre_compressions;
    } else if (heading.level == 2 && heading.text.starts_with("Merged From ")) {
      version.merged_from.insert(std::string(heading.text.substr(12)));
    }
  }
  return version;
}

const RenderedField* find_field(const std::vector<RenderedField>& fields, std::string_view key) {
  for (const RenderedField& field : fields) {
    if (field.key == key) {
      return &field;
    }
  }
  return nullptr;
}

// Fields added, changed or removed, in HEAD's order, then the removed ones in base order.
std::vector<std::string> changed_fields(const Version& before, const Version& after) {
  std::vector<std::string> out;
  for (const RenderedField& field : after.fields) {
    const RenderedField* old = find_field(before.fields, field.key);
    if (old == nullptr || !(*old == field)) {
      out.push_back(field.key);
    }
  }
  for (const RenderedField& field : before.fields) {
    if (find_field(after.fields, field.key) == nullptr) {
      out.push_back(field.key);
    }
  }
  return out;
}

// The primary a tombstoned secondary names: a `merged_into:` field, else the reason
// `merged_into:<id>` merge writes.
std::optional<std::string> merged_into(const Version& version) {
  if (const RenderedField* field = find_field(version.fields, "merged_into")) {
    if (!field->inline_value.empty() && field->inline_value != "null") {
      return field->inline_value;
    }
  }
  const std::string& reason = version.memory->tombstone_reason;
  if (reason.starts_with(k_merged_into)) {
    std::string primary = reason.substr(k_merged_into.size());
    primary.erase(0, primary.find_first_not_of(' '));
    return primary;
  }
  return std::nullopt;
}

// A field as one line: its value, or its lines joined (a nested block).
std::string field_value(const RenderedField& field) {
  if (field.lines.empty()) {
    return field.inline_value;
  }
  std::string out;
  for (const std::string& line : field.lines) {
    std::string_view item = line;
    item.remove_prefix(std::min(item.find_first_not_of(' '), item.size()));
    if (item.starts_with("- ")) {
      item.remove_prefix(2);
    }
    out += (out.empty() ? "" : ", ") + std::string(item);
  }
  return out;
}

// The items of a list field (`- item` lines), or nullopt when it is not a list.
std::optional<std::vector<std::string>> list_items(const RenderedField& field) {
  if (field.inline_value == "[]") {
    return std::vector<std::string>{};
  }
  if (field.lines.empty() || !field.inline_value.empty()) {
    return std::nullopt;
  }
  std::vector<std::string> items;
  for (const std::string& line : field.lines) {
    if (!line.starts_with("  - ")) {
      return std::nullopt;  // a nested map, not a list
    }
    items.push_back(line.substr(4));
  }
  return items;
}

FieldChange describe_change(const std::string& key, const RenderedField* before,
                            const RenderedField* after) {
  FieldChange change;
  change.field = key;
  if (before != nullptr && after != nullptr) {
    const std::optional<std::vector<std::string>> old_items = list_items(*before);
    const std::optional<std::vector<std::string>> new_items = list_items(*after);
    if (old_items && new_items) {
      const std::multiset<std::string> old_set(old_items->begin(), old_items->end());
      const std::multiset<std::string> new_set(new_items->begin(), new_items->end());
      for (const std::string& item : *new_items) {
        if (!old_set.contains(item)) {
          change.added.push_back(item);
        }
      }
      for (const std::string& item : *old_items) {
        if (!new_set.contains(item)) {
          change.removed.push_back(item);
        }
      }
    }
  }
  if (before != nullptr) {
    change.before = field_value(*before);
  }
  if (after != nullptr) {
    change.after = field_value(*after);
  }
  return change;
}

// Lines only one side of a body has, each counted as often as it occurs there more.
std::pair<std::size_t, std::size_t> body_line_delta(std::string_view before,
                                                    std::string_view after) {
  std::map<std::string_view, long> count;
  const auto each_line = [](std::string_view text, auto&& visit) {
    std::size_t start = 0;
    while (start < text.size()) {
      std::size_t end = text.find('\n', start);
      end = end == std::string_view::npos ? text.size() : end;
      visit(text.substr(start, end - start));
      start = end + 1;
    }
  };
  each_line(after, [&](std::string_view line) { ++count[line]; });
  each_line(before, [&](std::string_view line) { --count[line]; });
  std::size_t added = 0;
  std::size_t removed = 0;
  for (const auto& [line, n] : count) {
    (n > 0 ? added : removed) += static_cast<std::size_t>(n > 0 ? n : -n);
  }
  return {added, removed};
}

// Fields whose change the retrieval list already explains. (A tombstone or restore never
// reaches the "changed" list: those lists say what happened.)
bool explained_by_retrieval(std::string_view field, bool retrieval_listed) {
  return retrieval_listed && (field == "retrieval_count" || field == "last_retrieved");
}

void compare(const std::string& id, const Version& before, const Version& after, MemoryDiff& diff,
             std::set<MergedPair>& merged) {
  const Memory& old = *before.memory;
  const Memory& now = *after.memory;
  const bool tombstone_changed = old.tombstoned != now.tombstoned;
  if (!old.tombstoned && now.tombstoned) {
    if (auto primary = merged_into(after)) {
      merged.insert({*primary, id});
    } else {
      diff.tombstoned.push_back({id, now.title, now.tombstone_reason});
    }
  } else if (old.tombstoned && !now.tombstoned) {
    diff.restored.push_back(id);
  }
  for (const std::string& secondary : after.merged_from) {
    if (!before.merged_from.contains(secondary)) {
      merged.insert({id, secondary});
    }
  }
  const bool compressed = after.pre_compressions > before.pre_compressions;
  if (compressed) {
    diff.compressed.push_back({id, old.token_count, now.token_count});
  }
  const bool retrieval =
      old.retrieval_count != now.retrieval_count || old.last_retrieved != now.last_retrieved;
  if (retrieval) {
    diff.retrieval.push_back(
        {id, old.retrieval_count, now.retrieval_count, old.last_retrieved, now.last_retrieved});
  }
  if (compressed || tombstone_changed) {
    return;  // the body and `modified`/`token_count` edits are what those actions do
  }
  ChangedMemory changed;
  changed.id = id;
  changed.title = now.title;
  changed.body_changed = before.body != after.body;
  changed.tokens_before = old.token_count;
  changed.tokens_after = now.token_count;
  if (changed.body_changed) {
    std::tie(changed.body_lines_added, changed.body_lines_removed) =
        body_line_delta(before.body, after.body);
  }
  for (std::string& field : changed_fields(before, after)) {
    if (!explained_by_retrieval(field, retrieval)) {
      changed.changes.push_back(describe_change(field, find_field(before.fields, field),
                                                find_field(after.fields, field)));
      changed.fields.push_back(std::move(field));
    }
  }
  if (changed.body_changed || !changed.fields.empty()) {
    diff.changed.push_back(std::move(changed));
  }
}

}  // namespace

std::vector<git::TreeChange> changed_memory_files(const Snapshot& base, const Snapshot& head) {
  std::map<std::string, std::string> before;
  for (SnapshotEntry& entry : base.list(vault_path::k_memories)) {
    if (is_memory_path(entry.path)) {
      before.emplace(std::move(entry.path), std::move(entry.oid));
    }
  }
  std::vector<git::TreeChange> changes;
  for (SnapshotEntry& entry : head.list(vault_path::k_memories)) {
    if (!is_memory_path(entry.path)) {
      continue;
    }
    const auto old = before.find(entry.path);
    if (old == before.end()) {
      changes.push_back({std::move(entry.path), std::nullopt, std::move(entry.oid)});
      continue;
    }
    if (old->second != entry.oid) {
      changes.push_back({std::move(entry.path), old->second, std::move(entry.oid)});
    }
    before.erase(old);
  }
  for (auto& [path, oid] : before) {
    changes.push_back({path, std::move(oid), std::nullopt});
  }
  std::sort(changes.begin(), changes.end(),
            [](const git::TreeChange& a, const git::TreeChange& b) { return a.path < b.path; });
  return changes;
}

std::size_t unchanged_memory_files(std::size_t head_memory_files,
                                   const std::vector<git::TreeChange>& changes) {
  std::size_t changed = 0;
  for (const git::TreeChange& change : changes) {
    changed += change.new_oid && is_memory_path(change.path) ? 1 : 0;
  }
  return head_memory_files - changed;
}

MemoryDiff diff_memories(const Snapshot& base, const Snapshot& head, ParseCache* cache) {
  const std::vector<git::TreeChange> changes = changed_memory_files(base, head);
  MemoryDiff diff = diff_memories(base, head, changes, cache);
  std::size_t files = 0;
  for (const SnapshotEntry& entry : head.list(vault_path::k_memories)) {
    files += is_memory_path(entry.path) ? 1 : 0;
  }
  diff.unchanged = unchanged_memory_files(files, changes);
  return diff;
}

MemoryDiff diff_memories(const Snapshot& base, const Snapshot& head,
                         const std::vector<git::TreeChange>& changes, ParseCache* cache) {
  MemoryDiff diff;
  std::set<MergedPair> merged;
  // Memories the range can have merged away: changed files that were not tombstoned at the
  // base. A merge copies the secondary's body whole, with the `## Merged From` sections of its
  // own earlier merges, so a primary also gains headings for memories merged before the range.
  std::set<std::string> mergeable;
  // Blobs deleted and added, to tell a rename from a deletion and an addition.
  std::map<std::string, std::string> deleted_blob;              // old blob -> id
  std::vector<std::pair<std::string, std::string>> added_blob;  // new blob, id
  // Ids in order: a memory's path is its id, so one path sorts like its id except where an id
  // is a prefix of another (`MEM-a-b` < `MEM-a`); the lists are sorted by id at the end.
  for (const git::TreeChange& change : changes) {
    if (!is_memory_path(change.path)) {
      continue;
    }
    const std::string id = memory_id_from_path(change.path);
    if (!change.new_oid) {
      const Version then = read_version(base, {change.path, *change.old_oid}, cache);
      DeletedMemory deleted{id, {}, false};
      if (then.memory) {
        deleted.title = then.memory->title;
        deleted.was_tombstoned = then.memory->tombstoned;
      }
      if (!deleted.was_tombstoned) {
        mergeable.insert(id);
      }
      deleted_blob.emplace(*change.old_oid, id);
      diff.deleted.push_back(std::move(deleted));
      continue;
    }
    const Version now = read_version(head, {change.path, *change.new_oid}, cache);
    if (!now.memory) {
      diff.unreadable.push_back(id);
      continue;
    }
    if (!change.old_oid) {
      mergeable.insert(id);
      added_blob.emplace_back(*change.new_oid, id);
      diff.added.push_back({id, now.memory->title, category_key(*now.memory), now.memory->topic,
                            now.memory->token_count, now.memory->tombstoned});
      continue;
    }
    const Version then = read_version(base, {change.path, *change.old_oid}, cache);
    if (!then.memory) {
      // Unreadable before, readable now: a repair. Everything about it is new to the reader.
      ChangedMemory repaired;
      repaired.id = id;
      repaired.title = now.memory->title;
      repaired.body_changed = true;
      repaired.tokens_after = now.memory->token_count;
      diff.changed.push_back(std::move(repaired));
      mergeable.insert(id);
      continue;
    }
    if (!then.memory->tombstoned) {
      mergeable.insert(id);
    }
    compare(id, then, now, diff, merged);
  }
  // The same bytes deleted under one name and added under another: a rename, not a memory lost
  // and another made. Each deleted blob pairs with one added file at most.
  std::set<std::string> renamed_from;
  std::set<std::string> renamed_to;
  for (const auto& [blob, id] : added_blob) {
    const auto found = deleted_blob.find(blob);
    if (found == deleted_blob.end()) {
      continue;
    }
    // Named apart: clang before 16 cannot capture a structured binding.
    const std::string& added_id = id;
    const auto added = std::find_if(diff.added.begin(), diff.added.end(),
                                    [&](const AddedMemory& x) { return x.id == added_id; });
    diff.renamed.push_back({found->second, id, added->title});
    renamed_from.insert(found->second);
    renamed_to.insert(id);
    mergeable.erase(found->second);
    deleted_blob.erase(found);
  }
  std::erase_if(diff.added, [&](const AddedMemory& x) { return renamed_to.contains(x.id); });
  std::erase_if(diff.deleted, [&](const DeletedMemory& x) { return renamed_from.contains(x.id); });
  std::erase_if(merged,
                [&](const MergedPair& pair) { return !mergeable.contains(pair.secondary); });
  const auto by_id = [](const auto& a, const auto& b) { return a.id < b.id; };
  std::sort(diff.added.begin(), diff.added.end(), by_id);
  std::sort(diff.changed.begin(), diff.changed.end(), by_id);
  std::sort(diff.tombstoned.begin(), diff.tombstoned.end(), by_id);
  std::sort(diff.deleted.begin(), diff.deleted.end(), by_id);
  std::sort(diff.renamed.begin(), diff.renamed.end(),
            [](const RenamedMemory& a, const RenamedMemory& b) { return a.to < b.to; });
  std::sort(diff.compressed.begin(), diff.compressed.end(), by_id);
  std::sort(diff.retrieval.begin(), diff.retrieval.end(), by_id);
  std::sort(diff.restored.begin(), diff.restored.end());
  std::sort(diff.unreadable.begin(), diff.unreadable.end());
  diff.merged.assign(merged.begin(), merged.end());
  return diff;
}

}  // namespace gv::review
