#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

#include "core/recall/entry.hpp"
#include "core/recall/metadata.hpp"

namespace gv::recall {

// A tagged entry, files[file].entries[entry], with its id as a number: the id's 10 hex digits.
// Numbers order ids as their bytes do, which is the order of metadata's keys.
struct TaggedRef {
  std::uint64_t key = 0;
  std::size_t file = 0;
  std::size_t entry = 0;
};

// Every tagged entry of `files` sorted by id and, for one id, in scan order: the first of each
// run of one key is that id's first line, the one that counts. One sort of numbers in place of
// a lookup per entry in ordered sets of strings, which at 50,000 entries missed the cache on
// every step (doc/performance.md, "Working memory of 50,000 entries").
[[nodiscard]] std::vector<TaggedRef> tagged_by_id(const std::vector<ParsedFile>& files);

// The id `tr` + 10 hex digits that `key` stands for.
[[nodiscard]] std::array<char, 12> id_of_key(std::uint64_t key);

// Each tagged entry's record in `metadata`, null where it has none: the result's [f][e] is that
// of files[f].entries[e], null for an entry without an id. One walk of the sorted ids beside the
// map in its key order, not a lookup per entry.
[[nodiscard]] std::vector<std::vector<const Record*>> records_by_entry(
    const std::vector<ParsedFile>& files, const Metadata& metadata);

inline std::string_view id_view(const std::array<char, 12>& id) { return {id.data(), id.size()}; }

}  // namespace gv::recall
