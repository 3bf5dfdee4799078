#pragma once

#include <string_view>

namespace gv::git {

// Fault injection for the crash tests (doc/architecture.md, "Interruptions"). With
// GIT_VAULT_FAULT unset this is a no-op. `GIT_VAULT_FAULT=<n>` kills the process with SIGKILL at
// the n-th fault point it reaches, `GIT_VAULT_FAULT=<name>:<n>` at the n-th point called `name`.
// `GIT_VAULT_FAULT=stop:<name>:<n>` stops the process there with SIGSTOP instead, so a test can
// run a second command against a landing in progress and then let it go on with SIGCONT.
// `GIT_VAULT_FAULT=count` kills nothing and prints, at every point, `git-vault: fault <k> <name>`
// on stderr, so a test can learn how many points a run passes.
void fault_point(std::string_view name);

}  // namespace gv::git
