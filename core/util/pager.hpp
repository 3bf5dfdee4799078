#pragma once

#include <string>

namespace gv::util {

// Long output on a terminal goes through the user's pager, as git's own commands do. While a
// Pager lives, stdout is a pipe into `/bin/sh -c <command>` (with LESS=FRX and LV=-c unless the
// user set them, so a short output prints and returns at once); its destructor flushes stdout,
// closes the pipe and waits for the pager to quit, so the prompt returns after the reader is done.
// stderr stays on the terminal: errors are never hidden inside the pager.
class Pager {
 public:
  // Starts `command`; a command that cannot start leaves stdout as it was.
  explicit Pager(const std::string& command);
  ~Pager();
  Pager(const Pager&) = delete;
  Pager& operator=(const Pager&) = delete;

 private:
  int m_pid = -1;
};

}  // namespace gv::util
