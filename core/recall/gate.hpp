#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/finding.hpp"
#include "core/recall/entry.hpp"
#include "core/recall/files.hpp"

namespace gv::recall {

// The command that tags untagged entries, named in every message that asks for it. With
// `--yes`: without a terminal init-ids asks nobody and changes nothing, and a command a message
// prints must work where it is run (it writes the work tree only; `git diff` shows the ids).
inline constexpr std::string_view k_init_ids_command = "git vault recall init-ids --yes";

struct EntryLocation {
  std::string path;  // repo-relative
  std::string display_path;
  int line = 0;
  bool older_spelling = false;  // malformed only: `^tr-…`, which `recall doctor --fix` respells
  // untagged only: the line of a heading or later line holding this entry's id, which
  // `recall doctor --fix` moves onto it (0: none). init-ids would give the entry a new id.
  int stray_line = 0;
};

struct DuplicateId {
  std::string id;                        // without the caret
  std::vector<EntryLocation> locations;  // scan order; at least two
};

// The working-memory id preconditions over all managed files. An entry without a valid id
// blocks whether it is untagged or malformed; init-ids repairs only the former.
struct IdGate {
  std::vector<EntryLocation> untagged;
  std::vector<EntryLocation> malformed;
  std::vector<DuplicateId> duplicates;  // first-seen order

  [[nodiscard]] int missing_count() const {
    return static_cast<int>(untagged.size() + malformed.size());
  }
  [[nodiscard]] bool passes() const { return missing_count() == 0 && duplicates.empty(); }
  // Missing ids that `recall doctor --fix` restores (older spelling, or an id on another line).
  [[nodiscard]] int doctor_restores() const;
};

[[nodiscard]] IdGate evaluate_id_gate(const std::vector<ParsedFile>& files);

// Findings for `git vault check`: `missing-id` and `malformed-id` (errors, scan order), then
// `duplicate-id` (one error per occurrence after the first, each listing every location), then
// the parser's `ignored-id` warnings.
[[nodiscard]] std::vector<Finding> id_findings(const std::vector<ParsedFile>& files);

// The finding for a malformed entry; init-ids reports the same problem as a warning.
[[nodiscard]] Finding malformed_id_finding(const ManagedFile& file, const Entry& entry,
                                           Severity severity);

// Maintain's refusal text (lines ending in `\n`), or nullopt when the gate passes. Missing ids
// are checked first and, when present, are the only refusal shown.
[[nodiscard]] std::optional<std::string> maintain_refusal(const IdGate& gate);
[[nodiscard]] std::string missing_ids_refusal(const IdGate& gate);
[[nodiscard]] std::string duplicate_ids_refusal(const IdGate& gate);

}  // namespace gv::recall
