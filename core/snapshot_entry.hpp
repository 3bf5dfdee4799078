#pragma once

#include <string>

namespace gv {

// A value in the base layer because both core/git (which lists index and tree entries) and
// core/snapshot (which builds on core/git) speak of it; see doc/architecture.md, "Layers".
// One file in a Snapshot. `oid` is the git blob id (hex) of its bytes; for the work tree it is
// computed by hashing, so the same content has the same oid in every snapshot.
struct SnapshotEntry {
  std::string path;  // repo-relative, `/` separators
  std::string oid;   // 40 hex chars
};

}  // namespace gv
