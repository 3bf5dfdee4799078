#include "core/gate/secret_findings.hpp"

#include <fmt/format.h>

#include <optional>

#include "core/recall/files.hpp"
#include "core/recall/metadata.hpp"
#include "core/secrets/detector.hpp"
#include "core/vault/vault.hpp"

namespace gv {

Finding secret_finding(std::string path, int line, std::string_view kind) {
  Finding finding;
  finding.check = "secret";
  finding.severity = Severity::error;
  finding.path = std::move(path);
  finding.line = line;
  finding.message = fmt::format("looks like a secret ({})", kind);
  finding.fix = fmt::format(
      "take it out of the file, and revoke it if it is real (a commit or a push may already "
      "hold it); a documented example gets {} on its line, or on the opening fence of its code "
      "block",
      secrets::k_allow_marker);
  return finding;
}

std::vector<Finding> working_memory_secret_findings(const Snapshot& snapshot) {
  std::vector<std::string> paths;
  for (const recall::ManagedFile& file : recall::list_managed_files(snapshot)) {
    paths.push_back(file.path);
  }
  paths.emplace_back(recall::k_metadata_path);
  paths.emplace_back(vault_path::k_distill_log);
  std::vector<Finding> findings;
  for (const std::string& path : paths) {
    const std::optional<std::string> bytes = snapshot.read(path);
    if (!bytes) {
      continue;
    }
    for (const secrets::SecretFinding& secret : secrets::scan_secrets(*bytes)) {
      findings.push_back(secret_finding(path, secret.line, secret.kind));
    }
  }
  return findings;
}

}  // namespace gv
