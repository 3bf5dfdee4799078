#include "core/vault/regenerate.hpp"

#include <fmt/format.h>

#include "core/error.hpp"
#include "core/memory/frontmatter_edit.hpp"
#include "core/snapshot/overlay_snapshot.hpp"
#include "core/vault/index_carry_over.hpp"
#include "core/vault/index_check.hpp"
#include "core/vault/index_files.hpp"

namespace gv {
namespace {

// D3: a rewritten memory file never keeps a stale `token_count`.
void refresh_token_counts(Plan& plan, const Vault& after, const std::set<std::string>& verbatim) {
  for (const Memory& memory : after.memories) {
    auto it = plan.changes.find(memory.path);
    if (it == plan.changes.end() || !it->second || verbatim.count(memory.path) != 0) {
      continue;
    }
    FrontmatterEditor editor(memory.path, *it->second);
    if (editor.has("token_count")) {
      editor.set_scalar("token_count", std::to_string(memory.token_count));
      it->second = editor.bytes();
    }
  }
}

// D4: counts the old index kept (and the memory files did not) move into frontmatter before
// the index is regenerated, so regeneration never loses them.
std::vector<std::string> carry_retrievals(Plan& plan, const Snapshot& view, const Vault& after,
                                          const std::optional<ExistingIndex>& existing) {
  std::vector<std::string> carried;
  if (!existing) {
    return carried;
  }
  for (const RetrievalCarry& carry : retrieval_carry_over(after.memories, *existing)) {
    const std::string path = memory_path(carry.id);
    const std::optional<std::string> bytes = view.read(path);
    if (!bytes) {
      continue;
    }
    FrontmatterEditor editor(path, *bytes);
    if (carry.retrieval_count) {
      editor.set_scalar("retrieval_count", std::to_string(*carry.retrieval_count));
    }
    if (carry.last_retrieved) {
      editor.set_scalar("last_retrieved", format_date(*carry.last_retrieved));
    }
    plan.write(path, editor.bytes());
    carried.push_back(carry.id);
  }
  return carried;
}

// A memory file that cannot be read is left out of the vault, so an index regenerated now would
// drop its entry, and the commit that lands it would carry the loss (an older-layout vault loses
// every entry this way). Every writer stops instead, naming the files.
void refuse_unreadable(const Vault& after) {
  std::string listed;
  std::size_t count = 0;
  for (const Finding& finding : after.findings) {
    if (finding.severity != Severity::error) {
      continue;
    }
    ++count;
    listed += finding.line
                  ? fmt::format("\n  {}:{}: {}", finding.path, *finding.line, finding.message)
                  : fmt::format("\n  {}: {}", finding.path, finding.message);
  }
  if (count != 0) {
    throw Error(
        "{} memory file{} cannot be read, and an index regenerated now would leave {} out:{}\n"
        "fix {} (`git vault migrate` converts memories in an older layout), then run the "
        "command again",
        count, count == 1 ? "" : "s", count == 1 ? "it" : "them", listed,
        count == 1 ? "it" : "them");
  }
}

}  // namespace

Regeneration regenerate_index_files(Plan& plan, const Snapshot& before,
                                    const std::optional<ExistingIndex>& existing, Date today,
                                    ParseCache* cache, const std::set<std::string>& verbatim,
                                    bool keep_unreadable_out) {
  Regeneration result;
  {
    const OverlaySnapshot edited(before, plan.changes);
    const Vault after_edits = load_vault(edited, cache);
    result.carried = carry_retrievals(plan, edited, after_edits, existing);
  }
  const OverlaySnapshot after_view(before, plan.changes);
  result.after = load_vault(after_view, cache);
  if (!keep_unreadable_out) {
    refuse_unreadable(result.after);
  }
  refresh_token_counts(plan, result.after, verbatim);
  const IndexFiles fresh = render_index_files(result.after.memories, today);
  for (FileWrite& write : plan_index_writes(fresh, read_index_files(after_view))) {
    result.regenerated.push_back(write.path);
    plan.write(std::move(write.path), std::move(write.bytes));
  }
  // Listed over the final plan: token counts refreshed above change memory files' blob ids.
  result.record =
      generated_record_of(OverlaySnapshot(before, plan.changes).list(vault_path::k_root));
  return result;
}

Regeneration regenerate_index_files(Plan& plan, const Snapshot& before, Date today,
                                    ParseCache* cache, bool keep_unreadable_out) {
  return regenerate_index_files(plan, before, read_existing_index(before), today, cache, {},
                                keep_unreadable_out);
}

std::vector<std::string> refresh_stated_token_counts(Plan& plan, const Snapshot& before,
                                                     const Vault& vault) {
  std::vector<std::string> refreshed;
  for (const Memory& memory : vault.memories) {
    if (plan.changes.contains(memory.path)) {
      continue;  // regenerate_index_files refreshes the files a plan writes
    }
    const std::optional<std::string> bytes = before.read(memory.path);
    if (!bytes || bytes->find("token_count:") == std::string::npos) {
      continue;
    }
    FrontmatterEditor editor(memory.path, *bytes);
    if (!editor.has("token_count")) {
      continue;
    }
    editor.set_scalar("token_count", std::to_string(memory.token_count));
    std::string edited = editor.bytes();
    if (edited != *bytes) {
      plan.write(memory.path, std::move(edited));
      refreshed.push_back(memory.id);
    }
  }
  return refreshed;
}

std::optional<ExistingIndex> read_existing_index(const Snapshot& snapshot) {
  const std::optional<std::string> bytes = snapshot.read(vault_path::k_index_json);
  if (!bytes) {
    return std::nullopt;
  }
  return read_index(vault_path::k_index_json, *bytes).index;
}

}  // namespace gv
