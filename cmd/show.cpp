#include <fmt/format.h>
#include <fmt/ranges.h>

#include <CLI/CLI.hpp>
#include <cstdio>
#include <memory>
#include <nlohmann/json.hpp>

#include "cmd/command.hpp"
#include "core/agent/live_vault.hpp"
#include "core/error.hpp"
#include "core/memory/parse.hpp"
#include "core/session/session.hpp"
#include "core/util/json_output.hpp"
#include "core/util/message.hpp"

namespace gv::cmd {
namespace {

struct Options {
  std::vector<std::string> ids;
  bool record = false;
};

// `MEM-x`, `MEM-x.md` and `.memory/10-Memories/MEM-x.md` all name MEM-x.
std::string id_of(std::string_view argument) {
  if (argument.find('/') != std::string_view::npos || argument.ends_with(".md")) {
    return memory_id_from_path(argument);
  }
  return std::string(argument);
}

// The finding that kept memory `id` out of the vault, when its file exists but does not parse.
const Finding* unreadable_file(const Vault& vault, std::string_view id) {
  const std::string path = memory_path(id);
  for (const Finding& finding : vault.findings) {
    if (finding.severity == Severity::error && finding.path == path) {
      return &finding;
    }
  }
  return nullptr;
}

int run(const Options& options, Session& session) {
  const Clock& clock = session.clock();
  agent::LiveVault live(session.repo(), session.parse_cache());
  live.refresh();

  std::vector<const Memory*> memories;
  std::vector<std::string> unknown;
  for (const std::string& argument : options.ids) {
    const std::string id = id_of(argument);
    const Memory* memory = live.find(id);
    if (memory == nullptr) {
      // A file that is there but cannot be read is named as such, not as an unknown id.
      const Finding* unreadable = unreadable_file(live.vault(), id);
      if (unreadable != nullptr) {
        throw Error(
            "{}:{}: {} cannot be read: {}\nfix the file (`git vault migrate` converts memories "
            "in an older layout), then run the command again",
            unreadable->path, unreadable->line.value_or(1), id, unreadable->message);
      }
      const std::vector<std::string> closest = live.closest_ids(id);
      unknown.push_back(closest.empty() ? fmt::format("`{}`", argument)
                                        : fmt::format("`{}` (did you mean {}?)", argument,
                                                      fmt::join(closest, ", ")));
      continue;
    }
    memories.push_back(memory);
  }
  if (!unknown.empty()) {
    throw Error("no memory {}", fmt::join(unknown, "; "));
  }

  nlohmann::ordered_json out{{"schema", 1}, {"memories", nlohmann::ordered_json::array()}};
  std::string text;
  std::vector<std::string> active;
  for (const Memory* memory : memories) {
    const std::optional<std::string> bytes = live.snapshot().read(memory->path);
    if (!bytes) {
      throw Error("{}: cannot read", memory->path);
    }
    if (session.output().json) {
      out["memories"].push_back(agent::memory_json(*memory, *bytes));
    } else {
      // Like head(1): a header per file only when there are several.
      if (memories.size() > 1) {
        text += fmt::format("{}==> {} <==\n", text.empty() ? "" : "\n", memory->path);
      }
      text += *bytes;
      if (!bytes->empty() && bytes->back() != '\n') {
        text += '\n';
      }
    }
    if (memory->active()) {
      active.push_back(memory->id);
    }
  }
  if (options.record) {
    try {
      live.record(active, clock.today, "show");
    } catch (const Error& e) {
      util::print_warning(fmt::format("retrievals not recorded: {}", e.what()));
    }
  }
  if (session.output().json) {
    util::print_json(out);
  } else {
    session.page();
    std::fputs(text.c_str(), stdout);
  }
  return exit_code::k_ok;
}

}  // namespace

Runner define_show(CLI::App& app) {
  auto options = std::make_shared<Options>();
  app.add_option("ids", options->ids, "Memory ids (MEM-…), file names or paths")->required();
  app.add_flag("--record", options->record,
               "Count a retrieval of every active memory shown (in the retrieval journal inside "
               "the git directory; the work tree is not touched)");
  return [options](const Globals& globals) { return run(*options, *globals.session); };
}

}  // namespace gv::cmd
