#include "core/vault/vault.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <iterator>

#include "core/memory/parse_parallel.hpp"
#include "core/util/progress.hpp"
#include "core/util/shell_word.hpp"
#include "core/util/text.hpp"

namespace gv {
MemoriesById::MemoriesById(const Vault& vault) {
  m_by_id.reserve(vault.memories.size());
  for (const Memory& memory : vault.memories) {
    m_by_id.try_emplace(memory.id, &memory);
  }
}

const Memory* MemoriesById::find(std::string_view id) const {
  const auto it = m_by_id.find(id);
  return it != m_by_id.end() ? it->second : nullptr;
}

namespace {

// A memory's id is its file name, and ids go into index.md lines, JSON and commit trailers:
// a control character (a newline would add lines to index.md), a backslash (a path separator
// elsewhere) or bytes that are not UTF-8 (JSON cannot carry them) keep a file out of the vault.
bool safe_name(std::string_view name) {
  // One pass for the common all-ASCII name; UTF-8 is validated only when a byte needs it. The
  // gate asks this of every path of the vault on every commit.
  bool ascii = true;
  for (const char c : name) {
    const auto byte = static_cast<unsigned char>(c);
    if (byte < 0x20 || byte == 0x7f || byte == '\\') {
      return false;
    }
    ascii = ascii && byte < 0x80;
  }
  return ascii || util::valid_utf8(name);
}

// `name` with control characters, backslashes and bytes outside UTF-8 written as escapes, so a
// message naming it stays on one line and valid UTF-8.
std::string printable(std::string_view name) {
  std::string out;
  for (const char c : name) {
    const auto byte = static_cast<unsigned char>(c);
    if (byte < 0x20 || byte == 0x7f || byte == '\\' || byte >= 0x80) {
      out += fmt::format("\\x{:02x}", byte);
    } else {
      out += c;
    }
  }
  return out;
}

}  // namespace

bool is_memory_path(std::string_view path) {
  if (path.substr(0, vault_path::k_memories.size()) != vault_path::k_memories) {
    return false;
  }
  const std::string_view name = path.substr(vault_path::k_memories.size());
  return name.find('/') == std::string_view::npos && name.size() > 7 &&
         name.substr(0, 4) == "MEM-" && name.substr(name.size() - 3) == ".md" && safe_name(name);
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

std::optional<Finding> non_memory_note_finding(std::string_view path) {
  if (path.substr(0, vault_path::k_memories.size()) != vault_path::k_memories ||
      is_memory_path(path)) {
    return std::nullopt;
  }
  const std::string_view name = path.substr(vault_path::k_memories.size());
  if (name.size() <= 3 || name.substr(name.size() - 3) != ".md") {
    return std::nullopt;
  }
  Finding finding;
  finding.check = "schema";
  finding.severity = Severity::warning;
  if (const std::size_t slash = name.rfind('/'); slash != std::string_view::npos) {
    // Only the folder's top level is read. A note in a folder of its own is the user's business;
    // one named like a memory was meant to be one.
    if (name.substr(slash + 1, 4) != "MEM-" || !safe_name(name)) {
      return std::nullopt;
    }
    finding.path = std::string(path);
    finding.message =
        fmt::format("not read as a memory: memories sit directly in {}, not in a folder under it",
                    vault_path::k_memories);
    finding.fix =
        fmt::format("move it up: git mv {} {}", util::shell_word(path), vault_path::k_memories);
    return finding;
  }
  if (name == "README.md") {
    return std::nullopt;
  }
  if (!safe_name(name)) {
    finding.path = std::string(vault_path::k_memories) + printable(name);
    finding.message =
        "not read as a memory: its name holds a control character, a backslash or bytes that "
        "are not UTF-8; rename it";
    return finding;
  }
  finding.path = std::string(path);
  finding.message = "not read as a memory: memory files are named MEM-*.md";
  finding.fix = fmt::format("rename it to make it a memory (git mv {} {}), or move it out of {}",
                            util::shell_word(path),
                            util::shell_word(fmt::format("{}MEM-{}", vault_path::k_memories, name)),
                            vault_path::k_memories);
  return finding;
}

const Memory* find_memory(const Vault& vault, std::string_view id) {
  // A plain scan: callers may have changed `memories` since load_vault sorted them.
  const auto it = std::find_if(vault.memories.begin(), vault.memories.end(),
                               [&](const Memory& memory) { return memory.id == id; });
  return it != vault.memories.end() ? &*it : nullptr;
}

namespace {

// Memories are taken a batch of this many at a time: the files the cache does not know are read
// and parsed on every core (parse_in_parallel), and the cache's are decoded, a batch held at once.
constexpr std::size_t k_parse_batch = 1024;

}  // namespace

Vault load_vault(const Snapshot& snapshot, ParseCache* cache) {
  Vault vault;
  const std::vector<SnapshotEntry> entries = snapshot.list(vault_path::k_memories);
  vault.memories.reserve(entries.size());

  // Memory files in path order, with the files the cache does not know parsed a batch at a
  // time; results are added in path order, so the outcome does not depend on the threads.
  std::vector<const SnapshotEntry*> batch;
  std::vector<std::optional<std::string>> batch_bytes;
  std::vector<std::optional<ParsedMemory>> batch_parsed;
  std::vector<ParseJob> jobs;
  std::vector<ParsedMemory> hits;  // decoded from the cache, moved into the vault from here
  util::Progress progress("Reading memories", entries.size());
  std::size_t at = 0;
  while (at < entries.size()) {
    progress.update(at);
    batch.clear();
    hits.clear();
    std::size_t end = at;
    for (; end < entries.size() && batch.size() + hits.size() < k_parse_batch; ++end) {
      const SnapshotEntry& entry = entries[end];
      if (!is_memory_path(entry.path)) {
        continue;
      }
      std::optional<ParsedMemory> hit =
          cache != nullptr ? cache->find_value(entry.path, entry.oid) : std::nullopt;
      if (hit) {
        hits.push_back(std::move(*hit));
      } else {
        batch.push_back(&entry);
      }
    }
    batch_bytes.assign(batch.size(), std::nullopt);
    for (std::size_t i = 0; i < batch.size(); ++i) {
      batch_bytes[i] = snapshot.read(batch[i]->path);  // nullopt: removed between list and read
    }
    jobs.clear();
    for (std::size_t i = 0; i < batch.size(); ++i) {
      jobs.push_back({batch[i]->path, &batch_bytes[i], batch[i]->oid});
    }
    batch_parsed = parse_in_parallel(jobs);

    std::size_t parsed_at = 0;
    std::size_t hit_at = 0;
    const auto take = [&vault](ParsedMemory& parsed) {
      if (parsed.memory) {
        vault.memories.push_back(std::move(*parsed.memory));
      }
      vault.findings.insert(vault.findings.end(), std::make_move_iterator(parsed.findings.begin()),
                            std::make_move_iterator(parsed.findings.end()));
    };
    for (; at < end; ++at) {
      const SnapshotEntry& entry = entries[at];
      if (!is_memory_path(entry.path)) {
        if (std::optional<Finding> finding = non_memory_note_finding(entry.path)) {
          vault.findings.push_back(std::move(*finding));
        }
        continue;
      }
      ++vault.memory_files;
      if (parsed_at < batch.size() && batch[parsed_at] == &entry) {
        std::optional<ParsedMemory>& parsed = batch_parsed[parsed_at++];
        if (!parsed) {
          continue;  // removed between list and read
        }
        if (cache != nullptr) {
          cache->store(entry.path, entry.oid, *parsed);
        }
        take(*parsed);
        continue;
      }
      take(hits[hit_at++]);
    }
  }
  // Path order is id order unless an id is a prefix of another followed by a character below
  // '.' (`MEM-a-b.md` < `MEM-a.md`): checking first spares moving 10,000 memories.
  const auto by_id = [](const Memory& a, const Memory& b) { return a.id < b.id; };
  if (!std::is_sorted(vault.memories.begin(), vault.memories.end(), by_id)) {
    std::sort(vault.memories.begin(), vault.memories.end(), by_id);
  }
  return vault;
}

bool vault_present(const std::filesystem::path& root) {
  namespace fs = std::filesystem;
  std::error_code ec;
  const fs::path folder = root / std::string(vault_path::k_root);
  if (!fs::is_directory(fs::symlink_status(folder, ec))) {
    return false;
  }
  for (fs::recursive_directory_iterator it(folder, ec), end; !ec && it != end; it.increment(ec)) {
    if (it->is_regular_file(ec) && !it->is_symlink(ec)) {
      return true;
    }
  }
  return false;
}

}  // namespace gv
