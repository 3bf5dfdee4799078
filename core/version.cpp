#include "core/version.hpp"

// Defined for this one file by CMakeLists.txt, so a version bump recompiles only it.
#ifndef GIT_VAULT_VERSION
#error "GIT_VAULT_VERSION must be defined by the build"
#endif

namespace gv {

std::string_view version() { return GIT_VAULT_VERSION; }

}  // namespace gv
