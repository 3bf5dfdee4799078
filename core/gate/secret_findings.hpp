#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "core/finding.hpp"
#include "core/snapshot/snapshot.hpp"

// The gate's `secret` findings (doc/secrets.md, "The commit gate"): the detector's lines made
// findings. Memory files are scanned when they are parsed (ParsedMemory::secrets), so the
// incremental and cached gates answer from their parses; working-memory files are read by the
// check itself whenever they change.
namespace gv {

// `path:line: error: looks like a secret (<kind>) [secret]`, with the fix. Never the value.
[[nodiscard]] Finding secret_finding(std::string path, int line, std::string_view kind);

// The files the working-memory checks read that a person or an agent writes text into:
// CLAUDE.local.md, the registers and the archive, the recall metadata and the distill log.
// One finding per line that looks like a secret, in path order.
[[nodiscard]] std::vector<Finding> working_memory_secret_findings(const Snapshot& snapshot);

}  // namespace gv
