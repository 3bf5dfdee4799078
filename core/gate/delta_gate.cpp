#include "core/gate/delta_gate.hpp"

#include <algorithm>
#include <array>
#include <string_view>
#include <unordered_set>

#include "core/gate/input.hpp"
#include "core/gate/secret_findings.hpp"
#include "core/gate/vault_checks.hpp"
#include "core/git/index_file.hpp"
#include "core/memory/parse.hpp"
#include "core/snapshot/snapshot.hpp"
#include "core/vault/generated_records.hpp"
#include "core/vault/index_files.hpp"
#include "core/vault/index_row.hpp"
#include "core/vault/vault.hpp"

namespace gv {
namespace {

using Entry = git::IndexFile::Entry;

// The 40 hex digits of an entry's blob id, without allocating: digests run over every entry.
struct Hex {
  std::array<char, 40> digits{};
  explicit Hex(const Entry& entry) {
    static constexpr char k_digits[] = "0123456789abcdef";
    for (std::size_t i = 0; i < 20; ++i) {
      digits[2 * i] = k_digits[entry.oid()[i] >> 4];
      digits[2 * i + 1] = k_digits[entry.oid()[i] & 0xf];
    }
  }
  [[nodiscard]] std::string_view view() const { return {digits.data(), digits.size()}; }
};

// What a link to a memory sees of it: `none` for absent and unreadable alike.
LinkTarget link_state(std::optional<MemoryStatus> status) {
  if (!status || *status == MemoryStatus::unreadable) {
    return LinkTarget::none;
  }
  return *status == MemoryStatus::tombstoned ? LinkTarget::tombstoned : LinkTarget::active;
}

// One path that differs between the baseline and the staged entries.
using Change = GateBaseline::Difference;

const std::string* listed_generated(std::string_view path, const std::vector<const Entry*>& entries,
                                    std::string& storage) {
  const Entry* entry = find_vault_entry(entries, path);
  if (entry == nullptr) {
    return nullptr;
  }
  storage = std::string(Hex(*entry).view());
  return &storage;
}

// Whether a recorded regeneration wrote exactly the staged generated files from exactly the
// staged memories: then `stale-index` has nothing to say.
bool generated_current(const std::vector<const Entry*>& entries, std::string_view inputs,
                       const GeneratedRecords& records) {
  GeneratedRecord listed;
  listed.inputs = std::string(inputs);
  if (listed_generated(k_index_json_path, entries, listed.index_json) == nullptr ||
      listed_generated(k_index_md_path, entries, listed.index_md) == nullptr ||
      listed_generated(k_memories_readme_path, entries, listed.memories_readme) == nullptr) {
    return false;
  }
  return records.current(listed);
}

// Stems of the files under `.memory/` that are not memories: link targets that are notes.
std::unordered_set<std::string_view> note_stems(const std::vector<const Entry*>& entries) {
  std::unordered_set<std::string_view> stems;
  for (const Entry* entry : entries) {
    if (!is_memory_path(entry->path())) {
      stems.insert(link_target_stem(entry->path()));
    }
  }
  return stems;
}

// Whether a file under `.memory/` that is not a memory (a note, which a link may target) has
// this stem. A pass over the entries, made only for the rare change that needs it.
bool note_has_stem(const std::vector<const Entry*>& entries, std::string_view stem) {
  return std::any_of(entries.begin(), entries.end(), [&](const Entry* entry) {
    return entry->path().find(stem) != std::string_view::npos && !is_memory_path(entry->path()) &&
           link_target_stem(entry->path()) == stem;
  });
}

// A changed memory file as the staged index holds it.
struct Reread {
  std::string_view path;
  MemoryStatus status = MemoryStatus::unreadable;
  ParsedMemory parsed;
};

}  // namespace

std::vector<const Entry*> committed_vault_entries(const git::IndexFile& index) {
  std::vector<const Entry*> out;
  for (const Entry& entry : index.with_prefix(vault_path::k_root)) {
    if (entry.is_committed_file()) {
      out.push_back(&entry);
    }
  }
  return out;
}

const Entry* find_vault_entry(const std::vector<const Entry*>& entries, std::string_view path) {
  const auto it = std::lower_bound(
      entries.begin(), entries.end(), path,
      [](const Entry* entry, std::string_view key) { return entry->path() < key; });
  return it != entries.end() && (*it)->path() == path ? *it : nullptr;
}

IndexDigests index_digests(const std::vector<const Entry*>& entries) {
  // One pass for both, each entry's id spelled once.
  VaultStateDigest state;
  GeneratedInputsDigest inputs;
  constexpr std::size_t k_ahead = 8;
  for (std::size_t i = 0; i < entries.size(); ++i) {
    if (i + k_ahead < entries.size()) {
      // The entries are read from the mapped index in order; asking ahead hides the misses.
      __builtin_prefetch(entries[i + k_ahead]->start);
      __builtin_prefetch(entries[i + k_ahead]->start + 64);
    }
    const Entry& entry = *entries[i];
    const Hex oid(entry);
    state.add(entry.path(), oid.view());
    inputs.add(entry.path(), oid.view());
  }
  return {state.hex(), inputs.hex()};
}

std::optional<IndexDigests> digests_after(const GateBaseline& baseline,
                                          const std::vector<GateBaseline::Difference>& changes) {
  std::optional<VaultStateDigest> state = VaultStateDigest::from_hex(baseline.vault_digest());
  std::optional<GeneratedInputsDigest> inputs =
      GeneratedInputsDigest::from_hex(baseline.generated_inputs());
  if (!state || !inputs) {
    return std::nullopt;
  }
  for (const Change& change : changes) {
    if (change.before != nullptr) {
      const Hex oid(*change.before);
      state->remove(change.path, oid.view());
      inputs->remove(change.path, oid.view());
    }
    if (change.after != nullptr) {
      const Hex oid(*change.after);
      state->add(change.path, oid.view());
      inputs->add(change.path, oid.view());
    }
  }
  return IndexDigests{state->hex(), inputs->hex()};
}

std::optional<VaultCheckResult> delta_vault_check(const GateBaseline& baseline,
                                                  const std::vector<const Entry*>& entries,
                                                  std::uint32_t index_version,
                                                  std::string_view generated_inputs,
                                                  const Snapshot& snapshot,
                                                  const GeneratedRecords* generated) {
  if (generated == nullptr || !generated_current(entries, generated_inputs, *generated)) {
    return std::nullopt;
  }
  const std::vector<Change>* differences = baseline.differences(entries, index_version);
  if (differences == nullptr) {
    return std::nullopt;
  }
  const std::vector<Change>& changes = *differences;
  // Whether a note of the baseline has the stem: the baseline's entries parsed in full, asked
  // only for the rare change that needs it.
  bool before_unread = false;
  const auto note_before = [&](std::string_view stem) {
    const std::vector<const Entry*>* before = baseline.committed_entries();
    if (before == nullptr) {
      before_unread = true;  // the caller checks in full
      return false;
    }
    return note_has_stem(*before, stem);
  };

  // Notes: links to a note's stem are not memory links. A stem that stops being a note's (its
  // note removed), or a note added under a name dangling links already use, changes findings of
  // files that did not change. Notes come and go only with the changes, so only those are
  // looked at, not every name in the vault.
  std::unordered_set<std::string> dangling_stems;
  for (const GateBaseline::DanglingTarget& target : baseline.dangling()) {
    dangling_stems.insert(target.stem);
  }
  for (const Change& change : changes) {
    if ((change.before != nullptr && change.after != nullptr) || is_memory_path(change.path)) {
      continue;  // an edited note keeps its stem
    }
    const std::string_view stem = link_target_stem(change.path);
    if (change.after == nullptr
            ? !note_has_stem(entries, stem)
            : dangling_stems.contains(std::string(stem)) && !note_before(stem)) {
      return std::nullopt;
    }
    if (before_unread) {
      return std::nullopt;
    }
  }

  // Changed memories, read again. A memory whose standing as a link target changed is
  // followed only when no link could have named it before.
  std::vector<Reread> reread;
  for (const Change& change : changes) {
    if (!is_memory_path(change.path)) {
      continue;
    }
    std::optional<MemoryStatus> old_status;
    if (change.before != nullptr) {
      old_status = baseline.status(change.path);
    }
    std::optional<MemoryStatus> new_status;
    if (change.after != nullptr) {
      Reread& file = reread.emplace_back();
      file.path = change.path;
      if (const std::optional<std::string> bytes = snapshot.read(change.path)) {
        file.parsed = parse_memory(change.path, *bytes, Hex(*change.after).view());
        if (file.parsed.memory) {
          file.status =
              file.parsed.memory->tombstoned ? MemoryStatus::tombstoned : MemoryStatus::active;
        }
      }
      new_status = file.status;
    }
    const LinkTarget was = link_state(old_status);
    const LinkTarget now = link_state(new_status);
    if (was == now) {
      continue;
    }
    const std::string stem = memory_id_from_path(change.path);
    if (was != LinkTarget::none || dangling_stems.contains(stem) || note_before(stem) ||
        note_has_stem(entries, stem) || before_unread) {
      return std::nullopt;
    }
  }

  std::vector<std::string_view> changed_paths;
  changed_paths.reserve(changes.size());
  for (const Change& change : changes) {
    changed_paths.push_back(change.path);
  }
  const auto changed = [&](std::string_view path) {
    return std::binary_search(changed_paths.begin(), changed_paths.end(), path);
  };

  VaultCheckResult result;
  for (const std::string_view path : changed_paths) {
    result.changed.emplace_back(path);
  }
  // The baseline's findings on files that did not change. id-case-collision is recomputed
  // below, and stale-index has nothing to say (checked above).
  for (const Finding& finding : baseline.findings()) {
    if ((finding.check == "schema" || finding.check == "dangling-link" ||
         finding.check == "secret") &&
        !changed(finding.path)) {
      result.findings.push_back(finding);
    }
  }
  for (const GateBaseline::DanglingTarget& target : baseline.dangling()) {
    if (!changed(target.source)) {
      result.dangling.push_back(target);
    }
  }

  // Schema and secret findings of the changed files, in path order as the whole check gives
  // them.
  std::size_t next_reread = 0;
  for (const Change& change : changes) {
    if (change.after == nullptr) {
      continue;
    }
    if (!is_memory_path(change.path)) {
      if (std::optional<Finding> finding = non_memory_note_finding(change.path)) {
        result.findings.push_back(std::move(*finding));
      }
      continue;
    }
    const Reread& file = reread[next_reread++];
    for (Finding finding : file.parsed.findings) {
      default_schema_fix(finding);
      result.findings.push_back(std::move(finding));
    }
    for (const secrets::SecretFinding& secret : file.parsed.secrets) {
      result.findings.push_back(secret_finding(std::string(file.path), secret.line, secret.kind));
    }
  }

  // Case collisions depend on the paths alone: when every change edits a file that was there
  // (no file added or removed), the baseline's stand, and the names are not folded again.
  const bool same_paths = std::all_of(changes.begin(), changes.end(), [](const Change& change) {
    return change.before != nullptr && change.after != nullptr;
  });
  if (same_paths) {
    for (const Finding& finding : baseline.findings()) {
      if (finding.check == "id-case-collision") {
        result.findings.push_back(finding);
      }
    }
  } else {
    std::vector<std::string_view> paths;
    paths.reserve(entries.size());
    for (const Entry* entry : entries) {
      paths.push_back(entry->path());
    }
    for (Finding& finding : case_collision_findings(paths)) {
      result.findings.push_back(std::move(finding));
    }
  }

  // Links of the changed memories, resolved against the staged state.
  const auto status_now = [&](std::string_view path) -> std::optional<MemoryStatus> {
    const auto it =
        std::lower_bound(reread.begin(), reread.end(), path,
                         [](const Reread& r, std::string_view key) { return r.path < key; });
    if (it != reread.end() && it->path == path) {
      return it->status;
    }
    if (find_vault_entry(entries, path) == nullptr) {
      return std::nullopt;
    }
    return baseline.status(path);
  };
  // The notes' stems, gathered when a link first names no memory (most commits have none).
  std::optional<std::unordered_set<std::string_view>> notes_now;
  const LinkResolver resolve = [&](std::string_view stem) {
    const std::string path = memory_path(stem);
    const LinkTarget target =
        is_memory_path(path) ? link_state(status_now(path)) : LinkTarget::none;
    if (target != LinkTarget::none) {
      return target;
    }
    if (!notes_now) {
      notes_now = note_stems(entries);
    }
    return notes_now->contains(stem) ? LinkTarget::note : LinkTarget::none;
  };
  for (const Reread& file : reread) {
    if (!file.parsed.memory) {
      continue;
    }
    std::vector<std::string> stems;
    dangling_links_of(index_row(*file.parsed.memory), resolve, snapshot, result.findings, &stems);
    for (std::string& stem : stems) {
      result.dangling.push_back({std::string(file.path), std::move(stem)});
    }
  }

  // Statuses: the baseline's for files that did not change, the new ones for those that did.
  for (const GateBaseline::Status& status : baseline.not_active()) {
    if (!changed(status.path)) {
      result.not_active.push_back(status);
    }
  }
  for (const Reread& file : reread) {
    if (file.status != MemoryStatus::active) {
      result.not_active.push_back({std::string(file.path), file.status});
    }
  }
  std::sort(
      result.not_active.begin(), result.not_active.end(),
      [](const GateBaseline::Status& a, const GateBaseline::Status& b) { return a.path < b.path; });
  return result;
}

VaultCheckResult full_check_result(GateInput& input, std::vector<Finding> findings) {
  VaultCheckResult result;
  result.findings = std::move(findings);
  const GateVault& vault = input.vault();
  std::vector<std::pair<std::string_view, bool>> rows;  // path, tombstoned
  rows.reserve(vault.rows.size());
  for (const IndexRow& row : vault.rows) {
    rows.emplace_back(row.path, row.tombstoned);
  }
  std::sort(rows.begin(), rows.end());
  for (const SnapshotEntry& entry : input.vault_entries()) {
    if (!is_memory_path(entry.path)) {
      continue;
    }
    const auto it =
        std::lower_bound(rows.begin(), rows.end(), std::string_view(entry.path),
                         [](const auto& row, std::string_view key) { return row.first < key; });
    if (it == rows.end() || it->first != entry.path) {
      result.not_active.push_back({entry.path, MemoryStatus::unreadable});
    } else if (it->second) {
      result.not_active.push_back({entry.path, MemoryStatus::tombstoned});
    }
  }
  result.dangling = input.dangling_targets();
  return result;
}

}  // namespace gv
