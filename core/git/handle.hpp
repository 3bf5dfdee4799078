#pragma once

// Owning handles for libgit2 objects. Only files under core/git/ include this header: everything
// else talks to git through Repo and the Transaction, so raw git_* pointers never escape.

#include <git2.h>

#include <memory>
#include <string>
#include <string_view>

namespace gv::git {

// A stateless deleter, so every handle stays pointer-sized.
template <auto free_fn>
struct Free {
  template <class T>
  void operator()(T* p) const noexcept {
    free_fn(p);
  }
};

using RepositoryPtr = std::unique_ptr<git_repository, Free<&git_repository_free>>;
using CommitPtr = std::unique_ptr<git_commit, Free<&git_commit_free>>;
using TreePtr = std::unique_ptr<git_tree, Free<&git_tree_free>>;
using TreeEntryPtr = std::unique_ptr<git_tree_entry, Free<&git_tree_entry_free>>;
using BlobPtr = std::unique_ptr<git_blob, Free<&git_blob_free>>;
using ObjectPtr = std::unique_ptr<git_object, Free<&git_object_free>>;
using IndexPtr = std::unique_ptr<git_index, Free<&git_index_free>>;
using ReferencePtr = std::unique_ptr<git_reference, Free<&git_reference_free>>;
using RevwalkPtr = std::unique_ptr<git_revwalk, Free<&git_revwalk_free>>;
using StatusListPtr = std::unique_ptr<git_status_list, Free<&git_status_list_free>>;
using ConfigPtr = std::unique_ptr<git_config, Free<&git_config_free>>;
using SignaturePtr = std::unique_ptr<git_signature, Free<&git_signature_free>>;
using OdbPtr = std::unique_ptr<git_odb, Free<&git_odb_free>>;
using DiffPtr = std::unique_ptr<git_diff, Free<&git_diff_free>>;

// git_buf is a value with an inner allocation: dispose it at scope exit.
struct BufScope {
  git_buf buf = GIT_BUF_INIT;
  BufScope() = default;
  ~BufScope() { git_buf_dispose(&buf); }
  BufScope(const BufScope&) = delete;
  BufScope& operator=(const BufScope&) = delete;
  [[nodiscard]] std::string str() const {
    return buf.ptr == nullptr ? std::string{} : std::string(buf.ptr, buf.size);
  }
};

// Throws gv::Error("<doing>: <libgit2's last message>") when rc < 0, or std::bad_alloc when
// libgit2 ran out of memory.
void check(int rc, std::string_view doing);

// libgit2's last error message, or "unknown error".
[[nodiscard]] std::string last_error_message();

[[nodiscard]] std::string to_hex(const git_oid& id);
// Parses 40 hex digits; throws gv::Error naming `what` otherwise.
[[nodiscard]] git_oid from_hex(std::string_view hex, std::string_view what);

}  // namespace gv::git
