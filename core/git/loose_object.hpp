#pragma once

#include <cstddef>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

namespace gv::git {

// The first `max_bytes` bytes of a blob stored as a loose object under `objects_dir`, inflating
// only as much of the object as that takes. nullopt when the blob is not a loose object there
// (packed, in an alternate, or damaged): the caller then reads it through libgit2.
//
// A blob staged by `git add` is loose until the next gc, and memory-index.json is megabytes of
// which the gate needs one field near the top.
[[nodiscard]] std::optional<std::string> loose_blob_head(const std::filesystem::path& objects_dir,
                                                         std::string_view oid,
                                                         std::size_t max_bytes);

}  // namespace gv::git
