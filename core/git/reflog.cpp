#include "core/git/reflog.hpp"

#include "core/git/handle.hpp"
#include "core/git/repo.hpp"

namespace gv::git {
namespace {

using ReflogPtr = std::unique_ptr<git_reflog, Free<&git_reflog_free>>;

}  // namespace

std::optional<ReflogEntry> newest_head_reflog_entry(const Repo& repo) {
  git_reflog* raw = nullptr;
  check(git_reflog_read(&raw, repo.raw(), "HEAD"), "read HEAD's reflog");
  const ReflogPtr reflog{raw};
  if (git_reflog_entrycount(reflog.get()) == 0) {
    return std::nullopt;
  }
  // Index 0 is the newest entry; it and its fields are borrowed from `reflog`.
  const git_reflog_entry* entry = git_reflog_entry_byindex(reflog.get(), 0);
  if (entry == nullptr) {
    return std::nullopt;
  }
  const char* message = git_reflog_entry_message(entry);
  return ReflogEntry{to_hex(*git_reflog_entry_id_old(entry)),
                     to_hex(*git_reflog_entry_id_new(entry)),
                     message == nullptr ? std::string{} : std::string(message)};
}

}  // namespace gv::git
