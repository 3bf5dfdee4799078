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
  std::optional<Json> doc = json_text::parse_object<Json>(text);
  if (!doc) {
    return std::nullopt;  // the driver leaves a conflict for the user
  }
  const auto operations = doc->find("operations");
  if (operations == doc->end() || !operations->is_array()) {
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

// One operation as both sides recorded it: equal but for `commit`, which a side may have
// learnt since.
bool same_operation(const Json& a, const Json& b) {
  if (!a.is_object() || !b.is_object()) {
    return a == b;
  }
  Json left = a;
  Json right = b;
  left.erase("commit");
  right.erase("commit");
  return left == right;
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
  std::map<std::string, std::vector<std::size_t>> by_id;  // id -> positions in merged
  const auto add = [&](const Json& op, bool from_theirs) {
    const std::string id = string_field(op, "id");
    if (id.empty()) {
      if (std::find(merged.begin(), merged.end(), op) == merged.end()) {
        merged.push_back(op);
      }
      return;
    }
    std::vector<std::size_t>& places = by_id[id];
    for (const std::size_t at : places) {
      Json& kept = merged[at];
      if (same_operation(kept, op)) {
        // The same entry on both sides; one of them may have learnt its commit since.
        if (from_theirs && !has_commit(kept) && op.is_object() && has_commit(op)) {
          kept = op;
        }
        return;
      }
    }
    // New, or a second action under an id already taken: ids are `distill_<seconds>`, unique
    // only within a branch, so two branches acting in the same second collide. Both entries
    // stay; `git vault log --verify` names the id, and `git vault revert` asks for the commit.
    places.push_back(merged.size());
    merged.push_back(op);
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
