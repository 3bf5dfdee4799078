#include "core/hooks/skip.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cstdlib>
#include <vector>

#include "core/error.hpp"
#include "core/gate/gate.hpp"
#include "core/git/repo.hpp"

namespace gv::hooks {

GateOptions SkipSpec::gate_options() const {
  GateOptions options;
  options.skip = checks;
  options.skip_all = all;
  return options;
}

SkipSpec parse_skip(std::string_view value, std::span<const GateCheck> checks,
                    std::string_view source) {
  SkipSpec spec;
  spec.source = source;
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
        throw UsageError("{}: unknown check '{}'; valid checks: {}, all", source, name,
                         fmt::join(valid, ", "));
      }
      spec.checks.emplace(name);
    }
    start = end + 1;
  }
  return spec;
}

SkipSpec skip_from_environment(const git::Repo* repo) {
  if (const char* value = std::getenv("GIT_VAULT_SKIP"); value != nullptr) {
    return parse_skip(value);
  }
  if (repo != nullptr) {
    if (const std::optional<std::string> value = repo->config_string("vault.skip")) {
      return parse_skip(*value, builtin_gate_checks(), "vault.skip");
    }
  }
  return parse_skip("");
}

std::string skip_notice(const SkipSpec& spec) {
  if (spec.all) {
    return fmt::format("git-vault: warning: {}=all: every vault check skipped\n", spec.source);
  }
  if (spec.checks.empty() || spec.source != "GIT_VAULT_SKIP") {
    return {};
  }
  return fmt::format("git-vault: skipping {} (GIT_VAULT_SKIP)\n", fmt::join(spec.checks, ","));
}

}  // namespace gv::hooks
