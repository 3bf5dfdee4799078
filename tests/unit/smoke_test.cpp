#include <catch2/catch.hpp>

#include "core/error.hpp"

namespace smoke_test {

TEST_CASE("errors format their message", "[error]") {
  const gv::Error error("{}:{}: bad", "a.md", 3);
  CHECK(std::string(error.what()) == "a.md:3: bad");
}

}  // namespace smoke_test
