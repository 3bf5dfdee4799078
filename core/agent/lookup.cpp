#include "core/agent/lookup.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <system_error>

#include "core/error.hpp"
#include "core/memory/body.hpp"
#include "core/memory/parse.hpp"
#include "core/recall/entry.hpp"
#include "core/recall/scan.hpp"
#include "core/snapshot/snapshot.hpp"
#include "core/util/suggest.hpp"
#include "core/util/text.hpp"
#include "core/vault/vault.hpp"

namespace gv::agent {
namespace {

namespace fs = std::filesystem;

// `^tr0123456789`, `tr0123456789` and the older `^tr-0123456789` all name entry tr0123456789.
std::optional<std::string> entry_id_of(std::string_view name) {
  if (name.starts_with('^')) {
    name.remove_prefix(1);
  }
  if (name.starts_with("tr-")) {
    const std::string respelled = "tr" + std::string(name.substr(3));
    return recall::is_valid_id(respelled) ? std::optional(respelled) : std::nullopt;
  }
  return recall::is_valid_id(name) ? std::optional(std::string(name)) : std::nullopt;
}

// `MEM-x`, `MEM-x.md`, `10-Memories/MEM-x.md` and `.memory/10-Memories/MEM-x.md` all name MEM-x.
std::string memory_id_of(std::string_view name) {
  if (name.find('/') != std::string_view::npos || name.ends_with(".md")) {
    return memory_id_from_path(name);
  }
  return std::string(name);
}

// The `##` heading an entry sits under (its nearest level-2 heading above), or empty.
std::string heading_above(const std::vector<Heading>& headings, int line) {
  std::string_view found;
  for (const Heading& heading : headings) {
    if (heading.line >= line) {
      break;
    }
    if (heading.level <= 2) {
      found = heading.level == 2 ? heading.text : std::string_view{};
    }
  }
  return std::string(found);
}

std::vector<FoundEntry> find_entries(const std::vector<std::string>& wanted,
                                     const Snapshot& snapshot) {
  std::vector<FoundEntry> found;
  recall::Metadata metadata;
  if (const auto bytes = snapshot.read(recall::k_metadata_path)) {
    try {
      metadata = recall::parse_metadata(*bytes, recall::k_metadata_path).records;
    } catch (const Error&) {
      // Unreadable metadata only loses the metadata shown; `git vault check` reports it.
    }
  }
  for (const recall::ParsedFile& parsed : recall::scan_managed_files(snapshot)) {
    std::vector<Heading> headings;
    for (const recall::Entry& entry : parsed.entries) {
      if (entry.id.empty() || std::find(wanted.begin(), wanted.end(), entry.id) == wanted.end()) {
        continue;
      }
      if (headings.empty()) {
        headings = find_headings(parsed.bytes);
      }
      FoundEntry out;
      out.id = entry.id;
      out.path = parsed.file.path;
      out.line = entry.line;
      out.tier = std::string(recall::tier_name(parsed.file.tier));
      out.file = parsed.file.display_path;
      out.heading = heading_above(headings, entry.line);
      out.text = std::string(entry.all_lines());
      if (const auto record = metadata.find(entry.id); record != metadata.end()) {
        out.metadata = record->second;
      }
      found.push_back(std::move(out));
    }
  }
  return found;
}

}  // namespace

std::vector<std::string> list_memory_ids(const fs::path& root) {
  std::vector<std::string> ids;
  std::error_code error;
  fs::directory_iterator it(root / vault_path::k_memories, error);
  if (error) {
    return ids;
  }
  for (const fs::directory_entry& entry : it) {
    const std::string name = entry.path().filename().string();
    if (name.starts_with("MEM-") && name.ends_with(".md") && name.size() > 7) {
      ids.push_back(name.substr(0, name.size() - 3));
    }
  }
  std::sort(ids.begin(), ids.end());
  return ids;
}

std::vector<std::string> closest_ids(std::string_view name, const std::vector<std::string>& ids,
                                     std::size_t count) {
  std::string wanted(name.substr(0, std::min(name.size(), k_max_name_length)));
  if (wanted.ends_with(".md")) {
    wanted.resize(wanted.size() - 3);
  }
  const std::string lowered = util::to_lower_ascii(wanted);
  struct Candidate {
    std::size_t distance;
    std::string_view id;
  };
  std::vector<Candidate> candidates;
  const std::size_t limit = std::max<std::size_t>(3, wanted.size() / 3);
  for (const std::string& id : ids) {
    const std::string other = util::to_lower_ascii(id);
    std::size_t distance = 0;
    if (other.find(lowered) != std::string::npos || lowered.find(other) != std::string::npos ||
        other == "mem-" + lowered) {
      distance = 1;
    } else {
      // Lengths apart by more than the limit cannot be within it: skip the alignment.
      const std::size_t apart = other.size() > lowered.size() ? other.size() - lowered.size()
                                                              : lowered.size() - other.size();
      if (apart > limit) {
        continue;
      }
      distance = util::edit_distance(lowered, other);
    }
    if (distance <= limit) {
      candidates.push_back({distance, id});
    }
  }
  std::sort(candidates.begin(), candidates.end(), [](const Candidate& a, const Candidate& b) {
    return a.distance != b.distance ? a.distance < b.distance : a.id < b.id;
  });
  std::vector<std::string> out;
  for (std::size_t i = 0; i < candidates.size() && i < count; ++i) {
    out.emplace_back(candidates[i].id);
  }
  return out;
}

std::vector<Found> resolve_names(const std::vector<std::string>& names,
                                 const std::vector<std::string>& ids, const Snapshot& snapshot) {
  std::vector<Found> found;
  std::vector<std::string> problems;   // names that match nothing
  std::vector<std::string> ambiguous;  // prefixes of several ids
  std::vector<std::string> entry_ids;
  const auto already = [&](Found::Kind kind, std::string_view key) {
    return std::any_of(found.begin(), found.end(), [&](const Found& item) {
      return item.kind == kind &&
             (kind == Found::Kind::memory ? item.memory_id == key : item.entry->id == key);
    });
  };
  for (const std::string& name : names) {
    if (name.size() > k_max_name_length) {
      problems.push_back(fmt::format("a name of {} bytes (memory ids and paths are at most {})",
                                     name.size(), k_max_name_length));
      continue;
    }
    if (const std::optional<std::string> entry_id = entry_id_of(name)) {
      if (std::find(entry_ids.begin(), entry_ids.end(), *entry_id) == entry_ids.end()) {
        entry_ids.push_back(*entry_id);
      }
      Found item;
      item.kind = Found::Kind::entry;
      item.name = name;
      item.entry = FoundEntry{};
      item.entry->id = *entry_id;
      found.push_back(std::move(item));
      continue;
    }
    const std::string id = memory_id_of(name);
    std::string resolved;
    if (std::binary_search(ids.begin(), ids.end(), id)) {
      resolved = id;
    } else {
      // A unique prefix, as git takes an abbreviated commit id.
      const auto first = std::lower_bound(ids.begin(), ids.end(), id);
      auto last = first;
      while (last != ids.end() && std::string_view(*last).starts_with(id)) {
        ++last;
      }
      const auto matches = static_cast<std::size_t>(last - first);
      if (matches == 1 && !id.empty()) {
        resolved = *first;
      } else if (matches > 1 && !id.empty()) {
        std::vector<std::string> some(
            first, first + static_cast<std::ptrdiff_t>(std::min<std::size_t>(matches, 5)));
        ambiguous.push_back(fmt::format("`{}` is the start of {} ids ({}{}); give more of it", name,
                                        matches, fmt::join(some, ", "), matches > 5 ? ", …" : ""));
        continue;
      } else {
        const std::vector<std::string> closest = closest_ids(id, ids);
        problems.push_back(closest.empty() ? fmt::format("`{}`", name)
                                           : fmt::format("`{}` (did you mean {}?)", name,
                                                         fmt::join(closest, ", ")));
        continue;
      }
    }
    if (already(Found::Kind::memory, resolved)) {
      continue;
    }
    Found item;
    item.kind = Found::Kind::memory;
    item.name = name;
    item.memory_id = resolved;
    found.push_back(std::move(item));
  }
  if (!entry_ids.empty()) {
    std::vector<FoundEntry> entries = find_entries(entry_ids, snapshot);
    std::vector<Found> kept;
    for (Found& item : found) {
      if (item.kind == Found::Kind::memory) {
        kept.push_back(std::move(item));
        continue;
      }
      const auto entry = std::find_if(entries.begin(), entries.end(),
                                      [&](const FoundEntry& e) { return e.id == item.entry->id; });
      if (entry == entries.end()) {
        problems.push_back(fmt::format("`{}` (no working-memory entry has this id)", item.name));
        continue;
      }
      const bool seen = std::any_of(kept.begin(), kept.end(), [&](const Found& other) {
        return other.kind == Found::Kind::entry && other.entry->id == entry->id;
      });
      if (!seen) {
        item.entry = *entry;
        kept.push_back(std::move(item));
      }
    }
    found = std::move(kept);
  }
  if (!problems.empty() || !ambiguous.empty()) {
    std::string message;
    if (!problems.empty()) {
      message = fmt::format("no memory or entry {}", fmt::join(problems, "; "));
    }
    if (!ambiguous.empty()) {
      message += fmt::format("{}{}", message.empty() ? "" : "; ", fmt::join(ambiguous, "; "));
    }
    throw Error("{}", message);
  }
  return found;
}

}  // namespace gv::agent
