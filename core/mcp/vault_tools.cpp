#include "core/mcp/vault_tools.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cmath>
#include <initializer_list>
#include <limits>

#include "core/agent/briefing.hpp"
#include "core/agent/context.hpp"
#include "core/agent/learn.hpp"
#include "core/agent/listing.hpp"
#include "core/agent/lookup.hpp"
#include "core/agent/ranked_context.hpp"
#include "core/error.hpp"
#include "core/git/repo.hpp"
#include "core/util/text.hpp"

namespace gv::mcp {
namespace {

using nlohmann::json;
using nlohmann::ordered_json;

constexpr std::int64_t k_default_search_limit = 10;
constexpr std::int64_t k_max_search_limit = 100;
constexpr std::int64_t k_default_list_limit = 100;
constexpr std::int64_t k_max_list_limit = 1000;
constexpr std::int64_t k_default_session_budget = 600;

// The one argument `names` spell (a name and its aliases). Two of them given at once are
// refused by name: taking one and dropping the other would lose what the caller meant.
const json* find_arg(const json& arguments, std::initializer_list<std::string_view> names) {
  const json* value = nullptr;
  std::string_view taken;
  for (const std::string_view name : names) {
    const auto found = arguments.find(std::string(name));
    if (found == arguments.end() || found->is_null()) {
      continue;
    }
    if (value != nullptr) {
      throw ToolInputError(
          fmt::format("`{}` and `{}` name the same argument; give one of them", taken, name));
    }
    value = &*found;
    taken = name;
  }
  return value;
}

std::string names_of(std::initializer_list<std::string_view> names) {
  std::string out;
  for (const std::string_view name : names) {
    out += (out.empty() ? "`" : " or `") + std::string(name) + "`";
  }
  return out;
}

std::optional<std::string> string_arg(const json& arguments,
                                      std::initializer_list<std::string_view> names,
                                      bool required) {
  const json* value = find_arg(arguments, names);
  if (value == nullptr) {
    if (required) {
      throw ToolInputError(fmt::format("missing argument {} (a string)", names_of(names)));
    }
    return std::nullopt;
  }
  if (!value->is_string()) {
    throw ToolInputError(fmt::format("argument {} must be a string", names_of(names)));
  }
  return value->get<std::string>();
}

std::int64_t int_arg(const json& arguments, std::initializer_list<std::string_view> names,
                     std::int64_t fallback, std::int64_t low, std::int64_t high) {
  const json* value = find_arg(arguments, names);
  if (value == nullptr) {
    return fallback;
  }
  std::int64_t number = 0;
  if (value->is_number_integer()) {
    number = value->get<std::int64_t>();
  } else if (value->is_number_float() && value->get<double>() == std::floor(value->get<double>())) {
    number = static_cast<std::int64_t>(value->get<double>());
  } else if (value->is_string() && !value->get<std::string>().empty() &&
             value->get<std::string>().find_first_not_of("0123456789") == std::string::npos &&
             value->get<std::string>().size() < 10) {
    number = std::stoll(value->get<std::string>());
  } else {
    throw ToolInputError(fmt::format("argument {} must be an integer", names_of(names)));
  }
  if (number < low || number > high) {
    throw ToolInputError(
        fmt::format("argument {} must be between {} and {}", names_of(names), low, high));
  }
  return number;
}

bool bool_arg(const json& arguments, std::string_view name, bool fallback) {
  const json* value = find_arg(arguments, {name});
  if (value == nullptr) {
    return fallback;
  }
  if (!value->is_boolean()) {
    throw ToolInputError(fmt::format("argument `{}` must be true or false", name));
  }
  return value->get<bool>();
}

// `id` or `ids`: one string, an array of strings, or a comma-separated string.
std::vector<std::string> ids_arg(const json& arguments) {
  const json* value = find_arg(arguments, {"ids", "id", "memory_id", "memory_ids"});
  std::vector<std::string> ids;
  auto add = [&](std::string_view text) {
    std::size_t start = 0;
    while (start <= text.size()) {
      std::size_t comma = text.find(',', start);
      if (comma == std::string_view::npos) {
        comma = text.size();
      }
      const std::string_view id = util::trim(text.substr(start, comma - start));
      if (!id.empty()) {
        ids.emplace_back(id);
      }
      start = comma + 1;
    }
  };
  if (value != nullptr && value->is_string()) {
    add(value->get<std::string>());
  } else if (value != nullptr && value->is_array()) {
    for (const json& item : *value) {
      if (!item.is_string()) {
        throw ToolInputError("argument `ids` must hold strings");
      }
      add(item.get<std::string>());
    }
  } else if (value != nullptr) {
    throw ToolInputError("argument `ids` must be a string or an array of strings");
  }
  if (ids.empty()) {
    throw ToolInputError("missing argument `id` (a memory id such as MEM-example) or `ids`");
  }
  return ids;
}

std::vector<std::string> keywords_arg(const json& arguments) {
  const json* value = find_arg(arguments, {"keywords", "tags"});
  std::vector<std::string> keywords;
  if (value == nullptr) {
    return keywords;
  }
  auto add = [&](std::string_view text) {
    std::size_t start = 0;
    while (start <= text.size()) {
      std::size_t comma = text.find(',', start);
      if (comma == std::string_view::npos) {
        comma = text.size();
      }
      const std::string_view keyword = util::trim(text.substr(start, comma - start));
      if (!keyword.empty()) {
        keywords.emplace_back(keyword);
      }
      start = comma + 1;
    }
  };
  if (value->is_string()) {
    add(value->get<std::string>());
  } else if (value->is_array()) {
    for (const json& item : *value) {
      if (!item.is_string()) {
        throw ToolInputError("argument `keywords` must hold strings");
      }
      add(item.get<std::string>());
    }
  } else {
    throw ToolInputError("argument `keywords` must be an array of strings");
  }
  return keywords;
}

json property(std::string_view type, std::string_view description) {
  return json{{"type", type}, {"description", description}};
}

json schema(json properties, std::vector<std::string> required = {}) {
  json out{{"type", "object"}, {"properties", std::move(properties)}};
  if (!required.empty()) {
    out["required"] = std::move(required);
  }
  return out;
}

ToolResult json_result(const ordered_json& document) {
  ToolResult result;
  result.text = document.dump(2, ' ', false, ordered_json::error_handler_t::replace);
  result.structured = json::parse(result.text);
  return result;
}

}  // namespace

VaultTools::VaultTools(git::Repo& repo, std::function<ParseCache*()> cache,
                       std::function<Clock()> clock, VaultToolOptions options)
    : m_repo(repo),
      m_clock(std::move(clock)),
      m_options(options),
      m_cache(std::move(cache)),
      m_vault(repo, m_cache) {
  m_vault.watch_for_changes();  // one process, many calls: skip the walk when nothing changed
}

std::string VaultTools::absent_tool_reason(std::string_view name) const {
  if (name == "write_memory" && !m_options.allow_write) {
    return "this server is read-only; writing needs it started as `git vault mcp --allow-write` "
           "(the MCP configuration's command)";
  }
  return {};
}

std::vector<ToolSpec> VaultTools::tools() const {
  const json limit = json{{"type", "integer"},
                          {"minimum", 1},
                          {"maximum", k_max_search_limit},
                          {"default", k_default_search_limit},
                          {"description", "Most results to return"}};
  std::vector<ToolSpec> tools;
  tools.push_back(
      {"search_memories", "Search memories",
       "Search the memory vault (and the working memory: CLAUDE.local.md, registers, archive) "
       "for a query. Ranked by BM25 over title, keywords, topic, summary and body; tombstoned "
       "memories and superseded entries never appear. Returns id, path, line, score, title and "
       "a snippet per hit; read a memory in full with get_memory.",
       schema({{"query", property("string", "Words to look for (required; alias `q`)")},
               {"q", property("string", "Alias of `query`")},
               {"limit", limit},
               {"max_results", property("integer", "Alias of `limit`")},
               {"scope", json{{"type", "string"},
                              {"enum", {"memories", "working", "all"}},
                              {"default", "all"},
                              {"description", "Memories only, working memory only, or both"}}}}),
       true, false, true, false});
  tools.push_back(
      {"get_memory", "Read memories",
       "Read memories and working-memory entries by what search returned: a memory id (e.g. "
       "MEM-requests-retry), a unique start of one, its path, or an entry id (^tr0123456789). "
       "A memory comes with its frontmatter as an object, the Markdown body, token count and "
       "path; an entry with its file, line, tier and heading. An unknown id is answered with "
       "the closest ids." +
           std::string(m_options.record
                           ? " Each read counts as a retrieval in the per-clone journal (never a "
                             "tracked file)."
                           : ""),
       schema({{"id", property("string", "A memory id (alias of `ids`)")},
               {"ids", json{{"type", "array"},
                            {"items", {{"type", "string"}}},
                            {"description", "Memory ids"}}}}),
       true, false, true, false});
  tools.push_back(
      {"build_context", "Build task context",
       "Build the <memory-context> block for a task: the memories search ranks first for it "
       "(at most five and 2,000 tokens) and the working-memory entries that match, or nothing "
       "when nothing is relevant enough. Call it once at the start of a task. With "
       "`session: true`, a short session-start briefing instead (active context, open loops, "
       "decisions in effect, preferences, most-used memories).",
       schema({{"task", property("string", "What the task is about (alias `query`, `q`)")},
               {"query", property("string", "Alias of `task`")},
               {"q", property("string", "Alias of `task`")},
               {"type", property("string",
                                 "Task type: a topic (e.g. neovim); memories of that "
                                 "topic or under it rank higher")},
               {"session", json{{"type", "boolean"},
                                {"default", false},
                                {"description", "Session-start briefing instead of task context"}}},
               {"budget", json{{"type", "integer"},
                               {"minimum", 50},
                               {"maximum", 20000},
                               {"default", k_default_session_budget},
                               {"description", "Token budget of the session briefing"}}}}),
       true, false, true, false});
  tools.push_back(
      {"list_memories", "List memories",
       "List memories with their metadata (title, category, topic, status, dates, retrieval "
       "count including the journal, token count), filtered by category, topic (the topic or "
       "anything under it) and status. `total` counts every match; when more remain than "
       "`limit`, `next_offset` is the `offset` that lists the next page.",
       schema({{"category", property("string", "e.g. PATTERN, CONFIG (case-insensitive)")},
               {"topic", property("string", "A topic path; sub-topics are included")},
               {"status", json{{"type", "string"},
                               {"enum", {"active", "tombstoned", "all"}},
                               {"default", "active"}}},
               {"limit", json{{"type", "integer"},
                              {"minimum", 1},
                              {"maximum", k_max_list_limit},
                              {"default", k_default_list_limit}}},
               {"max_results", property("integer", "Alias of `limit`")},
               {"offset", json{{"type", "integer"},
                               {"minimum", 0},
                               {"default", 0},
                               {"description", "Matches to skip (from `next_offset`)"}}}}),
       true, false, true, false});
  if (m_options.allow_write) {
    tools.push_back(
        {"write_memory", "Write a memory",
         "Create or update a memory from Markdown content. The overlap with existing memories "
         "decides: more than 60% UPDATE (the old content moves to History), 30-60% EXTEND "
         "(an appended section), else CREATE; `as` overrides (`new`, `update:ID`, "
         "`extend:ID`). Lands as one `vault(learn)` commit. Content that looks like a secret "
         "is refused. Use dry_run to see the decision first.",
         schema({{"title", property("string", "The memory's title (required)")},
                 {"content", property("string", "Markdown body (required; alias `body`)")},
                 {"body", property("string", "Alias of `content`")},
                 {"category", property("string",
                                       "TECHNIQUE, PATTERN, CONFIG, WORKFLOW or "
                                       "INSIGHT (inferred when absent)")},
                 {"topic", property("string", "Slash path such as python/libs/requests")},
                 {"keywords", json{{"type", "array"},
                                   {"items", {{"type", "string"}}},
                                   {"description", "Key terms (extracted when absent)"}}},
                 {"summary", property("string", "One line (the first line when absent)")},
                 {"as", property("string", "`new`, `update:ID` or `extend:ID`")},
                 {"dry_run", json{{"type", "boolean"}, {"default", false}}}},
                {"title"}),
         false, true, false, false});
  }
  tools.push_back(
      {"record_retrieval", "Record a retrieval",
       "Count that memories were used, so maintenance keeps them: appends to the per-clone "
       "retrieval journal in the git directory (never a tracked file); the next maintenance "
       "commit folds it into frontmatter.",
       schema({{"id", property("string", "A memory id (alias of `ids`)")},
               {"ids", json{{"type", "array"}, {"items", {{"type", "string"}}}}}}),
       false, false, false, false});
  return tools;
}

ToolResult VaultTools::call(std::string_view name, const nlohmann::json& arguments) {
  const Clock clock = m_clock();
  if (name == "search_memories") {
    // Until a call needs the whole vault, searches rank from the search cache as `git vault
    // search` does: a server whose first calls are searches starts as fast as that command.
    if (m_vault.loaded()) {
      m_vault.refresh();
    } else {
      m_vault.refresh_search(m_cache);
    }
    return search(arguments);
  }
  m_vault.refresh();
  if (name == "get_memory") {
    return get(arguments, clock);
  }
  if (name == "build_context") {
    return context(arguments, clock);
  }
  if (name == "list_memories") {
    return list(arguments);
  }
  if (name == "write_memory" && m_options.allow_write) {
    return write(arguments, clock);
  }
  if (name == "record_retrieval") {
    return record(arguments, clock);
  }
  throw ToolInputError(fmt::format("unknown tool {}", name));
}

ToolResult VaultTools::search(const json& arguments) {
  const std::string query = *string_arg(arguments, {"query", "q"}, true);
  const std::int64_t limit =
      int_arg(arguments, {"limit", "max_results"}, k_default_search_limit, 1, k_max_search_limit);
  const std::string scope_name = string_arg(arguments, {"scope"}, false).value_or("all");
  const std::optional<search::Scope> scope = search::parse_scope(scope_name);
  if (!scope) {
    throw ToolInputError("argument `scope` must be memories, working or all");
  }
  const std::vector<search::Hit> hits = m_vault.index().search(
      query, *scope, static_cast<std::size_t>(limit), m_vault.snapshot(), m_vault.pending_counts());
  ordered_json out{{"query", query}, {"results", ordered_json::array()}};
  for (const search::Hit& hit : hits) {
    out["results"].push_back(agent::hit_json(hit));
  }
  if (hits.empty()) {
    out["message"] = "no memory or working-memory entry matches; try other words";
  }
  return json_result(out);
}

// A read counts as a retrieval, but a journal that cannot be written must not keep the agent
// from what it asked for (doc/agent.md, "Never in the way"): the answer carries a warning.
std::optional<std::string> VaultTools::record_quietly(const std::vector<std::string>& ids,
                                                      const Clock& clock) {
  try {
    m_vault.record(ids, clock.today, "mcp");
  } catch (const Error& e) {
    return fmt::format("retrievals not recorded: {}", e.what());
  }
  return std::nullopt;
}

ToolResult VaultTools::get(const json& arguments, const Clock& clock) {
  const std::vector<std::string> names = ids_arg(arguments);
  std::vector<agent::Found> found;
  try {
    found =
        agent::resolve_names(names, agent::list_memory_ids(m_repo.workdir()), m_vault.snapshot());
  } catch (const Error& e) {
    throw ToolInputError(e.what());
  }
  ordered_json out{{"memories", ordered_json::array()}, {"entries", ordered_json::array()}};
  std::vector<std::string> active;
  for (const agent::Found& item : found) {
    if (item.kind == agent::Found::Kind::entry) {
      const agent::FoundEntry& entry = *item.entry;
      out["entries"].push_back(ordered_json{{"id", entry.id},
                                            {"path", entry.path},
                                            {"line", entry.line},
                                            {"tier", entry.tier},
                                            {"heading", entry.heading},
                                            {"text", entry.text}});
      continue;
    }
    const Memory* memory = m_vault.find(item.memory_id);
    if (memory == nullptr) {
      // A file that is there but cannot be read is not "no memory": say what is wrong with it,
      // which otherwise only a person reading stderr would learn.
      const std::string path = memory_path(item.memory_id);
      const std::vector<Finding>& findings = m_vault.vault().findings;
      const auto broken = std::find_if(findings.begin(), findings.end(), [&](const Finding& f) {
        return f.severity == Severity::error && f.path == path;
      });
      throw ToolInputError(fmt::format(
          "cannot read {}; fix the file (`git vault check` lists what is wrong), then ask again",
          broken == findings.end() ? path
          : broken->line           ? fmt::format("{}:{}: {}", path, *broken->line, broken->message)
                                   : fmt::format("{}: {}", path, broken->message)));
    }
    const std::optional<std::string> bytes = m_vault.snapshot().read(memory->path);
    if (!bytes) {
      throw Error("{}: cannot read", memory->path);
    }
    out["memories"].push_back(agent::memory_json(*memory, *bytes));
    if (memory->active()) {
      active.push_back(memory->id);
    }
  }
  if (m_options.record && !active.empty()) {
    if (std::optional<std::string> warning = record_quietly(active, clock)) {
      out["warning"] = std::move(*warning);
    }
  }
  return json_result(out);
}

ToolResult VaultTools::context(const json& arguments, const Clock& clock) {
  const bool session = bool_arg(arguments, "session", false);
  const std::optional<std::string> task = string_arg(arguments, {"task", "query", "q"}, !session);
  const std::string type = string_arg(arguments, {"type", "task_type"}, false).value_or("");
  if (session) {
    const std::int64_t budget = int_arg(arguments, {"budget"}, k_default_session_budget, 50, 20000);
    const agent::SessionBriefing briefing = agent::session_briefing(
        m_vault.vault().memories, m_vault.snapshot(), clock.today, m_vault.pending(), budget);
    ToolResult result;
    result.text = briefing.text;
    result.structured = json{{"memories", briefing.memories}, {"tokens", briefing.tokens}};
    return result;
  }
  agent::ContextLimits limits;
  limits.task_type = type;
  const agent::RankedContext ranked = agent::select_ranked_context(
      m_vault.index(), m_vault.snapshot(), *task, limits, m_vault.pending_counts());
  ToolResult result;
  json memories = json::array();
  std::vector<std::string> ids;
  for (const agent::ContextMemory& memory : ranked.memories) {
    memories.push_back(json{{"id", memory.id},
                            {"title", memory.title},
                            {"relevance", memory.relevance},
                            {"tokens", memory.tokens}});
    ids.push_back(memory.id);
  }
  json entries = json::array();
  for (const agent::ContextEntry& entry : ranked.entries) {
    entries.push_back(json{{"id", entry.id.empty() ? json(nullptr) : json(entry.id)},
                           {"path", entry.path},
                           {"line", entry.line},
                           {"tier", entry.tier},
                           {"text", entry.text}});
  }
  result.structured = json{{"memories", memories}, {"entries", entries}, {"tokens", ranked.tokens}};
  if (ranked.empty()) {
    result.text = fmt::format(
        "No memory or working-memory entry is relevant enough to this task (terms: {}). Try "
        "search_memories with other words.",
        ranked.terms.empty() ? std::string("none")
                             : fmt::format("{}", fmt::join(ranked.terms, ", ")));
    result.structured["context"] = nullptr;
    return result;
  }
  result.text = agent::render_ranked_context(ranked);
  result.structured["context"] = result.text;
  if (m_options.record && !ids.empty()) {
    if (std::optional<std::string> warning = record_quietly(ids, clock)) {
      result.text += fmt::format("\n\n(warning: {})", *warning);
      result.structured["warning"] = std::move(*warning);
    }
  }
  return result;
}

ToolResult VaultTools::list(const json& arguments) {
  const std::string category = string_arg(arguments, {"category"}, false).value_or("");
  const std::string topic = string_arg(arguments, {"topic"}, false).value_or("");
  agent::ListFilter filter;
  filter.category = category;
  filter.topic = topic;
  filter.status = string_arg(arguments, {"status"}, false).value_or("active");
  if (filter.status != "active" && filter.status != "tombstoned" && filter.status != "all") {
    throw ToolInputError("argument `status` must be active, tombstoned or all");
  }
  const std::int64_t limit =
      int_arg(arguments, {"limit", "max_results"}, k_default_list_limit, 1, k_max_list_limit);
  const std::int64_t offset =
      int_arg(arguments, {"offset"}, 0, 0, std::numeric_limits<std::int32_t>::max());
  const std::vector<agent::ListedMemory> rows =
      agent::list_memories(m_vault.vault().memories, filter, m_vault.pending());
  ordered_json out{{"memories", ordered_json::array()}, {"total", 0}};
  const auto total = static_cast<std::int64_t>(rows.size());
  for (std::int64_t i = offset; i < total && i < offset + limit; ++i) {
    out["memories"].push_back(agent::listed_json(rows[static_cast<std::size_t>(i)]));
  }
  out["total"] = total;
  const std::int64_t shown_to = offset + static_cast<std::int64_t>(out["memories"].size());
  if (shown_to < total) {
    out["next_offset"] = shown_to;
  }
  return json_result(out);
}

ToolResult VaultTools::write(const json& arguments, const Clock& clock) {
  agent::LearnInput input;
  input.title = *string_arg(arguments, {"title"}, true);
  input.content = *string_arg(arguments, {"content", "body", "text"}, true);
  input.category = string_arg(arguments, {"category"}, false).value_or("");
  input.topic = string_arg(arguments, {"topic"}, false);
  input.keywords = keywords_arg(arguments);
  input.summary = string_arg(arguments, {"summary"}, false).value_or("");
  std::optional<agent::LearnOverride> override;
  if (const auto as = string_arg(arguments, {"as"}, false)) {
    try {
      override = agent::parse_learn_override(*as);
    } catch (const UsageError&) {
      // The CLI's message names its flag; a client knows the argument.
      throw ToolInputError(
          fmt::format("argument `as` must be `new`, `update:ID` or `extend:ID`, got `{}`", *as));
    }
  }
  if (input.title.find_first_not_of(" \t") == std::string::npos) {
    throw ToolInputError("argument `title` must not be empty");
  }
  agent::LearnFlags flags;
  flags.dry_run = bool_arg(arguments, "dry_run", false);
  flags.offers_allow_dirty = false;  // a client has no such flag
  const agent::LearnOutcome outcome =
      agent::learn(m_repo, input, override, clock.today, flags, m_cache());
  const agent::LearnDecision& decision = outcome.learned.decision;
  ordered_json out{{"operation", std::string(agent::op_name(decision.op))},
                   {"id", decision.id},
                   {"path", decision.path},
                   {"overridden", decision.overridden},
                   {"dry_run", flags.dry_run},
                   {"commit", outcome.commit ? ordered_json(*outcome.commit) : nullptr},
                   {"key_terms", decision.key_terms},
                   {"matches", ordered_json::array()}};
  for (const agent::OverlapMatch& match : decision.matches) {
    out["matches"].push_back(
        ordered_json{{"id", match.id},
                     {"overlap", match.overlap},
                     {"shared", match.shared},
                     {"recommended", std::string(agent::op_name(match.recommended))}});
  }
  return json_result(out);
}

ToolResult VaultTools::record(const json& arguments, const Clock& clock) {
  const std::vector<std::string> ids = ids_arg(arguments);
  for (const std::string& id : ids) {
    const Memory* memory = m_vault.find(id);
    if (memory == nullptr) {
      const std::vector<std::string> closest = m_vault.closest_ids(id);
      throw ToolInputError(
          closest.empty() ? fmt::format("no memory with id {}; nothing was recorded", id)
                          : fmt::format("no memory with id {} (closest: {}); nothing was recorded",
                                        id, fmt::join(closest, ", ")));
    }
    if (!memory->active()) {
      throw ToolInputError(fmt::format("{} is tombstoned; nothing was recorded", id));
    }
  }
  m_vault.record(ids, clock.today, "mcp");
  return json_result(ordered_json{{"recorded", ids.size()}, {"ids", ids}});
}

}  // namespace gv::mcp
