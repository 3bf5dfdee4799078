#include "core/gate/vault_checks.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <set>
#include <string_view>
#include <unordered_map>
#include <unordered_set>

#include "core/gate/index_json.hpp"
#include "core/memory/lines.hpp"
#include "core/snapshot/worktree_snapshot.hpp"
#include "core/vault/index_check.hpp"
#include "core/vault/index_files.hpp"

namespace gv {
namespace {

std::string ascii_lower(std::string_view text) {
  std::string out(text);
  for (char& c : out) {
    if (c >= 'A' && c <= 'Z') {
      c = static_cast<char>(c - 'A' + 'a');
    }
  }
  return out;
}

// `folder/MEM-x.md` -> `MEM-x`: the part of a wiki-link target that names a note.
std::string_view link_stem(std::string_view target) {
  if (const auto slash = target.rfind('/'); slash != std::string_view::npos) {
    target.remove_prefix(slash + 1);
  }
  if (target.size() > 3 && target.substr(target.size() - 3) == ".md") {
    target.remove_suffix(3);
  }
  return target;
}

std::optional<int> link_line(const std::optional<std::string>& bytes, std::string_view target) {
  if (!bytes) {
    return std::nullopt;
  }
  std::size_t at = bytes->find(fmt::format("[[{}", target));
  if (at == std::string::npos) {
    at = bytes->find(target);
  }
  if (at == std::string::npos) {
    return std::nullopt;
  }
  return line_of_offset(*bytes, at);
}

// The `generated_at` string of a committed memory-index.json, read without parsing the JSON.
// nullopt when it is not a plain string near the top (escapes, another type): then the caller
// falls back to the full comparison, which gives the same answer more slowly.
std::optional<std::string> committed_generated_at(std::string_view bytes) {
  constexpr std::string_view k_key = "\"generated_at\": \"";
  const std::string_view head = bytes.substr(0, 512);
  const auto at = head.find(k_key);
  if (at == std::string_view::npos) {
    return std::nullopt;
  }
  const auto begin = at + k_key.size();
  const auto end = bytes.find('"', begin);
  if (end == std::string_view::npos) {
    return std::nullopt;
  }
  const std::string_view value = bytes.substr(begin, end - begin);
  if (value.find('\\') != std::string_view::npos || value.size() > 64) {
    return std::nullopt;
  }
  for (const char c : value) {
    if (static_cast<unsigned char>(c) < 0x20) {
      return std::nullopt;
    }
  }
  return std::string(value);
}

std::optional<std::string> assemble_from_cache(const std::vector<Memory>& memories,
                                               std::string_view generated_at,
                                               PersistentParseCache& cache) {
  for (const Memory& memory : memories) {
    if (!cache.find_fragment(memory.path, memory.blob_oid)) {
      std::optional<std::string> text = index_entry_text(memory);
      if (!text) {
        return std::nullopt;
      }
      cache.store_fragment(memory.path, memory.blob_oid, std::move(*text));
    }
  }
  std::vector<std::string_view> texts;
  texts.reserve(memories.size());
  for (const Memory& memory : memories) {
    texts.push_back(*cache.find_fragment(memory.path, memory.blob_oid));
  }
  return assemble_index_json(memories, texts, generated_at);
}

}  // namespace

std::string vault_state_digest(const std::vector<SnapshotEntry>& vault_entries) {
  std::string text;
  text.reserve(vault_entries.size() * 96);
  for (const SnapshotEntry& entry : vault_entries) {
    text += entry.path;
    text += '\0';
    text += entry.oid;
    text += '\n';
  }
  return blob_oid(text);
}

std::vector<Finding> case_collision_findings(const std::vector<SnapshotEntry>& vault_entries) {
  std::map<std::string, std::vector<const SnapshotEntry*>> groups;
  for (const SnapshotEntry& entry : vault_entries) {
    if (is_memory_path(entry.path)) {
      groups[ascii_lower(entry.path)].push_back(&entry);
    }
  }
  std::vector<Finding> findings;
  for (const auto& [key, members] : groups) {
    for (std::size_t i = 1; i < members.size(); ++i) {
      Finding finding;
      finding.check = "id-case-collision";
      finding.severity = Severity::error;
      finding.path = members[i]->path;
      finding.id = memory_id_from_path(members[i]->path);
      finding.message = fmt::format(
          "memory id {} differs from {} only in case: they are one file on macOS and "
          "Windows",
          finding.id, memory_id_from_path(members[0]->path));
      finding.fix = fmt::format("rename one of them with git mv and update links to it");
      findings.push_back(std::move(finding));
    }
  }
  return findings;
}

std::vector<Finding> dangling_link_findings(const Snapshot& snapshot,
                                            const std::vector<Memory>& memories,
                                            const std::vector<SnapshotEntry>& vault_entries) {
  std::unordered_map<std::string_view, const Memory*> by_id;
  for (const Memory& memory : memories) {
    by_id.emplace(memory.id, &memory);
  }
  std::unordered_set<std::string> other_notes;  // stems of non-memory files under .memory/
  for (const SnapshotEntry& entry : vault_entries) {
    if (!is_memory_path(entry.path)) {
      other_notes.insert(std::string(link_stem(entry.path)));
    }
  }
  std::vector<Finding> findings;
  for (const Memory& memory : memories) {
    if (!memory.active() || memory.links.empty()) {
      continue;
    }
    std::optional<std::optional<std::string>> bytes;  // read once, only if a link is bad
    std::set<std::string> reported;
    for (const std::string& target : memory.links) {
      const std::string_view stem = link_stem(target);
      const auto it = by_id.find(stem);
      std::string message;
      if (it == by_id.end()) {
        if (stem.empty() || other_notes.contains(std::string(stem))) {
          continue;
        }
        message = fmt::format("link [[{}]] names no memory", target);
      } else if (it->second->tombstoned) {
        message = fmt::format("link [[{}]] names a tombstoned memory", target);
      } else {
        continue;
      }
      if (!reported.insert(target).second) {
        continue;
      }
      if (!bytes) {
        bytes = snapshot.read(memory.path);
      }
      Finding finding;
      finding.check = "dangling-link";
      finding.severity = Severity::warning;
      finding.path = memory.path;
      finding.line = link_line(*bytes, target);
      finding.id = memory.id;
      finding.message = std::move(message);
      finding.fix = "edit or remove the link by hand";
      findings.push_back(std::move(finding));
    }
  }
  return findings;
}

std::vector<Finding> stale_index_findings(const Snapshot& snapshot,
                                          const std::vector<Memory>& memories,
                                          PersistentParseCache* cache) {
  CommittedIndexFiles committed;
  committed.index_json = snapshot.read(k_index_json_path);
  committed.index_md = snapshot.read(k_index_md_path);
  committed.memories_readme = snapshot.read(k_memories_readme_path);

  // Rendering with the committed date makes an up-to-date file equal byte for byte, so the
  // common case never parses a multi-megabyte JSON document.
  std::string generated_at;
  if (committed.index_json) {
    generated_at = committed_generated_at(*committed.index_json).value_or("");
  }
  IndexFiles fresh;
  if (cache != nullptr && committed.index_json) {
    if (std::optional<std::string> assembled = assemble_from_cache(memories, generated_at, *cache);
        assembled && *assembled == *committed.index_json) {
      fresh.index_json = std::move(*assembled);
    }
  }
  if (fresh.index_json.empty()) {
    fresh.index_json = render_index_json(memories, generated_at);
  }
  fresh.index_md = render_index_md(memories);
  fresh.memories_readme = render_memories_readme(memories);
  std::vector<Finding> findings = check_index_files(fresh, committed);
  for (Finding& finding : findings) {
    // The gate reads what is being committed, so regenerating is not enough: stage it too.
    finding.fix = "git vault index && git add .memory";
  }
  return findings;
}

}  // namespace gv
