#include <CLI/CLI.hpp>

#include "cmd/command.hpp"
#include "core/error.hpp"

namespace gv::cmd {

Runner define_check(CLI::App& app) {
  (void)app;
  return [](const Globals&) -> int { throw Error("'check' is not available yet"); };
}

}  // namespace gv::cmd
