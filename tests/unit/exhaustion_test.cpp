#include "core/util/exhaustion.hpp"

#include <catch2/catch.hpp>
#include <string>

namespace exhaustion_test {

using gv::util::Exhausted;
using gv::util::exhausted_in;
using gv::util::fatal_message;

TEST_CASE("a message is read as out of memory or out of room by the system's text", "[errors]") {
  // git-vault's own message for a write, and libgit2's for the index and for an object.
  CHECK(exhausted_in("memory/x.md: cannot write: No space left on device") == Exhausted::disk);
  CHECK(exhausted_in("write the git index: failed to write out file: No space left on device") ==
        Exhausted::disk);
  CHECK(exhausted_in("x: cannot sync: Disk quota exceeded") == Exhausted::disk);
  CHECK(exhausted_in("read the git index: failed to mmap. Could not write data: Cannot allocate "
                     "memory") == Exhausted::memory);
  // What std::filesystem::copy_file said for a copy a full disk cut short: not a full disk by
  // its words (the landing no longer copies that way).
  CHECK(exhausted_in(".git/index: cannot read: Input/output error") == Exhausted::nothing);
  CHECK(exhausted_in("memory/x.md:3: frontmatter is not valid yaml") == Exhausted::nothing);
}

TEST_CASE("the fatal line names what ran out and keeps the message", "[errors]") {
  const std::string message =
      "write the git index: failed to write out file: No space left on "
      "device";
  CHECK(fatal_message(message, "distill", Exhausted::nothing) == message);
  CHECK(fatal_message(message, "distill", Exhausted::disk) ==
        "no space left on device while running git vault distill: " + message);
  CHECK(fatal_message("cannot map: Cannot allocate memory", "hook pre-commit", Exhausted::memory) ==
        "out of memory while running git vault hook pre-commit: cannot map: Cannot allocate "
        "memory (a larger memory limit, `ulimit -v`, lets it finish)");
  CHECK(fatal_message("x", "", Exhausted::disk) ==
        "no space left on device while running git vault (starting): x");
}

TEST_CASE("a file system that cannot be asked is not taken for a full one", "[errors]") {
  CHECK_FALSE(gv::util::file_system_full("/nonexistent/git-vault/path"));
}

}  // namespace exhaustion_test
