#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "core/gate/input.hpp"
#include "core/json/parse.hpp"
#include "core/vault/vault.hpp"

namespace gv::gate_checks {

namespace {

Finding log_finding(int line, std::string message) {
  Finding finding;
  finding.check = "distill-log";
  finding.severity = Severity::error;
  finding.path = std::string(vault_path::k_distill_log);
  finding.line = line;
  finding.message = std::move(message);
  finding.fix =
      "take the file back from a commit that has it whole (git checkout HEAD -- "
      ".memory/distill-log.json), or join both sides' `operations` by hand; `git vault hooks "
      "install` sets up the merge driver that joins them";
  return finding;
}

}  // namespace

// A distill log that no distill command can read: not JSON (a truncated write, a merge resolved
// by hand with its markers left in) or without an `operations` array. Every maintenance action,
// `git vault log` and `git vault revert` would refuse until it is mended, so it never reaches a
// commit.
std::vector<Finding> distill_log(GateInput& input) {
  const std::optional<std::string> bytes = input.snapshot().read(vault_path::k_distill_log);
  if (!bytes) {
    return {};
  }
  auto parsed = json_text::parse<nlohmann::json>(*bytes);
  if (const auto* failure = std::get_if<json_text::ParseFailure>(&parsed)) {
    return {log_finding(static_cast<int>(failure->line),
                        "distill log is not valid JSON (" + failure->reason + ")")};
  }
  const nlohmann::json& doc = std::get<nlohmann::json>(parsed);
  if (!doc.is_object() || !doc.contains("operations") || !doc["operations"].is_array()) {
    return {log_finding(1, "distill log has no `operations` array")};
  }
  return {};
}

}  // namespace gv::gate_checks
