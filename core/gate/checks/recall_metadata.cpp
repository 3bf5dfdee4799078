#include <optional>
#include <string>

#include "core/gate/input.hpp"
#include "core/recall/metadata.hpp"

namespace gv::gate_checks {

// metadata.json that no recall command can read: not JSON (a truncated write, an unresolved
// merge) or not an object of records; or one id's record written twice (a textual merge of two
// branches), of which every recall write keeps only the last. Caught here, neither reaches a
// commit.
std::vector<Finding> recall_metadata(GateInput& input) {
  const std::optional<std::string> bytes = input.snapshot().read(recall::k_metadata_path);
  if (!bytes) {
    return {};
  }
  try {
    (void)recall::parse_metadata(*bytes, recall::k_metadata_path);
    std::vector<Finding> findings;
    for (const recall::RepeatedKey& repeated : recall::repeated_keys(*bytes)) {
      Finding finding;
      finding.check = "recall-metadata";
      finding.severity = Severity::error;
      finding.path = std::string(recall::k_metadata_path);
      finding.line = repeated.line;
      finding.id = repeated.key;
      finding.message = recall::repeated_key_message(repeated) +
                        ": recall commands read the last one and their next write drops the other";
      finding.fix =
          "merge the two records into one (a textual merge of metadata.json leaves "
          "this; `git vault init` sets up the merge driver that does not)";
      findings.push_back(std::move(finding));
    }
    return findings;
  } catch (const recall::MetadataError& error) {
    Finding finding;
    finding.check = "recall-metadata";
    finding.severity = Severity::error;
    finding.path = std::string(recall::k_metadata_path);
    finding.line = error.line();
    finding.message = error.problem();
    finding.fix = recall::MetadataError::fix();
    return {finding};
  }
}

}  // namespace gv::gate_checks
