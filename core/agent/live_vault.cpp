#include "core/agent/live_vault.hpp"

#include <sys/stat.h>
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <ctime>
#include <new>
#include <nlohmann/json.hpp>

#include "core/error.hpp"
#include "core/git/repo.hpp"
#include "core/git/transaction.hpp"
#include "core/memory/frontmatter.hpp"
#include "core/util/text.hpp"

namespace gv::agent {
namespace {

using nlohmann::ordered_json;

std::size_t edit_distance(std::string_view a, std::string_view b) {
  std::vector<std::size_t> row(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j) {
    row[j] = j;
  }
  for (std::size_t i = 1; i <= a.size(); ++i) {
    std::size_t diagonal = row[0];
    row[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const std::size_t above = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diagonal = above;
    }
  }
  return row[b.size()];
}

bool is_integer(const std::string& text) {
  std::size_t i = (text.starts_with('-') || text.starts_with('+')) ? 1 : 0;
  if (i >= text.size() || text.size() > 18) {
    return false;
  }
  return std::all_of(text.begin() + static_cast<long>(i), text.end(),
                     [](char c) { return c >= '0' && c <= '9'; });
}

ordered_json yaml_to_json(const YAML::Node& node) {
  switch (node.Type()) {
    case YAML::NodeType::Null:
    case YAML::NodeType::Undefined:
      return nullptr;
    case YAML::NodeType::Sequence: {
      ordered_json out = ordered_json::array();
      for (const YAML::Node& item : node) {
        out.push_back(yaml_to_json(item));
      }
      return out;
    }
    case YAML::NodeType::Map: {
      ordered_json out = ordered_json::object();
      for (const auto& item : node) {
        out[item.first.Scalar()] = yaml_to_json(item.second);
      }
      return out;
    }
    case YAML::NodeType::Scalar:
      break;
  }
  const std::string& text = node.Scalar();
  if (node.Tag() == "!") {
    return text;  // quoted: always a string
  }
  if (text == "true" || text == "false") {
    return text == "true";
  }
  if (text == "null" || text == "~") {
    return nullptr;
  }
  if (is_integer(text)) {
    return std::stoll(text);
  }
  return text;
}

std::int64_t nanoseconds(const struct timespec& time) {
  return static_cast<std::int64_t>(time.tv_sec) * 1'000'000'000 + time.tv_nsec;
}

std::int64_t now_ns() {
  struct timespec now {};
  ::clock_gettime(CLOCK_REALTIME, &now);
  return nanoseconds(now);
}

}  // namespace

StatCachedSnapshot::StatCachedSnapshot(std::filesystem::path root) : m_inner(std::move(root)) {}

std::vector<SnapshotEntry> StatCachedSnapshot::list(std::string_view prefix) const {
  namespace fs = std::filesystem;
  // Only directory prefixes are cached; anything else (a partial name, the whole tree) is
  // listed the plain way.
  if (prefix.empty() || !prefix.ends_with('/') || prefix.starts_with(".git/") ||
      prefix.find("..") != std::string_view::npos) {
    return m_inner.list(prefix);
  }
  const fs::path start = m_inner.root() / std::string(prefix);
  std::error_code ec;
  if (fs::symlink_status(start, ec).type() != fs::file_type::directory) {
    return {};
  }
  std::vector<SnapshotEntry> entries;
  constexpr std::int64_t k_racy_ns = 2'000'000'000;
  const std::int64_t listed = now_ns();
  fs::recursive_directory_iterator it(start, fs::directory_options::skip_permission_denied, ec);
  if (ec) {
    return {};
  }
  for (; it != fs::recursive_directory_iterator(); it.increment(ec)) {
    if (ec) {
      throw Error("{}: cannot list: {}", prefix, ec.message());
    }
    const fs::directory_entry& entry = *it;
    const std::string name = entry.path().filename().string();
    struct ::stat info {};
    if (::lstat(entry.path().c_str(), &info) != 0) {
      continue;
    }
    if (S_ISDIR(info.st_mode)) {
      if (name == ".git") {
        it.disable_recursion_pending();
      }
      continue;
    }
    if (!S_ISREG(info.st_mode) || name == ".git") {
      continue;
    }
    std::string rel = std::string(prefix) + entry.path().lexically_relative(start).generic_string();
    Stamp stamp;
    stamp.inode = static_cast<std::uint64_t>(info.st_ino);
    stamp.size = static_cast<std::int64_t>(info.st_size);
    stamp.mtime_ns = nanoseconds(info.st_mtim);
    stamp.ctime_ns = nanoseconds(info.st_ctim);
    const auto cached = m_stamps.find(rel);
    if (cached != m_stamps.end() && cached->second.inode == stamp.inode &&
        cached->second.size == stamp.size && cached->second.mtime_ns == stamp.mtime_ns &&
        cached->second.ctime_ns == stamp.ctime_ns &&
        cached->second.listed_ns - stamp.mtime_ns > k_racy_ns) {
      entries.push_back({std::move(rel), cached->second.oid});
      continue;
    }
    const std::optional<std::string> bytes = m_inner.read(rel);
    if (!bytes) {
      continue;  // vanished or replaced while listing
    }
    ++m_hashed;
    stamp.oid = blob_oid(*bytes);
    stamp.listed_ns = listed;
    entries.push_back({rel, stamp.oid});
    m_stamps[std::move(rel)] = std::move(stamp);
  }
  std::sort(entries.begin(), entries.end(),
            [](const SnapshotEntry& a, const SnapshotEntry& b) { return a.path < b.path; });
  return entries;
}

LiveVault::LiveVault(const git::Repo& repo, ParseCache* cache)
    : LiveVault(repo, [cache] { return cache; }) {}

LiveVault::LiveVault(const git::Repo& repo, std::function<ParseCache*()> cache)
    : m_repo(&repo),
      m_journal(journal_path(repo.common_dir())),
      m_search_cache(search::search_cache_path(repo.common_dir())),
      m_snapshot(repo.workdir()),
      m_cache(std::move(cache)) {}

void LiveVault::watch_for_changes() {
  const std::filesystem::path& root = m_snapshot.root();
  m_watch = std::make_unique<util::DirWatch>(std::vector<util::DirWatch::Root>{
      {root / ".memory", true},
      {root / "memory", true},
      {root, false},  // CLAUDE.local.md, and `.memory` or `memory` replaced as a whole
  });
}

void LiveVault::note_changes() {
  // Asked before reading, so a change made while a refresh reads is seen by the next one. One
  // answer serves both refreshes: each keeps its own flag until it has read again.
  if (m_watch && m_watch->changed()) {
    m_vault_stale = true;
    m_search_stale = true;
  }
}

void LiveVault::refresh() {
  note_changes();
  if (m_watch && m_loaded && !m_vault_stale) {
    return;
  }
  m_vault_stale = false;
  m_search_stale = false;  // the index is brought up to date below
  // The memory files' blob ids (from stat data when unchanged) decide whether the vault must be
  // read again: between two calls of a long-lived process, usually nothing changed.
  std::vector<SnapshotEntry> listing = m_snapshot.list(vault_path::k_memories);
  const bool same = m_loaded && listing.size() == m_listing.size() &&
                    std::equal(listing.begin(), listing.end(), m_listing.begin(),
                               [](const SnapshotEntry& a, const SnapshotEntry& b) {
                                 return a.path == b.path && a.oid == b.oid;
                               });
  if (!same) {
    if (!m_loaded) {
      m_index.load_saved(m_search_cache);  // the first call starts from the saved index
    }
    ParseCache* cache = m_cache ? m_cache() : nullptr;
    m_vault = load_vault(m_snapshot, cache != nullptr ? cache : &m_own_cache);
    m_listing = std::move(listing);
    m_loaded = true;
  }
  m_index.refresh(m_vault.memories, m_snapshot);
}

void LiveVault::refresh_search(const std::function<ParseCache*()>& parse_cache) {
  note_changes();
  if (m_watch && m_searched && !m_search_stale) {
    return;  // a long-lived process: nothing changed since the last search read the files
  }
  m_search_stale = false;
  m_index.refresh_cached(m_snapshot.root(), m_search_cache, m_snapshot, parse_cache);
  m_searched = true;
}

const Memory* LiveVault::find(std::string_view id) const { return find_memory(m_vault, id); }

std::vector<std::string> LiveVault::closest_ids(std::string_view id, std::size_t count) const {
  std::string wanted(id);
  if (wanted.ends_with(".md")) {
    wanted.resize(wanted.size() - 3);
  }
  // Nothing is close to an id far longer than any id, and comparing one with every memory
  // would cost its length times the vault's size (a 200 KB id took 15 s).
  if (wanted.size() > k_closest_id_max_bytes) {
    return {};
  }
  const std::string lowered = util::to_lower_ascii(wanted);
  struct Candidate {
    std::size_t distance;
    std::string id;
  };
  std::vector<Candidate> candidates;
  const std::size_t limit = std::max<std::size_t>(3, wanted.size() / 3);
  for (const Memory& memory : m_vault.memories) {
    const std::string other = util::to_lower_ascii(memory.id);
    // The edit distance is at least the difference in length: past the limit it need not be
    // computed.
    const std::size_t apart = lowered.size() > other.size() ? lowered.size() - other.size()
                                                            : other.size() - lowered.size();
    std::size_t distance = apart <= limit ? edit_distance(lowered, other) : limit + 1;
    if (other.find(lowered) != std::string::npos || lowered.find(other) != std::string::npos ||
        other == "mem-" + lowered) {
      distance = std::min<std::size_t>(distance, 1);
    }
    if (distance <= limit) {
      candidates.push_back({distance, memory.id});
    }
  }
  std::sort(candidates.begin(), candidates.end(), [](const Candidate& a, const Candidate& b) {
    return a.distance != b.distance ? a.distance < b.distance : a.id < b.id;
  });
  std::vector<std::string> out;
  for (std::size_t i = 0; i < candidates.size() && i < count; ++i) {
    out.push_back(candidates[i].id);
  }
  return out;
}

scoring::PendingRetrievalMap LiveVault::pending() const {
  try {
    return read_journal(m_journal, git::landed_consumptions(*m_repo)).by_id;
  } catch (const Error&) {
    return {};
  }
}

std::unordered_map<std::string, std::int64_t> LiveVault::pending_counts() const {
  std::unordered_map<std::string, std::int64_t> counts;
  for (const auto& [id, retrievals] : pending()) {
    counts.emplace(id, retrievals.count);
  }
  return counts;
}

void LiveVault::record(const std::vector<std::string>& ids, Date today,
                       std::string_view via) const {
  std::vector<RetrievalRecord> records;
  for (const std::string& id : ids) {
    records.push_back({id, today, std::string(via)});
  }
  append_records(m_journal, records);
}

ordered_json frontmatter_json(std::string_view bytes) {
  const FrontmatterSplit split = split_frontmatter(bytes);
  if (split.status != FrontmatterStatus::ok) {
    return ordered_json::object();
  }
  const auto loaded = load_frontmatter(bytes, split);
  if (const auto* node = std::get_if<YAML::Node>(&loaded)) {
    try {
      ordered_json out = yaml_to_json(*node);
      return out.is_object() ? out : ordered_json::object();
    } catch (const std::bad_alloc&) {
      throw;  // the process's condition, not the file's: the command ends on it
    } catch (const std::exception&) {
      return ordered_json::object();
    }
  }
  return ordered_json::object();
}

ordered_json memory_json(const Memory& memory, std::string_view bytes) {
  const FrontmatterSplit split = split_frontmatter(bytes);
  return ordered_json{{"id", memory.id},
                      {"path", memory.path},
                      {"frontmatter", frontmatter_json(bytes)},
                      {"body", std::string(split.body(bytes))},
                      {"token_count", memory.token_count}};
}

ordered_json hit_json(const search::Hit& hit) {
  ordered_json out{{"kind", std::string(search::kind_name(hit.kind))},
                   {"id", hit.id.empty() ? ordered_json(nullptr) : ordered_json(hit.id)},
                   {"path", hit.path},
                   {"line", hit.line},
                   {"score", hit.score},
                   {"title", hit.title},
                   {"snippet", hit.snippet},
                   {"terms", hit.terms}};
  if (!hit.tier.empty()) {
    out["tier"] = hit.tier;
  }
  return out;
}

}  // namespace gv::agent
