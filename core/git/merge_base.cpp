#include "core/git/merge_base.hpp"

#include <fmt/format.h>

#include <array>

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

}  // namespace

std::optional<std::string> merge_base(const Repo& repo, std::string_view one,
                                      std::string_view two) {
  const git_oid a = from_hex(one, "commit");
  const git_oid b = from_hex(two, "commit");
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
    if (rev == branch) {
      continue;  // the branch under review
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
