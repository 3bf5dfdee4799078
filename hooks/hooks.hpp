#pragma once

#include <span>
#include <string>

namespace gv::hooks {

// The handlers behind the installed shims (`git vault hook <name> …`); `git_args` are the
// arguments git passed to the hook. Everything they print goes to stderr, because git shows a
// hook's stderr and some callers parse git's stdout.

// Runs the commit gate over the index being committed; 1 rejects the commit.
int run_pre_commit(std::span<const std::string> git_args);

// Advisory, always 0: regenerates stale index files as one commit and reports duplicated ids.
int run_post_merge(std::span<const std::string> git_args);

}  // namespace gv::hooks
