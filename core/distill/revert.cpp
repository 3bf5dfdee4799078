#include "core/distill/revert.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "core/distill/log.hpp"
#include "core/distill/memory_health.hpp"
#include "core/util/text.hpp"
#include "core/vault/vault.hpp"

namespace gv::distill {

std::vector<PathChange> diff_trees(const std::map<std::string, std::string>& parent,
                                   const std::map<std::string, std::string>& commit) {
  std::vector<PathChange> changes;
  auto p = parent.begin();
  auto c = commit.begin();
  // Both maps are sorted by path: one merge pass.
  while (p != parent.end() || c != commit.end()) {
    if (c == commit.end() || (p != parent.end() && p->first < c->first)) {
      changes.push_back({p->first, p->second, std::nullopt});
      ++p;
    } else if (p == parent.end() || c->first < p->first) {
      changes.push_back({c->first, std::nullopt, c->second});
      ++c;
    } else {
      if (p->second != c->second) {
        changes.push_back({p->first, p->second, c->second});
      }
      ++p;
      ++c;
    }
  }
  return changes;
}

bool revertible_action(std::string_view action, const SubModeRegistry& sub_modes) {
  return sub_modes.revertible(action);
}

bool rebuilt_on_revert(std::string_view path) {
  return path == vault_path::k_index_json || path == vault_path::k_index_md ||
         path == vault_path::k_memories_readme || path == k_log_path || path == k_state_path;
}

std::vector<PathChange> paths_to_restore(const std::vector<PathChange>& changes) {
  std::vector<PathChange> restore;
  for (const PathChange& change : changes) {
    if (!rebuilt_on_revert(change.path)) {
      restore.push_back(change);
    }
  }
  return restore;
}

std::vector<std::string> changed_since(const std::vector<PathChange>& restore,
                                       const std::map<std::string, std::string>& head) {
  std::vector<std::string> changed;
  for (const PathChange& change : restore) {
    const auto it = head.find(change.path);
    const std::optional<std::string> now =
        it == head.end() ? std::nullopt : std::optional<std::string>(it->second);
    if (now != change.after) {
      changed.push_back(change.path);
    }
  }
  return changed;
}

bool already_restored(const std::vector<PathChange>& restore,
                      const std::map<std::string, std::string>& head) {
  return std::all_of(restore.begin(), restore.end(), [&](const PathChange& change) {
    const auto it = head.find(change.path);
    const std::optional<std::string> now =
        it == head.end() ? std::nullopt : std::optional<std::string>(it->second);
    return now == change.before;
  });
}

std::string revert_subject(std::string_view original_subject) {
  return fmt::format("vault(revert): {}", original_subject);
}

ActionDraft revert_draft(const RevertRequest& request) {
  ActionDraft draft;
  draft.type = "revert";
  draft.verbatim = true;
  std::size_t memory_files = 0;
  std::size_t memory_files_removed = 0;  // created by the run undone (a learn, a revert's revert)
  for (const auto& [path, bytes] : request.restored) {
    if (bytes) {
      draft.plan.write(path, *bytes);
    } else {
      draft.plan.remove(path);
    }
    if (is_memory_path(path)) {
      memory_files += 1;
      memory_files_removed += bytes ? 0 : 1;
      const std::string_view name = std::string_view(path).substr(path.rfind('/') + 1);
      const std::string id{name.substr(0, name.size() - 3)};  // without `.md`
      draft.affected_memories.push_back(id);
      draft.plan.memories.push_back(id);
    }
  }
  draft.changed_memories = memory_files > 0;
  draft.plan.subject = revert_subject(request.subject);
  draft.plan.body = fmt::format("This reverts commit {}.", request.commit);
  const std::string what =
      request.log_id ? fmt::format("{} ({})", *request.log_id, request.commit.substr(0, 12))
                     : request.commit.substr(0, 12);
  const std::size_t memory_files_back = memory_files - memory_files_removed;
  draft.notes = fmt::format("Reverted {}: ", what);
  if (memory_files_back > 0 || memory_files_removed == 0) {
    draft.notes +=
        fmt::format("restored {}", util::plural(memory_files_back, "memory file", "memory files"));
  }
  if (memory_files_removed > 0) {
    draft.notes += fmt::format("{}removed {} it had created", memory_files_back > 0 ? ", " : "",
                               util::plural(memory_files_removed, "memory file", "memory files"));
  }
  if (request.restored.size() > memory_files) {
    draft.notes += fmt::format(" and {}", util::plural(request.restored.size() - memory_files,
                                                       "other file", "other files"));
  }
  draft.restore_cursors = request.cursors.restore;
  for (const CursorRestore& cursor : request.cursors.restore) {
    draft.notes += fmt::format("; the {} cursor put back to {}", cursor.name,
                               cursor.last.value_or("before any run"));
  }
  for (const std::string& name : request.cursors.moved_on) {
    draft.notes += fmt::format("; the {} cursor left as it is (a later run moved it)", name);
  }
  draft.forget_text_of = request.log_id;
  draft.extra["reverts"] =
      request.log_id ? nlohmann::ordered_json(*request.log_id) : nlohmann::ordered_json(nullptr);
  draft.extra["reverted_commit"] = request.commit;
  return draft;
}

}  // namespace gv::distill
