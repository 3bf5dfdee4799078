#include "core/hooks/merge_driver_run.hpp"

#include <fmt/format.h>

#include <optional>

#include "core/error.hpp"
#include "core/merge/distill_log_merge.hpp"
#include "core/merge/recall_metadata_merge.hpp"
#include "core/util/file.hpp"
#include "core/util/message.hpp"

namespace gv::hooks {

int run_merge_driver(const std::string& kind, const MergeDriverFiles& files) {
  if (kind == "generated") {
    // Never merged by hand: ours stays, and the post-merge hook regenerates the file from the
    // merged memories.
    return exit_code::k_ok;
  }
  std::optional<std::string> merged;
  if (kind == "log") {
    merged = merge::merge_distill_logs(util::read_file(files.ours), util::read_file(files.theirs));
  } else if (kind == "recall-metadata") {
    merged =
        merge::merge_recall_metadata(util::read_file(files.ours), util::read_file(files.theirs));
  } else {
    throw UsageError("unknown merge driver kind `{}` (known: generated, log, recall-metadata)",
                     kind);
  }
  if (!merged) {
    util::print_warning(
        fmt::format("{}: one side is not valid JSON; leaving it to a normal conflict",
                    files.path.empty() ? files.ours : files.path));
    return exit_code::k_no;
  }
  util::write_file_atomic(files.ours, *merged);
  return exit_code::k_ok;
}

}  // namespace gv::hooks
