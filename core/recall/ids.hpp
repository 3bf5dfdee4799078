#pragma once

#include <cstddef>
#include <functional>
#include <set>
#include <span>
#include <string>
#include <vector>

#include "core/finding.hpp"
#include "core/recall/entry.hpp"
#include "core/recall/files.hpp"

namespace gv::recall {

// Fills the span with random bytes. Injected so tests can script id generation.
using RandomSource = std::function<void(std::span<unsigned char>)>;

// A stream drawn from a hash of the managed files and the metadata, so that the same files give
// the same new ids: what `init-ids --dry-run` shows is what `init-ids --yes` writes. Ids need to
// be unique within a repository only, which generate_id's `taken` set sees to.
[[nodiscard]] RandomSource content_random_source(const std::vector<ParsedFile>& files,
                                                 std::string_view metadata_bytes);

// A new id (`tr` + 10 lowercase hex from 5 random bytes) that is not in `taken`, and adds it
// there. Regenerates on collision; throws gv::Error if the source keeps repeating taken ids.
[[nodiscard]] std::string generate_id(const RandomSource& random, std::set<std::string>& taken);

// One line init-ids tags.
struct TaggedLine {
  std::string path;  // repo-relative
  std::string display_path;
  int line = 0;
  std::string id;      // without the caret
  std::string before;  // the line without its terminator
  std::string after;
};

// One file init-ids rewrites: its complete new bytes.
struct FileRewrite {
  std::string path;
  std::string display_path;
  std::string bytes;
  int tagged = 0;
};

// An inline id and the tier of the file that holds it, for the metadata backfill.
struct InlineId {
  std::string id;
  Tier tier = Tier::working;
};

struct InitIdsPlan {
  int files_scanned = 0;
  int already_tagged = 0;
  int malformed = 0;
  std::vector<TaggedLine> tagged;     // scan order
  std::vector<FileRewrite> rewrites;  // files that change, scan order
  std::vector<InlineId> inline_ids;   // every id on an entry after the run, scan order
  std::vector<Finding> findings;      // malformed lines (skipped) and ignored ids: warnings
};

// Gives every untagged entry a fresh id: trailing spaces and tabs are stripped, ` ^<id>` is
// appended, and the line keeps its terminator. No other byte of any file changes. New ids avoid
// every `^tr…` token in the files, `metadata_ids`, and each other. Malformed lines are skipped.
[[nodiscard]] InitIdsPlan plan_init_ids(const std::vector<ParsedFile>& files,
                                        const std::set<std::string>& metadata_ids,
                                        const RandomSource& random);

// Up to `limit` lines for the preview, picked round-robin over files in scan order: the first
// tagged line of each file, then the second of each, and so on.
[[nodiscard]] std::vector<TaggedLine> preview_examples(const InitIdsPlan& plan,
                                                       std::size_t limit = 5);

}  // namespace gv::recall
