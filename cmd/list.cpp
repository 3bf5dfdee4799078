#include <fmt/format.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <cstdio>
#include <memory>
#include <nlohmann/json.hpp>

#include "cmd/command.hpp"
#include "core/agent/listing.hpp"
#include "core/agent/live_vault.hpp"
#include "core/error.hpp"
#include "core/session/session.hpp"
#include "core/util/json_output.hpp"
#include "core/util/row_limit.hpp"
#include "core/util/text.hpp"

namespace gv::cmd {
namespace list_command {

struct Options {
  agent::ListFilter filter;
};

int run(const Options& options, Session& session) {
  agent::LiveVault live(session.repo(), session.parse_cache());
  live.refresh();
  const std::vector<agent::ListedMemory> rows =
      agent::list_memories(live.vault().memories, options.filter, live.pending());
  if (session.output().json) {
    nlohmann::ordered_json out{{"schema", 1}, {"memories", nlohmann::ordered_json::array()}};
    for (const agent::ListedMemory& row : rows) {
      out["memories"].push_back(agent::listed_json(row));
    }
    out["total"] = rows.size();
    util::print_json(out);
    return exit_code::k_ok;
  }
  if (rows.empty()) {
    std::fputs("git-vault: no memory matches these filters\n", stderr);
    return exit_code::k_no;
  }
  // Columns as wide as their widest shown value, so ids and categories line up.
  util::RowLimit limit(session.output().limit);
  std::size_t shown = 0;
  std::size_t id_width = 0;
  std::size_t category_width = 0;
  std::size_t topic_width = 0;
  for (const agent::ListedMemory& row : rows) {
    if (!limit.next()) {
      continue;
    }
    ++shown;
    id_width = std::max(id_width, row.memory->id.size());
    category_width = std::max(category_width, row.category.size());
    topic_width = std::max(topic_width, row.memory->topic.size());
  }
  std::string text;
  for (std::size_t i = 0; i < shown; ++i) {
    const agent::ListedMemory& row = rows[i];
    const std::string used = row.retrieval_count == 0
                                 ? "never retrieved"
                                 : util::plural(static_cast<std::size_t>(row.retrieval_count),
                                                "retrieval", "retrievals");
    text += fmt::format("{:<{}}  {:<{}}  {:<{}}  {}{} ({})\n", row.memory->id, id_width,
                        row.category, category_width, row.memory->topic, topic_width,
                        row.memory->title, row.memory->active() ? "" : " [tombstoned]", used);
  }
  text += limit.rest_line();
  session.page();
  std::fputs(text.c_str(), stdout);
  return exit_code::k_ok;
}

}  // namespace list_command

Runner define_list(CLI::App& app) {
  using namespace list_command;  // this file's own helpers
  auto options = std::make_shared<Options>();
  app.add_option("--category", options->filter.category,
                 "Only this category (PATTERN, CONFIG, …; any case)");
  app.add_option("--topic", options->filter.topic, "Only this topic and the topics under it");
  app.add_option("--status", options->filter.status, "active, tombstoned or all")
      ->capture_default_str()
      ->check(CLI::IsMember(std::vector<std::string>{"active", "tombstoned", "all"}));
  return [options](const Globals& globals) { return run(*options, *globals.session); };
}

}  // namespace gv::cmd
