#include "core/gate/vault_checks.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <map>
#include <set>
#include <string_view>
#include <unordered_map>
#include <unordered_set>

#include "core/gate/index_json.hpp"
#include "core/git/blob_hasher.hpp"
#include "core/memory/lines.hpp"
#include "core/snapshot/worktree_snapshot.hpp"
#include "core/snapshot_entry.hpp"
#include "core/util/digest.hpp"
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

}  // namespace

std::string vault_state_digest(const std::vector<SnapshotEntry>& vault_entries) {
  VaultStateDigest digest;
  for (const SnapshotEntry& entry : vault_entries) {
    digest.add(entry.path, entry.oid);
  }
  return digest.hex();
}

void default_schema_fix(Finding& finding) {
  if (finding.fix.empty()) {
    finding.fix =
        "correct the frontmatter on that line (.memory/30-Templates/memory-template.md shows "
        "every field)";
  }
}

std::vector<Finding> case_collision_findings(const std::vector<SnapshotEntry>& vault_entries) {
  std::vector<std::string_view> paths;
  paths.reserve(vault_entries.size());
  for (const SnapshotEntry& entry : vault_entries) {
    paths.push_back(entry.path);
  }
  return case_collision_findings(paths);
}

std::vector<Finding> case_collision_findings(const std::vector<std::string_view>& vault_paths) {
  // Nearly every vault has no collision: distinct hashes of the lower-cased paths prove that
  // without building 10,000 strings.
  std::vector<std::uint64_t> hashes;
  hashes.reserve(vault_paths.size());
  for (const std::string_view path : vault_paths) {
    if (is_memory_path(path)) {
      std::uint64_t hash = 0xcbf29ce484222325ULL;
      for (char c : path) {
        if (c >= 'A' && c <= 'Z') {
          c = static_cast<char>(c - 'A' + 'a');
        }
        hash = (hash ^ static_cast<unsigned char>(c)) * 0x100000001b3ULL;
      }
      hashes.push_back(hash);
    }
  }
  std::sort(hashes.begin(), hashes.end());
  if (std::adjacent_find(hashes.begin(), hashes.end()) == hashes.end()) {
    return {};
  }
  std::map<std::string, std::vector<std::string_view>> groups;
  for (const std::string_view path : vault_paths) {
    if (is_memory_path(path)) {
      groups[ascii_lower(path)].push_back(path);
    }
  }
  std::vector<Finding> findings;
  for (const auto& [key, members] : groups) {
    for (std::size_t i = 1; i < members.size(); ++i) {
      Finding finding;
      finding.check = "id-case-collision";
      finding.severity = Severity::error;
      finding.path = std::string(members[i]);
      finding.id = memory_id_from_path(members[i]);
      finding.message = fmt::format(
          "memory id {} differs from {} only in case: they are one file on macOS and "
          "Windows",
          finding.id, memory_id_from_path(members[0]));
      finding.fix = fmt::format("rename one of them with git mv and update links to it");
      findings.push_back(std::move(finding));
    }
  }
  return findings;
}

std::string_view link_target_stem(std::string_view target) { return link_stem(target); }

void dangling_links_of(const IndexRow& source, const LinkResolver& resolve,
                       const Snapshot& snapshot, std::vector<Finding>& findings,
                       std::vector<std::string>* stems) {
  if (!source.active() || source.links.empty()) {
    return;
  }
  // The parse recorded each link's line; a row without them reads the file once, if a link
  // is bad.
  const bool lines_known = source.link_lines.size() == source.links.size();
  std::optional<std::optional<std::string>> bytes;
  std::set<std::string_view> reported;
  for (std::size_t link = 0; link < source.links.size(); ++link) {
    const std::string_view target = source.links[link];
    const std::string_view stem = link_stem(target);
    std::string message;
    switch (stem.empty() ? LinkTarget::note : resolve(stem)) {
      case LinkTarget::active:
      case LinkTarget::note:
        continue;
      case LinkTarget::none:
        message = fmt::format("link [[{}]] names no memory", target);
        break;
      case LinkTarget::tombstoned:
        message = fmt::format("link [[{}]] names a tombstoned memory", target);
        break;
    }
    if (!reported.insert(target).second) {
      continue;
    }
    Finding finding;
    finding.check = "dangling-link";
    finding.severity = Severity::warning;
    finding.path = std::string(source.path);
    if (lines_known) {
      finding.line = source.link_lines[link];
    } else {
      if (!bytes) {
        bytes = snapshot.read(source.path);
      }
      finding.line = link_line(*bytes, target);
    }
    finding.id = std::string(source.id);
    finding.message = std::move(message);
    finding.fix = fmt::format(
        "point [[{}]] at an active memory (`git vault search` finds one) or delete the link",
        target);
    findings.push_back(std::move(finding));
    if (stems != nullptr) {
      stems->emplace_back(stem);
    }
  }
}

std::vector<Finding> dangling_link_findings(const Snapshot& snapshot,
                                            const std::vector<IndexRow>& rows,
                                            const std::vector<SnapshotEntry>& vault_entries,
                                            std::vector<std::string>* stems) {
  const bool any_links =
      std::any_of(rows.begin(), rows.end(), [](const IndexRow& row) { return !row.links.empty(); });
  if (!any_links) {
    return {};
  }
  std::unordered_map<std::string_view, const IndexRow*> by_id;
  by_id.reserve(rows.size());
  for (const IndexRow& row : rows) {
    by_id.emplace(row.id, &row);
  }
  std::unordered_set<std::string_view> other_notes;  // stems of non-memory files under .memory/
  for (const SnapshotEntry& entry : vault_entries) {
    if (!is_memory_path(entry.path)) {
      other_notes.insert(link_stem(entry.path));
    }
  }
  const LinkResolver resolve = [&](std::string_view stem) {
    if (const auto it = by_id.find(stem); it != by_id.end()) {
      return it->second->tombstoned ? LinkTarget::tombstoned : LinkTarget::active;
    }
    return other_notes.contains(stem) ? LinkTarget::note : LinkTarget::none;
  };
  std::vector<Finding> findings;
  for (const IndexRow& memory : rows) {
    dangling_links_of(memory, resolve, snapshot, findings, stems);
  }
  return findings;
}

namespace {

// True when the three committed files are exactly what the rows regenerate, decided from blob
// ids alone: the fresh files are hashed (memory-index.json piece by piece from the entry texts)
// and only the top of the committed memory-index.json is read, for its `generated_at`. False
// means "not shown equal"; the caller then compares bytes to say what differs.
bool generated_files_match(const Snapshot& snapshot, const std::vector<IndexRow>& rows,
                           const std::vector<std::string_view>& entry_texts,
                           const std::vector<SnapshotEntry>& vault_entries,
                           const IndexFiles& fresh_markdown) {
  const std::string* json_oid = listed_oid(vault_entries, k_index_json_path);
  const std::string* md_oid = listed_oid(vault_entries, k_index_md_path);
  const std::string* readme_oid = listed_oid(vault_entries, k_memories_readme_path);
  if (json_oid == nullptr || md_oid == nullptr || readme_oid == nullptr ||
      git::hash_blob(fresh_markdown.index_md) != *md_oid ||
      git::hash_blob(fresh_markdown.memories_readme) != *readme_oid) {
    return false;
  }
  constexpr std::size_t k_head_bytes = 1024;
  const std::optional<std::string> head = snapshot.read_head(k_index_json_path, k_head_bytes);
  const std::optional<std::string> generated_at =
      head ? committed_generated_at(*head) : std::nullopt;
  return generated_at && assembled_index_json_oid(rows, entry_texts, *generated_at) == *json_oid;
}

}  // namespace

std::vector<Finding> stale_index_findings(
    const Snapshot& snapshot, const std::vector<IndexRow>& rows,
    const std::vector<std::string_view>* entry_texts,
    const std::vector<SnapshotEntry>& vault_entries,
    const std::function<std::string(std::string_view generated_at)>& render_json) {
  IndexFiles fresh;
  fresh.index_md = render_index_md(rows);
  fresh.memories_readme = render_memories_readme(rows);
  if (entry_texts != nullptr &&
      generated_files_match(snapshot, rows, *entry_texts, vault_entries, fresh)) {
    return {};
  }

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
  if (entry_texts != nullptr && committed.index_json) {
    if (std::optional<std::string> assembled =
            assemble_index_json(rows, *entry_texts, generated_at);
        assembled && *assembled == *committed.index_json) {
      fresh.index_json = std::move(*assembled);
    }
  }
  if (fresh.index_json.empty()) {
    fresh.index_json = render_json(generated_at);
  }
  std::vector<Finding> findings = check_index_files(fresh, committed);
  for (Finding& finding : findings) {
    // The gate reads what is being committed, so regenerating is not enough: stage it too.
    finding.fix = "git vault index && git add :/.memory";
  }
  return findings;
}

}  // namespace gv
