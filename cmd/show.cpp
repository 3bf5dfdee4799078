#include <fmt/format.h>
#include <fmt/ranges.h>

#include <CLI/CLI.hpp>
#include <cstdio>
#include <memory>
#include <nlohmann/json.hpp>

#include "cmd/command.hpp"
#include "core/agent/journal.hpp"
#include "core/agent/live_vault.hpp"
#include "core/agent/lookup.hpp"
#include "core/error.hpp"
#include "core/git/repo.hpp"
#include "core/memory/parse.hpp"
#include "core/session/session.hpp"
#include "core/snapshot/worktree_snapshot.hpp"
#include "core/util/json_output.hpp"
#include "core/util/message.hpp"
#include "core/vault/vault.hpp"

namespace gv::cmd {
namespace show_command {

struct Options {
  std::vector<std::string> names;
  bool record = false;
};

nlohmann::ordered_json metadata_json(const recall::Record& record) {
  const auto optional = [](const std::optional<std::string>& value) {
    return value ? nlohmann::ordered_json(*value) : nlohmann::ordered_json(nullptr);
  };
  return nlohmann::ordered_json{{"status", record.status},
                                {"tier", record.tier.empty() ? nlohmann::ordered_json(nullptr)
                                                             : nlohmann::ordered_json(record.tier)},
                                {"created_at", optional(record.created_at)},
                                {"last_reviewed_at", optional(record.last_reviewed_at)},
                                {"pinned", record.pinned},
                                {"snoozed_until", optional(record.snoozed_until)}};
}

// An entry as a person reads it: where it is, the heading it sits under, its lines, and what
// recall's metadata says of it.
std::string render_entry(const agent::FoundEntry& entry) {
  std::string out = fmt::format("{}:{}: [{}] ^{}\n", entry.path, entry.line, entry.tier, entry.id);
  if (!entry.heading.empty()) {
    out += fmt::format("## {}\n", entry.heading);
  }
  out += entry.text + "\n";
  if (entry.metadata) {
    const recall::Record& record = *entry.metadata;
    out += fmt::format("(status {}", record.status);
    if (record.created_at) {
      out += fmt::format(", created {}", *record.created_at);
    }
    if (record.last_reviewed_at) {
      out += fmt::format(", last reviewed {}", *record.last_reviewed_at);
    }
    if (record.pinned) {
      out += ", pinned";
    }
    if (record.snoozed_until) {
      out += fmt::format(", snoozed until {}", *record.snoozed_until);
    }
    out += ")\n";
  }
  return out;
}

int run(const Options& options, Session& session) {
  const git::Repo& repo = session.repo();
  const WorktreeSnapshot snapshot(repo.workdir());
  // Names resolve against the file names alone; only the files shown are read and parsed.
  const std::vector<agent::Found> found =
      agent::resolve_names(options.names, agent::list_memory_ids(repo.workdir()), snapshot);

  nlohmann::ordered_json out{{"schema", 1},
                             {"memories", nlohmann::ordered_json::array()},
                             {"entries", nlohmann::ordered_json::array()}};
  std::string text;
  std::vector<std::string> active;
  const auto header = [&](std::string_view path) {
    // Like head(1): a header per item only when there are several.
    if (found.size() > 1) {
      text += fmt::format("{}==> {} <==\n", text.empty() ? "" : "\n", path);
    }
  };
  for (const agent::Found& item : found) {
    if (item.kind == agent::Found::Kind::entry) {
      const agent::FoundEntry& entry = *item.entry;
      out["entries"].push_back(nlohmann::ordered_json{
          {"id", entry.id},
          {"path", entry.path},
          {"line", entry.line},
          {"tier", entry.tier},
          {"file", entry.file},
          {"heading", entry.heading},
          {"text", entry.text},
          {"metadata", entry.metadata ? metadata_json(*entry.metadata) : nullptr}});
      header(fmt::format("{}:{}", entry.path, entry.line));
      text += render_entry(entry);
      continue;
    }
    const std::string path = memory_path(item.memory_id);
    const std::optional<std::string> bytes = snapshot.read(path);
    if (!bytes) {
      throw Error("{}: cannot read", path);
    }
    const ParsedMemory parsed = parse_memory(path, *bytes, {});
    if (!parsed.memory) {
      // A file that is there but cannot be read is named as such, not as an unknown id.
      const Finding* reason = nullptr;
      for (const Finding& finding : parsed.findings) {
        if (finding.severity == Severity::error) {
          reason = &finding;
          break;
        }
      }
      throw Error(
          "{}:{}: {} cannot be read: {}\nfix the file (`git vault migrate` converts memories "
          "in an older layout), then run the command again",
          path, reason != nullptr ? reason->line.value_or(1) : 1, item.memory_id,
          reason != nullptr ? reason->message : "no frontmatter");
    }
    out["memories"].push_back(agent::memory_json(*parsed.memory, *bytes));
    header(path);
    text += *bytes;
    if (!bytes->empty() && bytes->back() != '\n') {
      text += '\n';
    }
    if (parsed.memory->active()) {
      active.push_back(item.memory_id);
    }
  }
  if (options.record && !active.empty()) {
    try {
      std::vector<agent::RetrievalRecord> records;
      for (const std::string& id : active) {
        records.push_back({id, session.clock().today, "show"});
      }
      agent::append_records(agent::journal_path(repo.common_dir()), records);
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

}  // namespace show_command

Runner define_show(CLI::App& app) {
  using namespace show_command;  // this file's own helpers
  auto options = std::make_shared<Options>();
  app.add_option("names", options->names,
                 "Memory ids (MEM-…), a unique start of one, file names or paths, or "
                 "working-memory entry ids (^tr…)")
      ->required();
  app.add_flag("--record", options->record,
               "Count a retrieval of every active memory shown (in the retrieval journal inside "
               "the git directory; the work tree is not touched)");
  return [options](const Globals& globals) { return run(*options, *globals.session); };
}

}  // namespace gv::cmd
