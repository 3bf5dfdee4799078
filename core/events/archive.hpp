#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

// Archived tasks (doc/telemetry.md, "Archived tasks"): the records `specs/archive/state.json`
// (and `specs/vault/<name>/state.json`) keep of finished tasks under `completed_projects`,
// with the memory candidates the task collected, and the task folders of reports, plans and
// summaries beside them. Values in, values out: the caller reads the files.
namespace gv::events {

inline constexpr std::string_view k_archive_state_path = "specs/archive/state.json";

// Whether `path` is an archive record file this reader understands:
// `specs/archive/state.json` or `specs/vault/<name>/state.json`.
[[nodiscard]] bool is_archive_record_path(std::string_view path);

// One `memory_candidates` item of an archived task.
struct MemoryCandidate {
  std::size_t index = 0;  // position in the task's `memory_candidates` array
  std::string content;
  std::string category;  // TECHNIQUE, PATTERN, CONFIG, WORKFLOW or INSIGHT (as written)
  std::string source_artifact;
  double confidence = 0.0;
  std::vector<std::string> suggested_keywords;
  // Set once a harvest turned it into a memory: when, and which memory.
  std::optional<std::string> harvested_at;
  std::optional<std::string> harvested_as;
};

struct ArchivedTask {
  std::int64_t number = 0;
  std::string name;   // project_name
  std::string title;  // title, else the name with `_` as spaces
  std::optional<std::string> archived_at;
  std::optional<std::string> completed_at;  // last_updated when the record has no archived_at
  std::string record_path;                  // the state.json it came from
  std::size_t record_index = 0;             // position in `completed_projects`
  std::vector<MemoryCandidate> candidates;
  // The whole task marked harvested (`memory_candidates_harvested: true`): its candidates are
  // all treated as harvested.
  bool harvested = false;

  [[nodiscard]] std::vector<const MemoryCandidate*> unharvested() const;
};

// The tasks of one archive record file. Items that are not objects with an integer
// `project_number` are skipped; candidates without `content` are skipped. Throws gv::Error
// `path:line: …` when the text is not JSON or not an object.
[[nodiscard]] std::vector<ArchivedTask> parse_archived_tasks(std::string_view path,
                                                             std::string_view text);

// The folder of task `number` among `paths` (repo-relative files under `specs/`):
// `<dir>/<NNN>_<name>/` or `<dir>/<N>_<name>/` beside the record. Empty when there is none.
[[nodiscard]] std::string task_folder(const ArchivedTask& task,
                                      const std::vector<std::string>& paths);

// The task's artifacts: the Markdown files in its folder, sorted.
[[nodiscard]] std::vector<std::string> task_artifacts(const ArchivedTask& task,
                                                      const std::vector<std::string>& paths);

// One candidate turned into a memory.
struct HarvestMark {
  std::size_t record_index = 0;
  std::size_t candidate_index = 0;
  std::string memory_id;
};

// The record file's new text with each marked candidate given `harvested_at` (`now`) and
// `harvested_as` (the memory id). The file is rewritten with two-space indentation and a
// trailing newline, keys in their order (the shape the task tools write). Throws gv::Error as
// parse_archived_tasks.
[[nodiscard]] std::string mark_harvested(std::string_view path, std::string_view text,
                                         const std::vector<HarvestMark>& marks,
                                         std::string_view now);

}  // namespace gv::events
