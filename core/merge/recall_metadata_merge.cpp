#include "core/merge/recall_metadata_merge.hpp"

#include <nlohmann/json.hpp>

#include "core/json/parse.hpp"

namespace gv::merge {
namespace {

// nlohmann::json keeps object keys in a std::map, i.e. sorted by bytes, which is the order the
// recall code writes metadata.json in.
using PlainJson = nlohmann::json;

std::string reviewed_at(const PlainJson& record) {
  if (!record.is_object()) {
    return {};
  }
  const auto it = record.find("last_reviewed_at");
  return it != record.end() && it->is_string() ? it->get<std::string>() : std::string{};
}

}  // namespace

std::optional<std::string> merge_recall_metadata(std::string_view ours_text,
                                                 std::string_view theirs_text) {
  std::optional<PlainJson> ours = json_text::parse_object<PlainJson>(ours_text);
  const std::optional<PlainJson> theirs = json_text::parse_object<PlainJson>(theirs_text);
  if (!ours || !theirs) {
    return std::nullopt;
  }
  for (const auto& [id, record] : theirs->items()) {
    const auto mine = ours->find(id);
    if (mine == ours->end()) {
      (*ours)[id] = record;
      continue;
    }
    // ISO-8601 UTC timestamps written the same way compare correctly as strings; a date-only
    // value sorts before any time on that day, which reads it as midnight.
    if (reviewed_at(record) > reviewed_at(*mine)) {
      *mine = record;
    }
  }
  return ours->dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
}

}  // namespace gv::merge
