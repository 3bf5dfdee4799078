#pragma once

#include <string>
#include <string_view>

namespace gv::util {

// `text` as one word of a POSIX shell command line: as it is when it holds only characters no
// shell treats specially, else in single quotes. For the commands a message tells the user to
// run (`git add …`, `git mv …`), which must work when pasted as printed.
[[nodiscard]] std::string shell_word(std::string_view text);

}  // namespace gv::util
