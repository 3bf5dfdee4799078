#include "core/git/handle.hpp"

#include "core/error.hpp"
#include "core/util/memory_reserve.hpp"

namespace gv::git {

std::string last_error_message() {
  const git_error* error = git_error_last();
  return error != nullptr && error->message != nullptr ? std::string(error->message)
                                                       : std::string("unknown error");
}

void check(int rc, std::string_view doing) {
  if (rc < 0) {
    // An allocation libgit2 could not make is the process's condition, not the repository's:
    // it ends the command as any other (`git-vault: error: out of memory while …`).
    if (const git_error* error = git_error_last();
        error != nullptr && error->klass == GIT_ERROR_NOMEMORY) {
      util::throw_out_of_memory();
    }
    throw Error("{}: {}", doing, last_error_message());
  }
}

std::string to_hex(const git_oid& id) {
  char hex[GIT_OID_HEXSZ + 1] = {};
  git_oid_tostr(hex, sizeof hex, &id);
  return std::string(hex);
}

git_oid from_hex(std::string_view hex, std::string_view what) {
  git_oid id{};
  if (hex.size() != GIT_OID_HEXSZ || git_oid_fromstrn(&id, hex.data(), hex.size()) < 0) {
    throw Error("{}: not an object id: '{}'", what, hex);
  }
  return id;
}

}  // namespace gv::git
