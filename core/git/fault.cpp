#include "core/git/fault.hpp"

#include <fmt/format.h>
#include <signal.h>
#include <unistd.h>

#include <charconv>
#include <cstdio>
#include <cstdlib>
#include <string>

namespace gv::git {
namespace {

struct FaultPlan {
  bool enabled = false;
  bool count_only = false;
  int signal = SIGKILL;
  std::string name;  // empty: any point
  long target = 0;
};

FaultPlan read_plan() {
  FaultPlan plan;
  const char* value = std::getenv("GIT_VAULT_FAULT");
  if (value == nullptr || *value == '\0') {
    return plan;
  }
  const std::string_view text(value);
  if (text == "count") {
    plan.enabled = true;
    plan.count_only = true;
    return plan;
  }
  std::string_view rest = text;
  if (rest.starts_with("stop:")) {
    plan.signal = SIGSTOP;
    rest.remove_prefix(5);
  }
  std::string_view number = rest;
  if (const std::size_t colon = rest.rfind(':'); colon != std::string_view::npos) {
    plan.name = std::string(rest.substr(0, colon));
    number = rest.substr(colon + 1);
  }
  const auto [end, ec] = std::from_chars(number.data(), number.data() + number.size(), plan.target);
  plan.enabled = ec == std::errc{} && end == number.data() + number.size() && plan.target > 0;
  return plan;
}

}  // namespace

void fault_point(std::string_view name) {
  // Read once per process: the plan is a property of the run, like its arguments.
  static const FaultPlan plan = read_plan();
  static long seen = 0;
  if (!plan.enabled || (!plan.name.empty() && plan.name != name)) {
    return;
  }
  ++seen;
  if (plan.count_only) {
    std::fputs(fmt::format("git-vault: fault {} {}\n", seen, name).c_str(), stderr);
    return;
  }
  if (seen == plan.target) {
    std::fflush(nullptr);
    ::kill(::getpid(), plan.signal);
    if (plan.signal == SIGKILL) {
      ::_exit(137);  // not reached
    }
  }
}

}  // namespace gv::git
