#pragma once

#include <string_view>

// The one message style of git-vault: every diagnostic goes to stderr as
// `git-vault: error: …`, `git-vault: warning: …` or `git-vault: note: …` (doc/architecture.md,
// "Output"). Results go to stdout and never through these.
namespace gv::util {

void print_error(std::string_view message);
void print_warning(std::string_view message);
void print_note(std::string_view message);

}  // namespace gv::util
