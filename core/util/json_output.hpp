#pragma once

#include <cstddef>
#include <functional>
#include <nlohmann/json_fwd.hpp>
#include <string>
#include <string_view>

// The one JSON printer behind every `--json` (doc/architecture.md, "Output"): two-space indent,
// a trailing newline, and bytes that are not UTF-8 replaced by U+FFFD instead of aborting the
// run, because file names and titles come from users and may hold anything.
namespace gv::util {

[[nodiscard]] std::string dump_json(const nlohmann::ordered_json& document);
[[nodiscard]] std::string dump_json(const nlohmann::json& document);

// dump_json written to stdout.
void print_json(const nlohmann::ordered_json& document);
void print_json(const nlohmann::json& document);

// print_json of `head` with one more key, `key`, last: an array of `count` items, each built by
// `item(i)` and written before the next is built. The bytes are those of print_json on the
// whole document, without holding it: a merge dry run can list hundreds of thousands of pairs.
void print_json_streaming_array(const nlohmann::ordered_json& head, std::string_view key,
                                std::size_t count,
                                const std::function<nlohmann::ordered_json(std::size_t)>& item);

// The same, handing the text to `write` in pieces of about 64 KiB.
void write_json_streaming_array(const nlohmann::ordered_json& head, std::string_view key,
                                std::size_t count,
                                const std::function<nlohmann::ordered_json(std::size_t)>& item,
                                const std::function<void(std::string_view)>& write);

}  // namespace gv::util
