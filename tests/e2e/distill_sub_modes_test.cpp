#include <fmt/format.h>

#include <catch2/catch.hpp>

#include "core/distill/sub_mode_registry.hpp"
#include "tests/e2e/sandbox.hpp"

namespace distill_sub_modes_test {

using gv::test::Sandbox;

TEST_CASE("distill offers one flag per sub-mode of the table, with its help",
          "[distill][sub-mode]") {
  Sandbox sandbox;
  const auto help = sandbox.vault({"distill", "-h"});
  REQUIRE(help.code == 0);
  for (const gv::distill::SubModeInfo& row : gv::distill::builtin_sub_modes().rows()) {
    INFO(row.name);
    CHECK_THAT(help.out, Catch::Contains(fmt::format("--{}", row.name)));
    CHECK_THAT(help.out, Catch::Contains(std::string(row.help)));
  }
  const auto two = sandbox.vault({"distill", "--gc", "--purge"});
  CHECK(two.code == 129);
  CHECK_THAT(two.err, Catch::Contains("choose one sub-mode: --purge, --merge, --compress, "
                                      "--refine, --gc, --auto, --revise, --meta, --review, "
                                      "--learn or --dream"));
}

}  // namespace distill_sub_modes_test
