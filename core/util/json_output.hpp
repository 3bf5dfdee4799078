#pragma once

#include <nlohmann/json_fwd.hpp>
#include <string>

// The one JSON printer behind every `--json` (doc/architecture.md, "Output"): two-space indent,
// a trailing newline, and bytes that are not UTF-8 replaced by U+FFFD instead of aborting the
// run, because file names and titles come from users and may hold anything.
namespace gv::util {

[[nodiscard]] std::string dump_json(const nlohmann::ordered_json& document);
[[nodiscard]] std::string dump_json(const nlohmann::json& document);

// dump_json written to stdout.
void print_json(const nlohmann::ordered_json& document);
void print_json(const nlohmann::json& document);

}  // namespace gv::util
