#include "core/merge/distill_log_merge.hpp"

#include <algorithm>
#include <cstdint>
#include <map>
#include <nlohmann/json.hpp>
#include <vector>

#include "core/json/parse.hpp"

namespace gv::merge {
namespace {

using Json = nlohmann::ordered_json;

std::optional<Json> parse_log(std::string_view text) {
  auto parsed = json_text::parse<Json>(text);
  Json* const doc_ptr = std::get_if<Json>(&parsed);
  if (doc_ptr == nullptr || !doc_ptr->is_object()) {
    return std::nullopt;  // the driver leaves a conflict for the user
  }
  Json doc = std::move(*doc_ptr);
  const auto operations = doc.find("operations");
  if (operations == doc.end() || !operations->is_array()) {
    return std::nullopt;
  }
  return doc;
}

std::string string_field(const Json& op, const char* key) {
  if (!op.is_object()) {
    return {};
  }
  const auto it = op.find(key);
  return it != op.end() && it->is_string() ? it->get<std::string>() : std::string{};
}

bool has_commit(const Json& op) {
  const auto it = op.find("commit");
  return it != op.end() && it->is_string() && !it->get<std::string>().empty();
}

}  // namespace

std::optional<std::string> merge_distill_logs(std::string_view ours_text,
                                              std::string_view theirs_text,
                                              const distill::SubModeRegistry& sub_modes) {
  std::optional<Json> ours = parse_log(ours_text);
  std::optional<Json> theirs = parse_log(theirs_text);
  if (!ours || !theirs) {
    return std::nullopt;
  }

  std::vector<Json> merged;
  std::map<std::string, std::size_t> by_id;  // id -> position in merged
  const auto add = [&](const Json& op, bool from_theirs) {
    const std::string id = string_field(op, "id");
    if (id.empty()) {
      if (std::find(merged.begin(), merged.end(), op) == merged.end()) {
        merged.push_back(op);
      }
      return;
    }
    const auto found = by_id.find(id);
    if (found == by_id.end()) {
      by_id.emplace(id, merged.size());
      merged.push_back(op);
      return;
    }
    // The same entry on both sides; one of them may have learnt its commit since.
    Json& kept = merged[found->second];
    if (from_theirs && !has_commit(kept) && op.is_object() && has_commit(op)) {
      kept = op;
    }
  };
  for (const Json& op : (*ours)["operations"]) {
    add(op, false);
  }
  for (const Json& op : (*theirs)["operations"]) {
    add(op, true);
  }
  std::stable_sort(merged.begin(), merged.end(), [](const Json& a, const Json& b) {
    const std::string ta = string_field(a, "timestamp");
    const std::string tb = string_field(b, "timestamp");
    if (ta != tb) {
      return ta < tb;
    }
    return string_field(a, "id") < string_field(b, "id");
  });

  Json result = *ours;
  for (const auto& [key, value] : theirs->items()) {
    if (!result.contains(key)) {
      result[key] = value;
    }
  }
  result["operations"] = Json(merged);

  if (!result.contains("summary") || !result["summary"].is_object()) {
    result["summary"] = Json::object();
  }
  Json& summary = result["summary"];
  summary["total_operations"] = static_cast<std::int64_t>(merged.size());
  // The same counters the log keeps when it appends (core/distill/log.cpp).
  for (const auto& [counter, type] : sub_modes.log_counters()) {
    std::int64_t total = 0;
    for (const Json& op : merged) {
      if (string_field(op, "type") == type) {
        const auto affected = op.find("affected_memories");
        if (affected != op.end() && affected->is_array()) {
          total += static_cast<std::int64_t>(affected->size());
        }
      }
    }
    summary[std::string(counter)] = total;
  }
  std::string last;
  for (const Json& op : merged) {
    last = std::max(last, string_field(op, "timestamp"));
  }
  summary["last_operation"] = last.empty() ? Json(nullptr) : Json(last);

  return result.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
}

}  // namespace gv::merge
