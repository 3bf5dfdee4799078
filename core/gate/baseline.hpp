#pragma once

#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/finding.hpp"
#include "core/git/index_file.hpp"

namespace gv {

// How a memory file of a vault state reads, as links see it: a memory that parses and is not
// tombstoned is `active`; one that does not parse into a memory is `unreadable`.
enum class MemoryStatus : std::uint8_t { active, tombstoned, unreadable };

// The last vault state the gate checked from a staged index, kept between commits in
// `<common git dir>/git-vault/gate-baseline`: the `.memory/` entries of that index as git wrote
// them, the memories that are not active, the target of each dangling link, and every vault
// check's findings. The next commit's gate compares the staged entries with it and checks only
// what changed (core/gate/delta_gate.hpp), so its cost follows the commit, not the vault.
// Like the parse cache it is an optimisation only: a damaged or foreign file is ignored.
class GateBaseline {
 public:
  static constexpr std::uint32_t k_format = 2;

  struct Status {
    std::string path;
    MemoryStatus status = MemoryStatus::active;
  };
  // One dangling-link finding's source and the stem of its target, in the findings' order.
  struct DanglingTarget {
    std::string source;
    std::string stem;
  };

  // What a baseline holds, as the gate builds it before saving.
  struct Contents {
    std::uint64_t check_set_key = 0;
    std::string state;  // vault_state_digest of the entries
    std::uint32_t index_version = 2;
    std::uint32_t entry_count = 0;
    std::string_view entry_bytes;    // IndexFile::entry_bytes of the `.memory/` range
    std::vector<Status> not_active;  // memory paths, sorted
    std::vector<DanglingTarget> dangling;
    std::vector<Finding> findings;  // every vault check's, in the order they were computed
    std::string memory_tree;        // the state's `.memory` tree id; empty: not computed
    // The working-memory files' digest (paths and blob ids) and every working-memory check's
    // findings for them.
    std::string working_state;
    std::vector<Finding> working_findings;
  };

  // nullopt when the file is absent, damaged, or saved under another check set.
  [[nodiscard]] static std::optional<GateBaseline> load(const std::filesystem::path& file,
                                                        std::uint64_t check_set_key);
  // Writes `contents` in place of the file (temporary file and rename; no sync). Silent on
  // failure.
  static bool save(const std::filesystem::path& file, const Contents& contents);

  GateBaseline(GateBaseline&&) noexcept;
  GateBaseline& operator=(GateBaseline&&) noexcept;
  ~GateBaseline();

  [[nodiscard]] const std::string& state() const { return m_state; }
  // The baseline's `.memory/` index entries (all stages; filter with is_committed_file), read on
  // first use (a state equal to the baseline's needs none of them); null when they do not read.
  [[nodiscard]] const git::IndexFile* entries() const;
  // The status of the memory at `path` in the baseline (active when not listed otherwise).
  [[nodiscard]] MemoryStatus status(std::string_view path) const;
  [[nodiscard]] const std::vector<Status>& not_active() const { return m_not_active; }
  [[nodiscard]] const std::vector<DanglingTarget>& dangling() const { return m_dangling; }
  [[nodiscard]] const std::vector<Finding>& findings() const { return m_findings; }
  // The id of the state's `.memory` tree, when it was computed (see Contents).
  [[nodiscard]] const std::string& memory_tree() const { return m_memory_tree; }
  [[nodiscard]] const std::string& working_state() const { return m_working_state; }
  [[nodiscard]] const std::vector<Finding>& working_findings() const { return m_working_findings; }

 private:
  struct Mapping;
  GateBaseline();

  std::unique_ptr<Mapping> m_mapping;  // the file; the entries view it
  std::string_view m_entry_bytes;
  std::uint32_t m_index_version = 2;
  std::uint32_t m_entry_count = 0;
  mutable std::optional<std::optional<git::IndexFile>> m_entries;
  std::string m_state;
  std::vector<Status> m_not_active;
  std::vector<DanglingTarget> m_dangling;
  std::vector<Finding> m_findings;
  std::string m_memory_tree;
  std::string m_working_state;
  std::vector<Finding> m_working_findings;
};

// `<common git dir>/git-vault/gate-baseline`.
[[nodiscard]] std::filesystem::path gate_baseline_path(const std::filesystem::path& common_dir);

}  // namespace gv
