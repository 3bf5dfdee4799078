#include "core/util/process.hpp"

#include <catch2/catch.hpp>
#include <chrono>
#include <string>

namespace process_test {

using gv::util::run_shell;
using gv::util::ShellResult;
using gv::util::ShellRun;

namespace {

ShellRun shell(std::string command) {
  ShellRun run;
  run.command = std::move(command);
  run.label = "test";
  return run;
}

}  // namespace

TEST_CASE("run_shell feeds stdin and returns both outputs and the exit status", "[process]") {
  ShellRun run = shell("tr a-z A-Z; echo oops >&2; exit 3");
  run.input = "hello\n";
  const ShellResult result = run_shell(run);
  CHECK(result.ending == ShellResult::Ending::exited);
  CHECK(result.status == 3);
  CHECK(result.out == "HELLO\n");
  CHECK(result.err == "oops\n");
}

TEST_CASE("run_shell passes the extra environment", "[process]") {
  ShellRun run = shell("printf %s \"$GV_TEST_VALUE\"");
  run.env = {{"GV_TEST_VALUE", "a b"}};
  CHECK(run_shell(run).out == "a b");
}

TEST_CASE("run_shell stops a command at the deadline or the output limit", "[process]") {
  ShellRun slow = shell("sleep 5 & wait");
  slow.timeout = std::chrono::milliseconds(200);
  CHECK(run_shell(slow).ending == ShellResult::Ending::timed_out);

  ShellRun loud = shell("yes");
  loud.max_output = 4096;
  CHECK(run_shell(loud).ending == ShellResult::Ending::too_much_output);

  const ShellResult killed = run_shell(shell("kill -TERM $$"));
  CHECK(killed.ending == ShellResult::Ending::signaled);
  CHECK(killed.status == 15);
}

TEST_CASE("run_shell survives a command that does not read its input", "[process]") {
  ShellRun run = shell("head -c 3");
  const std::string big(1 << 20, 'x');
  run.input = big;
  const ShellResult result = run_shell(run);
  CHECK(result.ending == ShellResult::Ending::exited);
  CHECK(result.out == "xxx");
}

}  // namespace process_test
