#pragma once

#include <string_view>
#include <vector>

#include "core/recall/entry.hpp"
#include "core/snapshot/snapshot.hpp"

namespace gv::recall {

// Reads and parses every managed file of the project at `root` (see list_managed_files), in
// scan order. A file the snapshot lists but cannot read is left out.
[[nodiscard]] std::vector<ParsedFile> scan_managed_files(const Snapshot& snapshot,
                                                         std::string_view root = {});

}  // namespace gv::recall
