#include "core/util/message.hpp"

#include <cstdio>
#include <string>

namespace gv::util {
namespace {

// One write per message, so lines from two processes sharing a terminal never interleave.
void print(std::string_view level, std::string_view message) {
  std::string line = "git-vault: ";
  line += level;
  line += ": ";
  line += message;
  if (line.back() != '\n') {
    line += '\n';
  }
  std::fwrite(line.data(), 1, line.size(), stderr);
}

}  // namespace

void print_error(std::string_view message) { print("error", message); }
void print_warning(std::string_view message) { print("warning", message); }
void print_note(std::string_view message) { print("note", message); }

}  // namespace gv::util
