// Catch2's main, for builds that cannot link the prebuilt one (tests/CMakeLists.txt).
#define CATCH_CONFIG_MAIN
#include <catch2/catch.hpp>
