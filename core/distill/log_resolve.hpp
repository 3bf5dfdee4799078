#pragma once

#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "core/distill/log.hpp"

// `git vault log`: every distill log entry matched with its commit through the Vault-Log-Id
// trailer (D7), and what `--verify` reports when history no longer matches the log.
namespace gv::distill {

struct ResolvedEntry {
  OperationView operation;
  std::optional<std::string> commit;  // the newest commit in HEAD's history with its trailer
  // True for entries written before commits were tracked (no `parent_commit` and no `commit`
  // key, e.g. by the original scripts): there is nothing to verify them against.
  bool legacy = false;
  std::vector<std::string> problems;  // empty when the entry and history agree
};

// `by_log_id`: trailer value -> commits carrying it, newest first (Repo::trailer_index).
// `first_parent`: the first parent of a commit, nullopt for a root commit.
// Problems: no commit carries the entry's id (squash, rebase, reset), several do, the entry's
// recorded `commit` is not the trailer's commit, or the trailer commit's parent is not the
// recorded `parent_commit`. Entries keep the log's order.
[[nodiscard]] std::vector<ResolvedEntry> resolve_log(
    const std::vector<OperationView>& operations,
    const std::map<std::string, std::vector<std::string>>& by_log_id,
    const std::function<std::optional<std::string>(const std::string&)>& first_parent);

}  // namespace gv::distill
