#include "core/git/merge_base.hpp"

#include <fmt/format.h>

#include <array>
#include <string>
#include <string_view>

#include "core/error.hpp"
#include "core/git/handle.hpp"
#include "core/git/repo.hpp"

namespace gv::git {
namespace {

// The commit `rev` names, or nullopt for any failure: `@{upstream}` on a branch without one
// fails with a plain error rather than GIT_ENOTFOUND, and either way the next guess is tried.
std::optional<std::string> try_resolve(const Repo& repo, const char* rev) {
  git_object* raw_object = nullptr;
  if (git_revparse_single(&raw_object, repo.raw(), rev) < 0) {
    return std::nullopt;
  }
  const ObjectPtr object{raw_object};
  git_object* raw_peeled = nullptr;
  if (git_object_peel(&raw_peeled, object.get(), GIT_OBJECT_COMMIT) < 0) {
    return std::nullopt;
  }
  const ObjectPtr peeled{raw_peeled};
  return to_hex(*git_object_id(peeled.get()));
}

// True when `rev` is `origin/HEAD` and names `branch`'s copy on origin: a clone made with
// `--branch feature` points origin/HEAD there, and it is no default branch then.
bool names_branch_upstream(const Repo& repo, std::string_view rev, const std::string& branch) {
  if (rev != "origin/HEAD") {
    return false;
  }
  git_reference* raw = nullptr;
  if (git_reference_lookup(&raw, repo.raw(), "refs/remotes/origin/HEAD") < 0) {
    return false;
  }
  const ReferencePtr ref{raw};
  const char* target = git_reference_symbolic_target(ref.get());
  return target != nullptr && std::string_view(target) == "refs/remotes/origin/" + branch;
}

}  // namespace

std::optional<std::string> merge_base(const Repo& repo, std::string_view one,
                                      std::string_view two) {
  const git_oid a = from_hex(one, "commit");
  const git_oid b = from_hex(two, "commit");
  // libgit2 1.5 does not know shallow clones: it walks into the parents such a clone does not
  // have, fails there (leaking as it does), so one is refused before the walk.
  if (git_repository_is_shallow(repo.raw()) == 1) {
    throw Error(
        "find the merge base of {} and {}: this is a shallow clone, where history is cut; "
        "fetch the whole history (`git fetch --unshallow`, or `fetch-depth: 0` for "
        "actions/checkout) and run it again",
        one.substr(0, 12), two.substr(0, 12));
  }
  git_oid out{};
  const int rc = git_merge_base(&out, repo.raw(), &a, &b);
  if (rc == GIT_ENOTFOUND) {
    return std::nullopt;
  }
  check(rc, fmt::format("find the merge base of {} and {}", one.substr(0, 12), two.substr(0, 12)));
  return to_hex(out);
}

std::optional<DefaultBase> default_base(const Repo& repo) {
  // The default branch, as a pull request is compared with it. The branch's own upstream is no
  // default: a pushed feature branch would be compared with its own copy and show nothing. It
  // only stands in on the default branch itself, where it shows what is not pushed yet.
  constexpr std::array k_defaults{"origin/HEAD", "main", "master", "origin/main", "origin/master"};
  const std::string branch = repo.head_branch();
  for (const char* rev : k_defaults) {
    if (rev == branch || names_branch_upstream(repo, rev, branch)) {
      continue;  // the branch under review, or its own copy on the remote
    }
    if (auto commit = try_resolve(repo, rev)) {
      return DefaultBase{rev, std::move(*commit)};
    }
  }
  for (const char* rev : {"@{upstream}", "main", "master"}) {
    if (auto commit = try_resolve(repo, rev)) {
      return DefaultBase{rev, std::move(*commit)};
    }
  }
  return std::nullopt;
}

}  // namespace gv::git
