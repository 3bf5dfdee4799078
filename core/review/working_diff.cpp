#include "core/review/working_diff.hpp"

#include <map>
#include <optional>
#include <set>

#include "core/recall/entry.hpp"
#include "core/recall/files.hpp"
#include "core/snapshot/snapshot.hpp"

namespace gv::review {
namespace {

struct FileAt {
  recall::ManagedFile file;
  std::string bytes;
};

std::map<std::string, FileAt> managed_files(const Snapshot& snapshot) {
  std::map<std::string, FileAt> out;
  for (recall::ManagedFile& file : recall::list_managed_files(snapshot)) {
    std::optional<std::string> bytes = snapshot.read(file.path);
    if (bytes) {
      std::string path = file.path;
      out.emplace(std::move(path), FileAt{std::move(file), std::move(*bytes)});
    }
  }
  return out;
}

// id -> entry, over the files `changed` names. A repeated id keeps its first occurrence (in
// scan order); the gate reports the duplicate.
std::map<std::string, EntryAt> tagged_entries(const std::map<std::string, FileAt>& files,
                                              const std::set<std::string>& changed) {
  std::map<std::string, EntryAt> out;
  for (const auto& [path, at] : files) {
    if (!changed.contains(path)) {
      continue;
    }
    const recall::ParsedFile parsed = recall::parse_file(at.file, at.bytes);
    for (const recall::Entry& entry : parsed.entries) {
      if (entry.state == recall::EntryState::tagged) {
        out.emplace(entry.id, EntryAt{entry.id, path, std::string(recall::tier_name(at.file.tier)),
                                      entry.line, entry.text});
      }
    }
  }
  return out;
}

}  // namespace

WorkingDiff diff_working_memory(const Snapshot& base, const Snapshot& head) {
  const std::map<std::string, FileAt> before_files = managed_files(base);
  const std::map<std::string, FileAt> after_files = managed_files(head);
  std::set<std::string> changed;
  for (const auto& [path, at] : before_files) {
    const auto other = after_files.find(path);
    if (other == after_files.end() || other->second.bytes != at.bytes) {
      changed.insert(path);
    }
  }
  for (const auto& [path, at] : after_files) {
    if (!before_files.contains(path)) {
      changed.insert(path);
    }
  }
  WorkingDiff diff;
  if (changed.empty()) {
    return diff;
  }
  const std::map<std::string, EntryAt> before = tagged_entries(before_files, changed);
  const std::map<std::string, EntryAt> after = tagged_entries(after_files, changed);
  for (const auto& [id, now] : after) {
    const auto old = before.find(id);
    if (old == before.end()) {
      diff.added.push_back(now);
    } else if (old->second.path != now.path) {
      diff.moved.push_back({old->second, now, old->second.text != now.text});
    } else if (old->second.text != now.text) {
      diff.edited.push_back({id, now.path, now.line, old->second.text, now.text});
    }
  }
  for (const auto& [id, old] : before) {
    if (!after.contains(id)) {
      diff.removed.push_back(old);
    }
  }
  return diff;
}

}  // namespace gv::review
