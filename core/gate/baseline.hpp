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
//
// The entries are most of its bytes (13 MB at 100,000 memories) and a commit changes few of
// them, so they are kept in two parts: `gate-baseline.entries` holds every entry as of some
// earlier state and is rewritten rarely; `gate-baseline` holds the entries changed since then
// (a journal, rewritten with the findings at each commit) and names the entries file it applies
// to by its size and the checksum its header records (not computed again when read: damage
// inside it shows as changed entries, which are checked again). doc/performance.md has the
// figures.
class GateBaseline {
 public:
  static constexpr std::uint32_t k_format = 4;

  using Entry = git::IndexFile::Entry;

  struct Status {
    std::string path;
    MemoryStatus status = MemoryStatus::active;
  };
  // One dangling-link finding's source and the stem of its target, in the findings' order.
  struct DanglingTarget {
    std::string source;
    std::string stem;
  };
  // A committed `.memory/` path whose entry changed since the baseline the state was checked
  // against, with the staged entry's bytes (IndexFile::entry_bytes of that one entry); empty
  // bytes: the path is no longer a committed file.
  struct Change {
    std::string_view path;
    std::string_view entry_bytes;
  };

  // What a baseline holds, as the gate builds it before saving.
  struct Contents {
    std::uint64_t check_set_key = 0;
    std::string state;  // vault_state_digest of the entries with the check set's key
    // The digests of the entries (core/gate/delta_gate.hpp, IndexDigests), which the next
    // state's follow from its differences.
    std::string vault_digest;
    std::string generated_inputs;
    std::uint32_t index_version = 2;
    std::string_view entry_bytes;    // IndexFile::entry_bytes of the `.memory/` range
    std::vector<Status> not_active;  // memory paths, sorted
    std::vector<DanglingTarget> dangling;
    std::vector<Finding> findings;  // every vault check's, in the order they were computed
    std::string memory_tree;        // the state's `.memory` tree id; empty: not computed
    // The working-memory files' digest (paths and blob ids) and every working-memory check's
    // findings for them.
    std::string working_state;
    std::vector<Finding> working_findings;
    // When the state was checked against a loaded baseline (by the delta gate, or unchanged):
    // that baseline and what changed since it, by path. save() then adds the changes to its
    // journal instead of writing every entry again. Null: the entries are written whole.
    const GateBaseline* previous = nullptr;
    std::vector<Change> changes;  // sorted by path
  };

  // nullopt when the file is absent, damaged, or saved under another check set. The entries
  // file is read only when committed_entries() is asked for.
  [[nodiscard]] static std::optional<GateBaseline> load(const std::filesystem::path& file,
                                                        std::uint64_t check_set_key);
  // Writes `contents` in place of the file (temporary files and rename; no sync), and the
  // entries file when the journal would outgrow an eighth of it. Silent on failure.
  static bool save(const std::filesystem::path& file, const Contents& contents);

  GateBaseline(GateBaseline&&) noexcept;
  GateBaseline& operator=(GateBaseline&&) noexcept;
  ~GateBaseline();

  [[nodiscard]] const std::string& state() const { return m_state; }
  [[nodiscard]] const std::string& vault_digest() const { return m_vault_digest; }
  [[nodiscard]] const std::string& generated_inputs() const { return m_generated_inputs; }
  // A committed `.memory/` path whose entry differs between the baseline and a staged index.
  struct Difference {
    std::string_view path;
    const Entry* before = nullptr;  // absent: added
    const Entry* after = nullptr;   // absent: removed
  };
  // The paths whose committed entry (a file at stage 0) differs between the baseline and
  // `staged`, the committed `.memory/` entries of an index of `version`, in path order. Equal
  // entries are told by their bytes, so the baseline's are compared, not parsed: the cost is
  // a memcmp of the entries plus the differences. `staged_bytes`, when the staged entries lie
  // back to back in it (the `.memory/` range of an index holding no other entry there), lets
  // runs of equal entries be compared as blocks. Null when the baseline's entries do not read
  // (the entries file missing, damaged or replaced) or were written by another index version.
  // The first call's answer is kept and given to later ones.
  [[nodiscard]] const std::vector<Difference>* differences(
      const std::vector<const Entry*>& staged, std::uint32_t version,
      std::string_view staged_bytes = {}) const;
  // The baseline's committed `.memory/` entries, in path order, parsed in full: for the rare
  // question differences() does not answer. Null as above.
  [[nodiscard]] const std::vector<const Entry*>* committed_entries() const;
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
  struct Entries;
  // Which entries file the journal applies to.
  struct EntriesRef {
    std::uint64_t size = 0;
    std::uint64_t checksum = 0;
    std::uint32_t count = 0;
  };
  GateBaseline();
  // Maps and checks the entries file and reads the journal (once); null when they do not read.
  [[nodiscard]] Entries* open_entries() const;

  std::unique_ptr<Mapping> m_mapping;  // the file; the journal views it
  std::filesystem::path m_entries_file;
  EntriesRef m_entries_ref;
  std::uint32_t m_index_version = 2;
  std::string_view m_journal_bytes;  // the changed entries, in path order
  std::uint32_t m_journal_count = 0;
  std::vector<std::string_view> m_journal_removed;  // paths, sorted
  mutable std::unique_ptr<Entries> m_entries;
  std::string m_state;
  std::string m_vault_digest;
  std::string m_generated_inputs;
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
