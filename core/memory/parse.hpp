#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/finding.hpp"
#include "core/memory/memory.hpp"
#include "core/secrets/detector.hpp"

namespace gv {

// Files above this size are reported, never handed to YAML: a vault note is a few KiB, and a
// huge file is almost certainly a mistake (or an attack on the parser).
inline constexpr std::size_t k_max_memory_file_bytes = 8 * 1024 * 1024;

struct ParsedMemory {
  // Present whenever the frontmatter parsed as a mapping with a usable `title` and `created`.
  // Other bad fields are reported as findings and fall back to their D2 defaults, so one bad
  // `last_retrieved` never drops a memory from the index.
  std::optional<Memory> memory;
  // Check `schema`: errors for D2 violations, warnings for tolerated oddities (a scalar where
  // a list belongs, a repeated key).
  std::vector<Finding> findings;
  // Lines that look like a credential (doc/secrets.md), for the gate's `secret` check; kept
  // apart from `findings`, which every reader of a vault reports, because a secret does not
  // make a memory unreadable.
  std::vector<secrets::SecretFinding> secrets;
};

// Validates one memory file (D2) and computes its token count (D3), wiki links and the lines
// that look like secrets (D24). `path` is
// repo-relative; the id is its file name without `.md`. Never throws on bad input.
[[nodiscard]] ParsedMemory parse_memory(std::string_view path, std::string_view bytes,
                                        std::string_view blob_oid);

// The id a memory at `path` has: the file name without `.md`.
[[nodiscard]] std::string memory_id_from_path(std::string_view path);

}  // namespace gv
