#include "core/gate/vault_rows.hpp"

#include <algorithm>
#include <numeric>
#include <optional>
#include <string>
#include <utility>

#include "core/gate/index_json.hpp"
#include "core/gate/secret_findings.hpp"
#include "core/memory/parse.hpp"
#include "core/memory/parse_parallel.hpp"
#include "core/vault/parse_cache_file.hpp"
#include "core/vault/vault.hpp"

namespace gv {
namespace {

// Puts rows and their entry texts in id order together. Path order is already id order unless
// an id is a prefix of another followed by a character below '.' (`MEM-a-b.md` < `MEM-a.md`).
void sort_by_id(VaultRows& out) {
  const auto by_id = [](const IndexRow& a, const IndexRow& b) { return a.id < b.id; };
  if (std::is_sorted(out.rows.begin(), out.rows.end(), by_id)) {
    return;
  }
  std::vector<std::size_t> order(out.rows.size());
  std::iota(order.begin(), order.end(), 0);
  std::sort(order.begin(), order.end(),
            [&](std::size_t a, std::size_t b) { return out.rows[a].id < out.rows[b].id; });
  std::vector<IndexRow> rows;
  std::vector<std::string_view> texts;
  rows.reserve(order.size());
  texts.reserve(order.size());
  for (const std::size_t i : order) {
    rows.push_back(std::move(out.rows[i]));
    texts.push_back(out.entry_texts[i]);
  }
  out.rows = std::move(rows);
  out.entry_texts = std::move(texts);
}

}  // namespace

VaultRows vault_rows(const Snapshot& snapshot, const std::vector<SnapshotEntry>& vault_entries,
                     PersistentParseCache& cache) {
  // The memories the cache does not know are read first and parsed together on every core,
  // so a cold run costs the parse divided by the cores; the loop below then finds them all.
  // What the first lookup found is kept: looking up 10,000 rows twice is a warm run's cost.
  std::vector<std::optional<PersistentParseCache::Row>> found(vault_entries.size());
  std::vector<const SnapshotEntry*> misses;
  for (std::size_t i = 0; i < vault_entries.size(); ++i) {
    const SnapshotEntry& entry = vault_entries[i];
    if (is_memory_path(entry.path)) {
      found[i] = cache.find_row(entry.path, entry.oid);
      if (!found[i]) {
        misses.push_back(&entry);
      }
    }
  }
  // A batch at a time, so the bytes held stay bounded however large the vault.
  constexpr std::size_t k_batch = 1024;
  std::vector<std::optional<std::string>> bytes;
  std::vector<std::optional<std::string>> fragments;
  std::vector<ParseJob> jobs;
  for (std::size_t at = 0; at < misses.size(); at += k_batch) {
    const std::size_t end = std::min(misses.size(), at + k_batch);
    bytes.assign(end - at, std::nullopt);
    jobs.clear();
    for (std::size_t i = at; i < end; ++i) {
      bytes[i - at] = snapshot.read(misses[i]->path);
      jobs.push_back({misses[i]->path, &bytes[i - at], misses[i]->oid});
    }
    fragments.assign(end - at, std::nullopt);
    std::vector<std::optional<ParsedMemory>> parsed =
        parse_in_parallel(jobs, [&](std::size_t i, const ParsedMemory& memory) {
          if (memory.memory) {
            fragments[i] = index_entry_text(*memory.memory);
          }
        });
    for (std::size_t i = at; i < end; ++i) {
      if (parsed[i - at]) {
        cache.store(misses[i]->path, misses[i]->oid, std::move(*parsed[i - at]));
        if (fragments[i - at]) {
          cache.store_fragment(misses[i]->path, misses[i]->oid, std::move(*fragments[i - at]));
        }
      }
    }
  }

  VaultRows out;
  out.rows.reserve(vault_entries.size());
  out.entry_texts.reserve(vault_entries.size());
  for (std::size_t i = 0; i < vault_entries.size(); ++i) {
    const SnapshotEntry& entry = vault_entries[i];
    if (!is_memory_path(entry.path)) {
      if (std::optional<Finding> finding = non_memory_note_finding(entry.path)) {
        out.findings.push_back(std::move(*finding));
      }
      continue;
    }
    std::optional<PersistentParseCache::Row>& cached = found[i];
    if (!cached) {
      cached = cache.find_row(entry.path, entry.oid);  // parsed above
      if (!cached) {
        continue;  // removed between list and read
      }
    }
    for (const auto& [line, kind] : cached->secrets) {
      out.secrets.push_back(secret_finding(entry.path, line, kind));
    }
    if (cached->has_findings) {
      if (const ParsedMemory* parsed = cache.find(entry.path, entry.oid)) {
        out.findings.insert(out.findings.end(), parsed->findings.begin(), parsed->findings.end());
      }
    }
    if (!cached->row) {
      continue;
    }
    if (!cached->fragment) {
      // Rendered once per blob id; later runs find it beside the parse.
      const ParsedMemory* parsed = cache.find(entry.path, entry.oid);
      if (parsed != nullptr && parsed->memory) {
        if (std::optional<std::string> text = index_entry_text(*parsed->memory)) {
          cache.store_fragment(entry.path, entry.oid, std::move(*text));
          cached->fragment = cache.find_fragment(entry.path, entry.oid);
        }
      }
    }
    out.rows.push_back(std::move(*cached->row));
    out.entry_texts.push_back(cached->fragment.value_or(std::string_view()));
  }
  sort_by_id(out);
  return out;
}

}  // namespace gv
