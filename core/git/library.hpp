#pragma once

namespace gv::git {

// RAII around git_libgit2_init/shutdown; the first local in main so LeakSanitizer stays quiet.
// It also sets the process-wide libgit2 options, once (see library.cpp).
class Library {
 public:
  Library();
  ~Library();
  Library(const Library&) = delete;
  Library& operator=(const Library&) = delete;
};

}  // namespace gv::git
