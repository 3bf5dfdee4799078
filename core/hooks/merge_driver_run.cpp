#include "core/hooks/merge_driver_run.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <optional>
#include <string_view>

#include "core/error.hpp"
#include "core/git/text_merge.hpp"
#include "core/hooks/gitattributes.hpp"
#include "core/hooks/merge_drivers.hpp"
#include "core/merge/distill_log_merge.hpp"
#include "core/merge/recall_metadata_merge.hpp"
#include "core/merge/state_merge.hpp"
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

// What git would have done without a driver: a line-by-line merge written to `ours`, with
// conflict markers where the sides disagree. Exiting non-zero with `ours` untouched would leave
// the file looking resolved, and `git add` would then drop the other side's change silently.
int merge_as_text(const MergeDriverFiles& files) {
  const git::TextMerge merged =
      git::merge_text(util::read_file(files.ancestor), util::read_file(files.ours),
                      util::read_file(files.theirs), files.path.empty() ? files.ours : files.path);
  util::write_file_atomic(files.ours, merged.content);
  return merged.conflicted ? exit_code::k_no : exit_code::k_ok;
}

}  // namespace

int run_merge_driver(const std::string& kind, const MergeDriverFiles& files) {
  const bool known = std::any_of(k_merge_drivers.begin(), k_merge_drivers.end(),
                                 [&](const MergeDriver& driver) { return driver.kind == kind; });
  if (!known) {
    throw UsageError(
        "unknown merge driver kind `{}` (known: generated, log, recall-metadata, state)", kind);
  }
  // Another `.gitattributes` line naming this driver (`* merge=vault-generated`) must not make
  // it keep "ours" for files it knows nothing about: those get git's normal conflict.
  if (!routed_to(kind, files.path)) {
    util::print_warning(
        fmt::format("merge driver `{}` does not handle `{}`; merging it line by line, as git would",
                    kind, files.path));
    return merge_as_text(files);
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
  } else if (kind == "state") {
    merged = merge::merge_state(util::read_file(files.ancestor), util::read_file(files.ours),
                                util::read_file(files.theirs));
  } else {
    throw UsageError(
        "unknown merge driver kind `{}` (known: generated, log, recall-metadata, state)", kind);
  }
  if (!merged) {
    const std::string_view why =
        kind == "state"
            ? "a side is not a JSON object, or both changed a key git-vault does not own"
            : "one side is not valid JSON";
    util::print_warning(fmt::format("{}: {}; merging it line by line, as git would",
                                    files.path.empty() ? files.ours : files.path, why));
    return merge_as_text(files);
  }
  util::write_file_atomic(files.ours, *merged);
  return exit_code::k_ok;
}

}  // namespace gv::hooks
