#pragma once

#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/memory/parse.hpp"

namespace gv {

// One file for parse_in_parallel: its repo-relative path, its bytes (nullopt when it could not
// be read, e.g. removed between a listing and the read) and its blob id.
struct ParseJob {
  std::string_view path;
  const std::optional<std::string>* bytes = nullptr;
  std::string_view blob_oid;
};

// parse_memory for every job, on every core when there are enough of them: the cold read of a
// vault is parsing, and it divides. `out[i]` is job i's parse, nullopt when it had no bytes, so
// the result never depends on the number of threads. Reading stays with the caller, whose
// snapshot may hold a libgit2 repository, which is not thread-safe. `then(i, parsed)`, when
// given, runs on the same thread right after job i's parse: work derived from one parse (the
// gate renders its index entry) divides across the cores too. It must touch only slot i.
[[nodiscard]] std::vector<std::optional<ParsedMemory>> parse_in_parallel(
    const std::vector<ParseJob>& jobs,
    const std::function<void(std::size_t, const ParsedMemory&)>& then = {});

}  // namespace gv
