#include "core/mcp/vault_tools.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cmath>
#include <initializer_list>
#include <limits>
#include <set>

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
constexpr std::int64_t k_default_list_limit = 50;
constexpr std::int64_t k_max_list_limit = 200;
constexpr std::int64_t k_default_session_budget = 600;
constexpr std::int64_t k_max_session_budget = 20000;

// What one answer's text may take. Agents cut a tool's output at about 25,000 tokens (Claude
// Code's default), roughly 100 KB of text; answers stop short of that, with a note saying what
// was left out and how to ask for it (doc/agent.md, "Bounded answers").
constexpr std::size_t k_answer_bytes = 80'000;
// Free text a tool takes (a query, a task): longer is refused, not searched.
constexpr std::size_t k_max_text_chars = 10'000;
// A short name: a topic, a task type, a status.
constexpr std::size_t k_max_id_chars = 200;
// What names a memory or an entry (an id, a start of one, a path): the lookup's own bound, so a
// longer one is refused before the closest ids are looked for.
constexpr std::size_t k_max_name_chars = agent::k_max_name_length;
// Ids one get_memory or record_retrieval call takes.
constexpr std::size_t k_max_ids = 20;
// How much of the query search_memories echoes.
constexpr std::size_t k_echoed_query_bytes = 200;
// Per-row fields of a listing: a title or summary longer than this is shortened (`…`).
constexpr std::size_t k_row_title_bytes = 200;
constexpr std::size_t k_row_summary_bytes = 300;

// write_memory's bounds (a memory far past them would not fit any context budget anyway).
constexpr std::size_t k_max_title_chars = 200;
constexpr std::size_t k_max_content_chars = 50'000;
constexpr std::size_t k_max_keywords = 20;
constexpr std::size_t k_max_keyword_chars = 60;

// Unicode characters (what JSON Schema's maxLength counts) in UTF-8 `text`.
std::size_t char_count(std::string_view text) {
  return static_cast<std::size_t>(std::count_if(text.begin(), text.end(), [](char c) {
    return (static_cast<unsigned char>(c) & 0xC0) != 0x80;
  }));
}

// One argument as the caller gave it: its value, and which of its names was used, so that a
// message about it names what the caller wrote (`q`, not `query`).
struct Given {
  const json* value = nullptr;
  std::string_view name;
};

// The one argument `names` spell (a name and its aliases; the first is the argument's own). Two
// of them given at once are refused by name: taking one and dropping the other would lose what
// the caller meant.
Given find_arg(const json& arguments, std::initializer_list<std::string_view> names) {
  Given given;
  for (const std::string_view name : names) {
    const auto found = arguments.find(std::string(name));
    if (found == arguments.end() || found->is_null()) {
      continue;
    }
    if (given.value != nullptr) {
      throw ToolInputError(
          fmt::format("`{}` and `{}` name the same argument; give one of them", given.name, name));
    }
    given = {&*found, name};
  }
  return given;
}

// "`query` (a string; alias `q`)": a missing argument, as the message asking for it names it.
std::string missing_arg(std::initializer_list<std::string_view> names, std::string_view what) {
  std::vector<std::string> aliases;
  for (auto it = names.begin() + 1; it != names.end(); ++it) {
    aliases.push_back(fmt::format("`{}`", *it));
  }
  return fmt::format(
      "missing argument `{}` ({}{})", *names.begin(), what,
      aliases.empty() ? std::string() : fmt::format("; alias {}", fmt::join(aliases, ", ")));
}

std::optional<std::string> string_arg(const json& arguments,
                                      std::initializer_list<std::string_view> names, bool required,
                                      std::size_t max_chars) {
  const Given given = find_arg(arguments, names);
  if (given.value == nullptr) {
    if (required) {
      throw ToolInputError(missing_arg(names, "a string"));
    }
    return std::nullopt;
  }
  if (!given.value->is_string()) {
    throw ToolInputError(fmt::format("argument `{}` must be a string", given.name));
  }
  const std::string& text = given.value->get_ref<const std::string&>();
  if (const std::size_t chars = char_count(text); chars > max_chars) {
    throw ToolInputError(fmt::format("argument `{}` is {} characters long; it takes at most {}",
                                     given.name, chars, max_chars));
  }
  return text;
}

std::int64_t int_arg(const json& arguments, std::initializer_list<std::string_view> names,
                     std::int64_t fallback, std::int64_t low, std::int64_t high) {
  const Given given = find_arg(arguments, names);
  if (given.value == nullptr) {
    return fallback;
  }
  const json& value = *given.value;
  std::int64_t number = 0;
  if (value.is_number_integer()) {
    number = value.get<std::int64_t>();
  } else if (value.is_number_float() && value.get<double>() == std::floor(value.get<double>()) &&
             std::abs(value.get<double>()) < 1e15) {
    number = static_cast<std::int64_t>(value.get<double>());
  } else if (value.is_string() && !value.get<std::string>().empty() &&
             value.get<std::string>().find_first_not_of("0123456789") == std::string::npos &&
             value.get<std::string>().size() < 10) {
    number = std::stoll(value.get<std::string>());
  } else {
    throw ToolInputError(fmt::format("argument `{}` must be an integer", given.name));
  }
  if (number < low || number > high) {
    throw ToolInputError(
        fmt::format("argument `{}` must be between {} and {}", given.name, low, high));
  }
  return number;
}

bool bool_arg(const json& arguments, std::string_view name, bool fallback) {
  const Given given = find_arg(arguments, {name});
  if (given.value == nullptr) {
    return fallback;
  }
  if (!given.value->is_boolean()) {
    throw ToolInputError(fmt::format("argument `{}` must be true or false", name));
  }
  return given.value->get<bool>();
}

// Comma-separated parts of `text`, trimmed, empty ones dropped.
void add_comma_separated(std::string_view text, std::vector<std::string>& out) {
  std::size_t start = 0;
  while (start <= text.size()) {
    std::size_t comma = text.find(',', start);
    if (comma == std::string_view::npos) {
      comma = text.size();
    }
    const std::string_view part = util::trim(text.substr(start, comma - start));
    if (!part.empty()) {
      out.emplace_back(part);
    }
    start = comma + 1;
  }
}

// A list argument: one string, an array of strings, or a comma-separated string; at most
// `max_items` items of at most `max_chars` characters each, duplicates dropped (first kept).
std::vector<std::string> list_arg(const json& arguments,
                                  std::initializer_list<std::string_view> names,
                                  std::size_t max_items, std::size_t max_chars) {
  const Given given = find_arg(arguments, names);
  std::vector<std::string> items;
  if (given.value == nullptr) {
    return items;
  }
  if (given.value->is_string()) {
    add_comma_separated(given.value->get_ref<const std::string&>(), items);
  } else if (given.value->is_array()) {
    for (const json& item : *given.value) {
      if (!item.is_string()) {
        throw ToolInputError(fmt::format("argument `{}` must hold strings", given.name));
      }
      add_comma_separated(item.get_ref<const std::string&>(), items);
    }
  } else {
    throw ToolInputError(
        fmt::format("argument `{}` must be a string or an array of strings", given.name));
  }
  if (items.size() > max_items) {
    throw ToolInputError(fmt::format("argument `{}` holds {} items; it takes at most {}",
                                     given.name, items.size(), max_items));
  }
  for (const std::string& item : items) {
    if (const std::size_t chars = char_count(item); chars > max_chars) {
      throw ToolInputError(
          fmt::format("argument `{}`: `{}` is {} characters long; an item takes at most {}",
                      given.name, util::shorten(item, 40), chars, max_chars));
    }
  }
  std::vector<std::string> unique;
  std::set<std::string> seen;
  for (std::string& item : items) {
    if (seen.insert(item).second) {
      unique.push_back(std::move(item));
    }
  }
  return unique;
}

// `id` or `ids`: what get_memory and record_retrieval read.
std::vector<std::string> ids_arg(const json& arguments) {
  std::vector<std::string> ids = list_arg(arguments, {"ids", "id"}, k_max_ids, k_max_name_chars);
  if (ids.empty()) {
    throw ToolInputError(missing_arg({"ids", "id"}, "memory ids such as MEM-example"));
  }
  return ids;
}

json string_property(std::string_view description, std::size_t max_chars) {
  return json{{"type", "string"}, {"maxLength", max_chars}, {"description", description}};
}

json integer_property(std::string_view description, std::int64_t low, std::int64_t high,
                      std::optional<std::int64_t> fallback) {
  json out{{"type", "integer"}, {"minimum", low}, {"maximum", high}, {"description", description}};
  if (fallback) {
    out["default"] = *fallback;
  }
  return out;
}

json list_property(std::string_view description, std::size_t max_items, std::size_t max_chars) {
  return json{{"type", "array"},
              {"items", {{"type", "string"}, {"maxLength", max_chars}}},
              {"maxItems", max_items},
              {"description", description}};
}

// A tool's input schema: the arguments it takes (aliases included: an argument not listed is
// refused), those it needs, and nothing else.
json schema(json properties, std::vector<std::string> required = {}) {
  return json{{"type", "object"},
              {"properties", std::move(properties)},
              {"required", std::move(required)},
              {"additionalProperties", false}};
}

ToolResult json_result(const ordered_json& document) {
  ToolResult result;
  result.text = document.dump(2, ' ', false, ordered_json::error_handler_t::replace);
  result.structured = json::parse(result.text);
  return result;
}

// What `value` adds to an answer's text when dumped as an item of an array two levels in.
std::size_t item_bytes(const ordered_json& value) {
  const std::string text = value.dump(2, ' ', false, ordered_json::error_handler_t::replace);
  return text.size() + 4 * static_cast<std::size_t>(std::count(text.begin(), text.end(), '\n')) + 8;
}

}  // namespace

std::string server_instructions(const VaultToolOptions& options) {
  std::string text =
      "This server reads the project's memory vault (.memory/) and working memory "
      "(CLAUDE.local.md, registers, archive). At the start of a task, call build_context with "
      "the task; call search_memories to look something up and get_memory to read a memory in "
      "full. ";
  if (options.record) {
    text +=
        "build_context and get_memory count one retrieval of each memory they return: never "
        "call record_retrieval for those. Call record_retrieval only for a memory that helped "
        "and that you read some other way (a search snippet, the file itself).";
  } else {
    text +=
        "Retrievals are not counted on their own here: call record_retrieval once for each "
        "memory that helped.";
  }
  if (options.allow_write) {
    text += " Save durable lessons with write_memory.";
  }
  return text;
}

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

std::string VaultTools::no_vault_note() const {
  if (vault_present(m_repo.workdir())) {
    return {};
  }
  return fmt::format(
      "this repository has no memory vault yet ({} is missing or empty): `git vault init` "
      "creates one{}",
      vault_path::k_root, m_options.allow_write ? ", and write_memory adds memories to it" : "");
}

std::vector<ToolSpec> VaultTools::tools() const {
  const std::string record_note =
      m_options.record ? " Each memory returned counts as one retrieval (once per call, in the "
                         "per-clone journal, never a tracked file): do not also call "
                         "record_retrieval for it."
                       : "";
  std::vector<ToolSpec> tools;
  tools.push_back(
      {"search_memories", "Search memories",
       "Search the memory vault (and the working memory: CLAUDE.local.md, registers, archive) "
       "for a query. Ranked by BM25 over title, keywords, topic, summary and body; tombstoned "
       "memories and superseded entries never appear. Returns id, path, line, score, title and "
       "a snippet per hit; read a memory in full with get_memory.",
       schema({{"query", string_property("Words to look for (alias `q`)", k_max_text_chars)},
               {"q", string_property("Alias of `query`", k_max_text_chars)},
               {"limit", integer_property("Most results to return", 1, k_max_search_limit,
                                          k_default_search_limit)},
               {"max_results",
                integer_property("Alias of `limit`", 1, k_max_search_limit, std::nullopt)},
               {"scope", json{{"type", "string"},
                              {"enum", {"memories", "working", "all"}},
                              {"default", "all"},
                              {"description", "Memories only, working memory only, or both"}}}},
              {"query"}),
       true, false, true, false});
  tools.push_back(
      {"get_memory", "Read memories",
       fmt::format(
           "Read up to {} memories and working-memory entries by what search returned: a memory "
           "id (e.g. MEM-requests-retry), a unique start of one, its path, or an entry id "
           "(^tr0123456789). A memory comes with its frontmatter as an object, the Markdown "
           "body, token count and path; an entry with its file, line, tier and heading. An "
           "unknown id is answered with the closest ids. An answer stops at about {} KB; what "
           "it leaves out is named in `omitted`.{}",
           k_max_ids, k_answer_bytes / 1000, record_note),
       schema({{"ids", list_property("Memory ids, unique starts of one, paths or entry ids (alias "
                                     "`id`: one of them)",
                                     k_max_ids, k_max_name_chars)},
               {"id", string_property("One id (alias of `ids`)", k_max_name_chars)}},
              {"ids"}),
       true, false, true, false});
  tools.push_back(
      {"build_context", "Build task context",
       "Build the <memory-context> block for a task: the memories search ranks first for it "
       "(at most five and 2,000 tokens) and the working-memory entries that match, or nothing "
       "when nothing is relevant enough. Call it once at the start of a task. `task` is "
       "required unless `session` is true: then a short session-start briefing instead (active "
       "context, open loops, decisions in effect, preferences, most-used memories). "
       "structuredContent carries the block as `context`." +
           record_note,
       schema({{"task",
                string_property("What the task is about (alias `query`, `q`)", k_max_text_chars)},
               {"query", string_property("Alias of `task`", k_max_text_chars)},
               {"q", string_property("Alias of `task`", k_max_text_chars)},
               {"type", string_property("Task type: a topic (e.g. neovim); memories of that "
                                        "topic or under it rank higher",
                                        k_max_id_chars)},
               {"session", json{{"type", "boolean"},
                                {"default", false},
                                {"description", "Session-start briefing instead of task context"}}},
               {"budget", integer_property("Token budget of the session briefing", 50,
                                           k_max_session_budget, k_default_session_budget)}}),
       true, false, true, false});
  tools.push_back(
      {"list_memories", "List memories",
       fmt::format(
           "List memories with their metadata (title, category, topic, status, dates, retrieval "
           "count including the journal, token count, summary), filtered by category, topic "
           "(the topic or anything under it) and status. `total` counts every match; when more "
           "remain, `next_offset` is the `offset` that lists the next page. A page stops at "
           "about {} KB, and a long summary is shortened: get_memory reads a memory in full.",
           k_answer_bytes / 1000),
       schema({{"category", string_property("e.g. PATTERN, CONFIG (case-insensitive)", 40)},
               {"topic", string_property("A topic path; sub-topics are included", k_max_id_chars)},
               {"status", json{{"type", "string"},
                               {"enum", {"active", "tombstoned", "all"}},
                               {"default", "active"}}},
               {"limit", integer_property("Most memories to list", 1, k_max_list_limit,
                                          k_default_list_limit)},
               {"max_results",
                integer_property("Alias of `limit`", 1, k_max_list_limit, std::nullopt)},
               {"offset", integer_property("Matches to skip (from `next_offset`)", 0,
                                           std::numeric_limits<std::int32_t>::max(), 0)}}),
       true, false, true, false});
  if (m_options.allow_write) {
    tools.push_back(
        {"write_memory", "Write a memory",
         "Create or update a memory from Markdown content. The overlap with existing memories "
         "decides: more than 60% UPDATE (the old content moves to History), 30-60% EXTEND "
         "(an appended section), else CREATE; `as` overrides (`new`, `update:ID`, "
         "`extend:ID`). Lands as one `vault(learn)` commit. Content that looks like a secret "
         "is refused. Use dry_run to see the decision first.",
         schema(
             {{"title", string_property("The memory's title", k_max_title_chars)},
              {"content", string_property("Markdown body (alias `body`)", k_max_content_chars)},
              {"body", string_property("Alias of `content`", k_max_content_chars)},
              {"category", string_property("TECHNIQUE, PATTERN, CONFIG, WORKFLOW or "
                                           "INSIGHT (inferred when absent)",
                                           40)},
              {"topic", string_property("Slash path such as python/libs/requests", k_max_id_chars)},
              {"keywords", list_property("Key terms (extracted when absent)", k_max_keywords,
                                         k_max_keyword_chars)},
              {"summary", string_property("One line (the first line when absent)", 500)},
              {"as", string_property("`new`, `update:ID` or `extend:ID`", k_max_name_chars + 10)},
              {"dry_run", json{{"type", "boolean"}, {"default", false}}}},
             {"title", "content"}),
         false, true, false, false});
  }
  tools.push_back(
      {"record_retrieval", "Record a retrieval",
       "Count that memories were used, so maintenance keeps them: appends one retrieval per "
       "memory (duplicates count once) to the per-clone retrieval journal in the git directory "
       "(never a tracked file); the next maintenance commit folds it into frontmatter." +
           std::string(m_options.record
                           ? " get_memory and build_context already count what they return: "
                             "use this only for a memory used some other way (a search "
                             "snippet, the file itself)."
                           : ""),
       schema(
           {{"ids", list_property("Memory ids (alias `id`: one id)", k_max_ids, k_max_name_chars)},
            {"id", string_property("A memory id (alias of `ids`)", k_max_name_chars)}},
           {"ids"}),
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
  const std::string query = *string_arg(arguments, {"query", "q"}, true, k_max_text_chars);
  const std::int64_t limit =
      int_arg(arguments, {"limit", "max_results"}, k_default_search_limit, 1, k_max_search_limit);
  const std::string scope_name =
      string_arg(arguments, {"scope"}, false, k_max_id_chars).value_or("all");
  const std::optional<search::Scope> scope = search::parse_scope(scope_name);
  if (!scope) {
    throw ToolInputError("argument `scope` must be memories, working or all");
  }
  const std::vector<search::Hit> hits = m_vault.index().search(
      query, *scope, static_cast<std::size_t>(limit), m_vault.snapshot(), m_vault.pending_counts());
  // The query is echoed so the answer says what it answers, not to hand the caller's text back.
  ordered_json out{{"query", util::shorten(query, k_echoed_query_bytes)},
                   {"results", ordered_json::array()}};
  std::vector<std::string> notes;
  if (query.size() > k_echoed_query_bytes) {
    notes.push_back(fmt::format("`query` is echoed in part (about {} of its {} bytes)",
                                k_echoed_query_bytes, query.size()));
  }
  std::size_t used = 0;
  std::size_t shown = 0;
  for (const search::Hit& hit : hits) {
    ordered_json row = agent::hit_json(hit);
    row["title"] = util::shorten(hit.title, k_row_title_bytes);
    const std::size_t bytes = item_bytes(row);
    if (shown > 0 && used + bytes > k_answer_bytes) {
      break;
    }
    used += bytes;
    ++shown;
    out["results"].push_back(std::move(row));
  }
  if (shown < hits.size()) {
    notes.push_back(fmt::format(
        "{} of {} results shown, to keep this answer under {} KB; search with more words to "
        "narrow it",
        shown, hits.size(), k_answer_bytes / 1000));
  }
  if (hits.empty()) {
    const std::string missing = no_vault_note();
    out["message"] = missing.empty()
                         ? std::string("no memory or working-memory entry matches; try other words")
                         : missing;
  }
  if (!notes.empty()) {
    out["note"] = util::join(notes, "; ");
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

// An id no memory has: what the error says about it (the closest ids, or why there are none).
std::string VaultTools::describe_unknown_id(std::string_view id) const {
  const std::vector<std::string> closest = m_vault.closest_ids(id);
  return closest.empty() ? std::string(id)
                         : fmt::format("{} (closest: {})", id, fmt::join(closest, ", "));
}

ToolResult VaultTools::get(const json& arguments, const Clock& clock) {
  const std::vector<std::string> names = ids_arg(arguments);
  std::vector<agent::Found> found;
  try {
    found =
        agent::resolve_names(names, agent::list_memory_ids(m_repo.workdir()), m_vault.snapshot());
  } catch (const Error& e) {
    const std::string missing = no_vault_note();
    throw ToolInputError(missing.empty() ? std::string(e.what())
                                         : fmt::format("{}: {}", e.what(), missing));
  }
  // Every memory named is checked before any is read, so an answer cut for its size never
  // hides a file that cannot be read.
  std::vector<const Memory*> memories(found.size(), nullptr);
  for (std::size_t i = 0; i < found.size(); ++i) {
    if (found[i].kind == agent::Found::Kind::entry) {
      continue;
    }
    memories[i] = m_vault.find(found[i].memory_id);
    if (memories[i] == nullptr) {
      // A file that is there but cannot be read is not "no memory": say what is wrong with it,
      // which otherwise only a person reading stderr would learn.
      const std::string path = memory_path(found[i].memory_id);
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
  }
  // resolve_names gives each memory and entry once, however many of its names were asked for:
  // one read each, one retrieval each.
  ordered_json out{{"memories", ordered_json::array()}, {"entries", ordered_json::array()}};
  std::vector<std::string> active;
  std::vector<std::string> omitted;
  std::vector<std::string> notes;
  std::size_t used = 0;
  for (std::size_t i = 0; i < found.size(); ++i) {
    const Memory* memory = memories[i];
    const std::string id = memory != nullptr ? memory->id : found[i].entry->id;
    if (!omitted.empty()) {
      omitted.push_back(id);  // in the order asked: the rest is one more call
      continue;
    }
    ordered_json item;
    std::string_view field;  // what is cut when the item alone is larger than an answer
    std::string_view where;
    if (memory == nullptr) {
      const agent::FoundEntry& entry = *found[i].entry;
      item = ordered_json{{"id", entry.id},     {"path", entry.path},       {"line", entry.line},
                          {"tier", entry.tier}, {"heading", entry.heading}, {"text", entry.text}};
      field = "text";
      where = entry.path;
    } else {
      const std::optional<std::string> bytes = m_vault.snapshot().read(memory->path);
      if (!bytes) {
        throw Error("{}: cannot read", memory->path);
      }
      item = agent::memory_json(*memory, *bytes);
      field = "body";
      where = memory->path;
    }
    std::size_t size = item_bytes(item);
    if (used + size > k_answer_bytes && used > 0) {
      omitted.push_back(id);
      continue;
    }
    if (size > k_answer_bytes) {
      // One item larger than a whole answer: its text is cut, and the file named. A quarter is
      // left for what escaping adds to the text in the answer's JSON.
      const std::string text = item[std::string(field)].get<std::string>();
      item[std::string(field)] = "";
      const std::size_t overhead = item_bytes(item);
      const std::size_t room = overhead < k_answer_bytes ? (k_answer_bytes - overhead) * 3 / 4 : 0;
      const std::string_view kept = util::utf8_prefix(text, room);
      item[std::string(field)] = std::string(kept);
      item[fmt::format("{}_cut", field)] = true;
      notes.push_back(fmt::format("{}'s {} is cut after {} of its {} bytes; the rest is in {}", id,
                                  field, kept.size(), text.size(), where));
      size = item_bytes(item);
    }
    used += size;
    if (memory == nullptr) {
      out["entries"].push_back(std::move(item));
    } else {
      out["memories"].push_back(std::move(item));
      if (memory->active()) {
        active.push_back(memory->id);
      }
    }
  }
  if (!omitted.empty()) {
    out["omitted"] = omitted;
    notes.push_back(fmt::format(
        "{} not included, to keep this answer under {} KB; ask for {} in another call",
        fmt::join(omitted, ", "), k_answer_bytes / 1000, omitted.size() == 1 ? "it" : "them"));
  }
  if (m_options.record && !active.empty()) {
    if (std::optional<std::string> warning = record_quietly(active, clock)) {
      out["warning"] = std::move(*warning);
    }
  }
  if (!notes.empty()) {
    out["note"] = util::join(notes, "; ");
  }
  return json_result(out);
}

ToolResult VaultTools::context(const json& arguments, const Clock& clock) {
  const bool session = bool_arg(arguments, "session", false);
  const std::optional<std::string> task =
      string_arg(arguments, {"task", "query", "q"}, !session, k_max_text_chars);
  const std::string type = string_arg(arguments, {"type"}, false, k_max_id_chars).value_or("");
  ToolResult result;
  if (session) {
    const std::int64_t budget =
        int_arg(arguments, {"budget"}, k_default_session_budget, 50, k_max_session_budget);
    const agent::SessionBriefing briefing = agent::session_briefing(
        m_vault.vault().memories, m_vault.snapshot(), clock.today, m_vault.pending(), budget);
    result.text = briefing.text;
    result.structured = json{
        {"context", briefing.text}, {"memories", briefing.memories}, {"tokens", briefing.tokens}};
  } else {
    agent::ContextLimits limits;
    limits.task_type = type;
    const agent::RankedContext ranked = agent::select_ranked_context(
        m_vault.index(), m_vault.snapshot(), *task, limits, m_vault.pending_counts());
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
    result.structured = json{{"memories", memories},
                             {"entries", entries},
                             {"tokens", ranked.tokens},
                             {"context", nullptr}};
    if (ranked.empty()) {
      const std::string missing = no_vault_note();
      result.text =
          missing.empty()
              ? fmt::format(
                    "No memory or working-memory entry is relevant enough to this task "
                    "(terms: {}). Try search_memories with other words.",
                    ranked.terms.empty() ? std::string("none")
                                         : fmt::format("{}", fmt::join(ranked.terms, ", ")))
              : fmt::format("No memory or working-memory entry matches this task: {}.", missing);
      result.structured["message"] = result.text;
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
  }
  // The token budgets count words; a memory of few, very long words still has to fit an answer.
  if (result.text.size() > k_answer_bytes) {
    const std::size_t total = result.text.size();
    result.text = std::string(util::utf8_prefix(result.text, k_answer_bytes));
    result.structured["context"] = result.text;
    result.structured["note"] = fmt::format(
        "the block is cut after {} of its {} bytes, to keep this answer under {} KB; "
        "get_memory reads each memory in full",
        result.text.size(), total, k_answer_bytes / 1000);
    result.text += fmt::format("\n\n(note: {})", result.structured["note"].get<std::string>());
  }
  return result;
}

ToolResult VaultTools::list(const json& arguments) {
  agent::ListFilter filter;
  filter.category = string_arg(arguments, {"category"}, false, 40).value_or("");
  filter.topic = string_arg(arguments, {"topic"}, false, k_max_id_chars).value_or("");
  filter.status = string_arg(arguments, {"status"}, false, k_max_id_chars).value_or("active");
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
  std::size_t used = 0;
  bool full = false;  // the answer reached its size before `limit` rows
  bool shortened = false;
  for (std::int64_t i = offset; i < total && i < offset + limit; ++i) {
    const agent::ListedMemory& listed = rows[static_cast<std::size_t>(i)];
    const Memory& memory = *listed.memory;
    ordered_json row = agent::listed_json(listed);
    if (memory.title.size() > k_row_title_bytes || memory.topic.size() > k_row_title_bytes ||
        memory.summary.size() > k_row_summary_bytes) {
      shortened = true;
      row["title"] = util::shorten(memory.title, k_row_title_bytes);
      row["topic"] = util::shorten(memory.topic, k_row_title_bytes);
      row["summary"] = util::shorten(memory.summary, k_row_summary_bytes);
    }
    const std::size_t bytes = item_bytes(row);
    if (used + bytes > k_answer_bytes && !out["memories"].empty()) {
      full = true;
      break;
    }
    used += bytes;
    out["memories"].push_back(std::move(row));
  }
  out["total"] = total;
  const std::int64_t shown_to = offset + static_cast<std::int64_t>(out["memories"].size());
  std::vector<std::string> notes;
  if (shown_to < total) {
    out["next_offset"] = shown_to;
  }
  if (full) {
    notes.push_back(fmt::format(
        "{} memories listed, fewer than `limit`, to keep this answer under {} KB; call again "
        "with `offset` {} for the next page",
        out["memories"].size(), k_answer_bytes / 1000, shown_to));
  }
  if (shortened) {
    notes.push_back(fmt::format(
        "titles over {} bytes and summaries over {} bytes are shortened (…); get_memory reads "
        "a memory in full",
        k_row_title_bytes, k_row_summary_bytes));
  }
  if (total == 0) {
    if (const std::string missing = no_vault_note(); !missing.empty()) {
      notes.push_back(missing);
    }
  }
  if (!notes.empty()) {
    out["note"] = util::join(notes, "; ");
  }
  return json_result(out);
}

ToolResult VaultTools::write(const json& arguments, const Clock& clock) {
  agent::LearnInput input;
  input.title = *string_arg(arguments, {"title"}, true, k_max_title_chars);
  input.content = *string_arg(arguments, {"content", "body"}, true, k_max_content_chars);
  input.category = string_arg(arguments, {"category"}, false, 40).value_or("");
  input.topic = string_arg(arguments, {"topic"}, false, k_max_id_chars);
  input.keywords = list_arg(arguments, {"keywords"}, k_max_keywords, k_max_keyword_chars);
  input.summary = string_arg(arguments, {"summary"}, false, 500).value_or("");
  std::optional<agent::LearnOverride> override;
  if (const auto as = string_arg(arguments, {"as"}, false, k_max_name_chars + 10)) {
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
      const std::string missing = no_vault_note();
      throw ToolInputError(
          missing.empty()
              ? fmt::format("no memory with id {}; nothing was recorded", describe_unknown_id(id))
              : fmt::format("no memory with id {}: {}; nothing was recorded", id, missing));
    }
    if (!memory->active()) {
      throw ToolInputError(fmt::format("{} is tombstoned; nothing was recorded", id));
    }
  }
  m_vault.record(ids, clock.today, "mcp");
  return json_result(ordered_json{{"recorded", ids.size()}, {"ids", ids}});
}

}  // namespace gv::mcp
