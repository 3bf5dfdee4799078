#pragma once

#include <functional>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/agent/live_vault.hpp"
#include "core/dates.hpp"
#include "core/mcp/server.hpp"

namespace gv::git {
class Repo;
}

namespace gv::mcp {

struct VaultToolOptions {
  bool allow_write = false;  // offer write_memory
  bool record = true;        // get_memory and build_context count a retrieval (D16)
};

// What the server tells a client at initialize: which tool to call when, and which tools count
// a retrieval on their own (so that nothing is counted twice).
[[nodiscard]] std::string server_instructions(const VaultToolOptions& options);

// The git-vault tools: search_memories, get_memory, build_context, list_memories,
// record_retrieval, and write_memory with allow_write. One repository stays open; every call
// re-reads the work tree (LiveVault), so files changed between calls are seen. Arguments
// accept the aliases models reach for (`query`/`q`, `limit`/`max_results`, `id`/`ids`), each
// input is bounded as its schema says, and each answer stays under about 80 KB, saying what it
// left out (doc/agent.md, "Bounded answers").
class VaultTools final : public ToolBackend {
 public:
  // `repo` must outlive this; `cache` is asked for the parse cache (may answer null) when a
  // call first needs the whole vault; `clock` is asked once per call (a server may run past
  // midnight).
  VaultTools(git::Repo& repo, std::function<ParseCache*()> cache, std::function<Clock()> clock,
             VaultToolOptions options);

  [[nodiscard]] std::vector<ToolSpec> tools() const override;
  [[nodiscard]] std::string absent_tool_reason(std::string_view name) const override;
  [[nodiscard]] ToolResult call(std::string_view name, const nlohmann::json& arguments) override;

 private:
  [[nodiscard]] ToolResult search(const nlohmann::json& arguments);
  [[nodiscard]] ToolResult get(const nlohmann::json& arguments, const Clock& clock);
  [[nodiscard]] ToolResult context(const nlohmann::json& arguments, const Clock& clock);
  [[nodiscard]] ToolResult list(const nlohmann::json& arguments);
  [[nodiscard]] ToolResult write(const nlohmann::json& arguments, const Clock& clock);
  [[nodiscard]] ToolResult record(const nlohmann::json& arguments, const Clock& clock);
  // Records a retrieval of `ids`; the warning to pass on when the journal cannot be written.
  [[nodiscard]] std::optional<std::string> record_quietly(const std::vector<std::string>& ids,
                                                          const Clock& clock);
  // How to make a vault, when the repository has none; empty when it has one.
  [[nodiscard]] std::string no_vault_note() const;
  // `id` with the closest existing ids, for a message about an id no memory has.
  [[nodiscard]] std::string describe_unknown_id(std::string_view id) const;

  git::Repo& m_repo;
  std::function<Clock()> m_clock;
  VaultToolOptions m_options;
  std::function<ParseCache*()> m_cache;
  agent::LiveVault m_vault;
};

}  // namespace gv::mcp
