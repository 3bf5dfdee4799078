#pragma once

#include <span>
#include <string>

namespace gv {
class Session;
}

namespace gv::hooks {

// The handlers behind the installed shims (`git vault hook <name> …`); `git_args` are the
// arguments git passed to the hook. The repository comes from the session, which opens it from
// git's environment (GIT_DIR, GIT_INDEX_FILE, GIT_WORK_TREE) as git sets it for hooks. Everything
// they print goes to stderr, because git shows a hook's stderr and some callers parse git's
// stdout.

// Runs the commit gate over the index being committed; 1 rejects the commit.
int run_pre_commit(Session& session, std::span<const std::string> git_args);

// Advisory, always 0: regenerates stale index files as one commit and reports duplicated ids.
int run_post_merge(Session& session, std::span<const std::string> git_args);

}  // namespace gv::hooks
