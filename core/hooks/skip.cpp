#include "core/hooks/skip.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cstdlib>
#include <vector>

#include "core/error.hpp"
#include "core/gate/gate.hpp"

namespace gv::hooks {

GateOptions SkipSpec::gate_options() const {
  GateOptions options;
  options.skip = checks;
  options.skip_all = all;
  return options;
}

SkipSpec parse_skip(std::string_view value, std::span<const GateCheck> checks) {
  SkipSpec spec;
  std::size_t start = 0;
  while (start <= value.size()) {
    std::size_t end = value.find(',', start);
    if (end == std::string_view::npos) {
      end = value.size();
    }
    std::string_view name = value.substr(start, end - start);
    while (!name.empty() && (name.front() == ' ' || name.front() == '\t')) {
      name.remove_prefix(1);
    }
    while (!name.empty() && (name.back() == ' ' || name.back() == '\t')) {
      name.remove_suffix(1);
    }
    if (name == "all") {
      spec.all = true;
    } else if (!name.empty()) {
      if (find_gate_check(checks, name) == nullptr) {
        std::vector<std::string_view> valid;
        for (const GateCheck& check : checks) {
          valid.push_back(check.name);
        }
        std::sort(valid.begin(), valid.end());
        throw UsageError("GIT_VAULT_SKIP: unknown check '{}'; valid checks: {}, all", name,
                         fmt::join(valid, ", "));
      }
      spec.checks.emplace(name);
    }
    start = end + 1;
  }
  return spec;
}

SkipSpec skip_from_environment() {
  const char* value = std::getenv("GIT_VAULT_SKIP");
  return parse_skip(value != nullptr ? value : "");
}

std::string skip_notice(const SkipSpec& spec) {
  if (spec.all) {
    return "git-vault: warning: GIT_VAULT_SKIP=all: every vault check skipped\n";
  }
  if (spec.checks.empty()) {
    return {};
  }
  return fmt::format("git-vault: skipping {} (GIT_VAULT_SKIP)\n", fmt::join(spec.checks, ","));
}

}  // namespace gv::hooks
