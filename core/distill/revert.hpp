#pragma once

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/distill/finish.hpp"
#include "core/distill/memory_health.hpp"
#include "core/distill/sub_mode_registry.hpp"

// Planning `git vault revert` (D7): which paths of an action commit go back to their parent's
// bytes, which ones are rebuilt instead, and the draft of the new commit. Pure: the command
// reads the commits and blobs and hands them in.
namespace gv::distill {

// One path an action commit changed: its blob id in the parent and in the commit (nullopt when
// the path is absent there).
struct PathChange {
  std::string path;
  std::optional<std::string> before;
  std::optional<std::string> after;

  friend bool operator==(const PathChange&, const PathChange&) = default;
};

// The changes between two trees given as path -> blob id maps, in path order.
[[nodiscard]] std::vector<PathChange> diff_trees(const std::map<std::string, std::string>& parent,
                                                 const std::map<std::string, std::string>& commit);

// True for the Vault-Action values a revert can undo: the distill actions, whose bookkeeping
// (distill log, memory_health, index files) a revert knows how to rebuild; for a sub-mode its
// row in `sub_modes` decides. Recall maintenance and hook reindexing keep other files and are
// undone with a plain `git revert`.
[[nodiscard]] bool revertible_action(std::string_view action,
                                     const SubModeRegistry& sub_modes = builtin_sub_modes());

// True for files a revert rebuilds rather than restores: the generated index files (regenerated
// from the restored memories), the distill log (append-only: the original entry stays and a
// `revert` entry is added) and specs/state.json (memory_health is refreshed).
[[nodiscard]] bool rebuilt_on_revert(std::string_view path);

// The changes a revert restores to their parent's bytes (all but the rebuilt ones), in path
// order.
[[nodiscard]] std::vector<PathChange> paths_to_restore(const std::vector<PathChange>& changes);

// Paths among `restore` whose blob at HEAD (`head`: path -> blob id; a path missing from the
// map is absent at HEAD) is no longer the one the action left: a later commit changed them, and
// restoring would throw that change away.
[[nodiscard]] std::vector<std::string> changed_since(
    const std::vector<PathChange>& restore, const std::map<std::string, std::string>& head);

// True when every path of `restore` is at HEAD (`head`, as for changed_since) what it was
// before the action: the action is already undone, by a revert or by hand.
[[nodiscard]] bool already_restored(const std::vector<PathChange>& restore,
                                    const std::map<std::string, std::string>& head);

// What the command found out about the action to undo.
struct RevertRequest {
  std::string commit;                 // the action commit (40 hex)
  std::string subject;                // its subject line
  std::optional<std::string> log_id;  // its Vault-Log-Id trailer
  // Every path to restore with its bytes in the action's parent (nullopt: delete it).
  std::map<std::string, std::optional<std::string>> restored;
  // The sub-mode cursors in specs/state.json the action moved (revise, dream).
  CursorsOnRevert cursors;
};

// `vault(revert): <subject of the action>`.
[[nodiscard]] std::string revert_subject(std::string_view original_subject);

// The draft of the revert commit: the restored files written as they are (no token_count
// refresh, so every byte comes back), the restored memory ids as affected memories and
// Vault-Memories, and the log keys `reverts` (the original log id, or null) and
// `reverted_commit`; the cursors the action moved are put back unless a later run moved them
// again (the notes say which). finish_action adds the regenerated indexes, the `revert` log entry
// and memory_health.
[[nodiscard]] ActionDraft revert_draft(const RevertRequest& request);

}  // namespace gv::distill
