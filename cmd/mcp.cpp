#include <fmt/format.h>
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <cerrno>
#include <csignal>
#include <cstdio>
#include <memory>
#include <string>

#include "cmd/command.hpp"
#include "core/error.hpp"
#include "core/git/repo.hpp"
#include "core/mcp/line_reader.hpp"
#include "core/mcp/server.hpp"
#include "core/mcp/vault_tools.hpp"
#include "core/session/session.hpp"
#include "core/util/message.hpp"

namespace gv::cmd {
namespace mcp_command {

constexpr std::string_view k_version = "0.1.0";

struct Options {
  bool allow_write = false;
  bool no_record = false;
};

int run(const Options& options, Session& session) {
  // A client that goes away mid-answer must end the server quietly, not kill it with SIGPIPE
  // before it can notice.
  std::signal(SIGPIPE, SIG_IGN);
  // One Session serves every request: the repository stays open, the clock moves on.
  git::Repo& repo = session.repo();
  mcp::VaultToolOptions tool_options;
  tool_options.allow_write = options.allow_write;
  tool_options.record = !options.no_record;
  mcp::VaultTools tools(
      repo, [&session] { return session.parse_cache(); },
      [&session] {
        session.begin_request();
        return session.clock();
      },
      tool_options);
  mcp::ServerInfo info;
  info.version = std::string(k_version);
  info.instructions = mcp::server_instructions(tool_options);
  info.description = "The repository's memory vault and working memory, searched and read";
  mcp::Server server(tools, std::move(info));
  if (session.output().verbose) {
    util::print_note(fmt::format("MCP server for {} ready on stdio", repo.workdir().string()));
  }
  // stdin is read with a cap on one line's memory (mcp::Limits): a client that sends a huge
  // line gets an error for it, and the next line is served.
  mcp::LineReader reader(
      [](char* into, std::size_t size) -> std::size_t {
        while (true) {
          const ssize_t count = ::read(STDIN_FILENO, into, size);
          if (count >= 0) {
            return static_cast<std::size_t>(count);
          }
          if (errno != EINTR) {
            return 0;
          }
        }
      },
      server.limits().max_line_bytes);
  while (const std::optional<mcp::InputLine> line = reader.next()) {
    const std::optional<std::string> response =
        line->cut() ? server.handle_oversized_line(line->text, line->tail, line->bytes)
                    : server.handle_line(line->text);
    if (!response) {
      continue;
    }
    std::fwrite(response->data(), 1, response->size(), stdout);
    std::fputc('\n', stdout);
    if (std::fflush(stdout) != 0) {
      return exit_code::k_ok;  // the client closed its end: nothing left to serve
    }
  }
  return exit_code::k_ok;
}

}  // namespace mcp_command

Runner define_mcp(CLI::App& app) {
  using namespace mcp_command;  // this file's own helpers
  auto options = std::make_shared<Options>();
  app.add_flag("--allow-write", options->allow_write,
               "Offer write_memory (creates and updates memories as commits)");
  app.add_flag("--no-record", options->no_record,
               "get_memory and build_context do not count retrievals");
  return [options](const Globals& globals) { return run(*options, *globals.session); };
}

}  // namespace gv::cmd
