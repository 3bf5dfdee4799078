#include "core/vault/vault.hpp"

#include <fmt/format.h>

#include <algorithm>

namespace gv {

bool is_memory_path(std::string_view path) {
  if (path.substr(0, vault_path::k_memories.size()) != vault_path::k_memories) {
    return false;
  }
  const std::string_view name = path.substr(vault_path::k_memories.size());
  return name.find('/') == std::string_view::npos && name.size() > 7 &&
         name.substr(0, 4) == "MEM-" && name.substr(name.size() - 3) == ".md";
}

std::string memory_path(std::string_view id) {
  return fmt::format("{}{}.md", vault_path::k_memories, id);
}

const ParsedMemory* InMemoryParseCache::find(std::string_view path,
                                             std::string_view blob_oid) const {
  const auto it = m_entries.find(std::pair<std::string, std::string>(path, blob_oid));
  return it == m_entries.end() ? nullptr : &it->second;
}

void InMemoryParseCache::store(std::string_view path, std::string_view blob_oid,
                               ParsedMemory parsed) {
  m_entries.insert_or_assign(std::pair<std::string, std::string>(path, blob_oid),
                             std::move(parsed));
}

Vault load_vault(const Snapshot& snapshot, ParseCache* cache) {
  Vault vault;
  for (const SnapshotEntry& entry : snapshot.list(vault_path::k_memories)) {
    if (!is_memory_path(entry.path)) {
      const std::string_view name =
          std::string_view(entry.path).substr(vault_path::k_memories.size());
      if (name.find('/') == std::string_view::npos && name != "README.md" && name.size() > 3 &&
          name.substr(name.size() - 3) == ".md") {
        Finding finding;
        finding.check = "schema";
        finding.severity = Severity::warning;
        finding.path = entry.path;
        finding.message = "not read as a memory: memory files are named MEM-*.md";
        vault.findings.push_back(std::move(finding));
      }
      continue;
    }
    ParsedMemory parsed;
    if (const ParsedMemory* hit = cache != nullptr ? cache->find(entry.path, entry.oid) : nullptr) {
      parsed = *hit;
    } else {
      const auto bytes = snapshot.read(entry.path);
      if (!bytes) {
        continue;  // removed between list and read
      }
      parsed = parse_memory(entry.path, *bytes, entry.oid);
      if (cache != nullptr) {
        cache->store(entry.path, entry.oid, parsed);
      }
    }
    if (parsed.memory) {
      vault.memories.push_back(std::move(*parsed.memory));
    }
    std::move(parsed.findings.begin(), parsed.findings.end(), std::back_inserter(vault.findings));
  }
  std::sort(vault.memories.begin(), vault.memories.end(),
            [](const Memory& a, const Memory& b) { return a.id < b.id; });
  return vault;
}

}  // namespace gv
