#pragma once

#include <string_view>

namespace gv {

// The release this binary is, from CMakeLists.txt's project() version: what `git vault
// --version` prints and the tag (`v` + version) the generated CI workflow pins.
[[nodiscard]] std::string_view version();

}  // namespace gv
