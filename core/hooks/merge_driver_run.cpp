#include "core/hooks/merge_driver_run.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <optional>
#include <string_view>

#include "core/error.hpp"
#include "core/hooks/gitattributes.hpp"
#include "core/hooks/merge_drivers.hpp"
#include "core/merge/distill_log_merge.hpp"
#include "core/merge/recall_metadata_merge.hpp"
#include "core/util/file.hpp"
#include "core/util/message.hpp"

namespace gv::hooks {
namespace {

// The paths `init` routes to the driver of `kind` (k_gitattributes_lines), e.g.
// `.memory/distill-log.json` for `log`.
bool routed_to(std::string_view kind, std::string_view path) {
  for (const MergeDriver& driver : k_merge_drivers) {
    if (driver.kind != kind) {
      continue;
    }
    const std::string suffix = fmt::format(" merge={}", driver.name);
    for (const std::string_view line : k_gitattributes_lines) {
      if (line.ends_with(suffix) && line.substr(0, line.size() - suffix.size()) == path) {
        return true;
      }
    }
  }
  return false;
}

}  // namespace

int run_merge_driver(const std::string& kind, const MergeDriverFiles& files) {
  const bool known = std::any_of(k_merge_drivers.begin(), k_merge_drivers.end(),
                                 [&](const MergeDriver& driver) { return driver.kind == kind; });
  if (!known) {
    throw UsageError("unknown merge driver kind `{}` (known: generated, log, recall-metadata)",
                     kind);
  }
  // Another `.gitattributes` line naming this driver (`* merge=vault-generated`) must not make
  // it keep "ours" for files it knows nothing about: those get git's normal conflict.
  if (!routed_to(kind, files.path)) {
    util::print_warning(
        fmt::format("merge driver `{}` does not handle `{}`; leaving it to a normal conflict", kind,
                    files.path));
    return exit_code::k_no;
  }
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
