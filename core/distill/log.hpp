#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/dates.hpp"
#include "core/distill/sub_mode_registry.hpp"
#include "core/scoring/report.hpp"

namespace gv::distill {

inline constexpr std::string_view k_log_path = ".memory/distill-log.json";

// What an action appends to the log. `affected_memories` is a JSON array whose element shape
// depends on the type (ids for purge/gc, objects for merge/compress/refine).
struct NewOperation {
  std::string type;  // report, purge, merge, compress, refine, gc, review, revert
  Instant timestamp;
  scoring::VaultMetrics pre;
  scoring::VaultMetrics post;
  nlohmann::ordered_json affected_memories = nlohmann::ordered_json::array();
  std::string notes;
  std::optional<std::string> parent_commit;  // HEAD before the action; null on an unborn branch
  nlohmann::ordered_json extra = nlohmann::ordered_json::object();  // type-specific keys
};

// One operation as readers see it.
struct OperationView {
  std::string id;
  std::string type;
  std::string timestamp;
  std::optional<std::string> commit;  // as recorded in the file
  std::optional<std::string> parent_commit;
  nlohmann::ordered_json raw;
};

// `.memory/distill-log.json`: read tolerantly (missing summary counters default to 0, unknown
// keys are kept), appended to, and written back with 2-space indent and a trailing newline so
// existing entries keep their bytes.
class DistillLog {
 public:
  // An empty log: version 1.0.0, no operations, every summary counter of `sub_modes` at 0.
  explicit DistillLog(const SubModeRegistry& sub_modes = builtin_sub_modes());

  // Parses the file's text; a missing summary is `sub_modes`' zeroed one. Throws gv::Error
  // `path:line: ...` when it is not valid JSON or not a log (no `operations` array).
  [[nodiscard]] static DistillLog parse(std::string_view path, std::string_view text,
                                        const SubModeRegistry& sub_modes = builtin_sub_modes());

  // Appends an operation, updates the summary counters (`total_operations`, and the counter
  // `sub_modes` names for its type), and returns the new entry's id (`distill_<epoch seconds>`,
  // suffixed `_2`, `_3`... when that id is taken).
  std::string append(const NewOperation& operation,
                     const SubModeRegistry& sub_modes = builtin_sub_modes());

  // Records the commit of an entry written earlier (its own commit cannot hold its SHA).
  void set_commit(std::string_view id, std::string_view commit);
  // Takes out of entry `id` the text its run read from the user's records: the themes' words
  // and sample prompts of a dream entry (which earlier versions logged; dream's output is the
  // terminal's), and anything else that looks like a secret. A revert of the run does this, so
  // undoing it leaves none of that text at the tip.
  void forget_read_text(std::string_view id);

  [[nodiscard]] std::vector<OperationView> operations() const;
  [[nodiscard]] std::string serialize() const;

 private:
  nlohmann::ordered_json m_doc;
};

// The six numbers a log entry records of a vault (pre_metrics / post_metrics).
[[nodiscard]] nlohmann::ordered_json metrics_json(const scoring::VaultMetrics& metrics);

}  // namespace gv::distill
