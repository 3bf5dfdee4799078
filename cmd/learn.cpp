#include "core/agent/learn.hpp"

#include <fmt/format.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <sstream>

#include "cmd/action.hpp"
#include "cmd/command.hpp"
#include "core/error.hpp"
#include "core/git/repo.hpp"
#include "core/memory/lines.hpp"
#include "core/session/session.hpp"
#include "core/util/file.hpp"
#include "core/util/json_output.hpp"
#include "core/util/text.hpp"

namespace gv::cmd {
namespace learn_command {

struct Options {
  std::string title;
  std::string category;
  std::optional<std::string> topic;
  std::string keywords;
  std::string summary;
  std::string as;
  std::optional<std::string> text;
  std::string input;  // FILE or `-`
  bool no_commit = false;
  bool dry_run = false;
  bool allow_dirty = false;
};

std::vector<std::string> split_keywords(std::string_view text) {
  std::vector<std::string> keywords;
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
  return keywords;
}

std::string read_stdin() {
  std::ostringstream bytes;
  bytes << std::cin.rdbuf();
  return bytes.str();
}

std::string read_input_file(const std::string& path) {
  std::optional<std::string> bytes = util::read_file_if_exists(path);
  if (!bytes) {
    throw Error("{}: file not found", path);
  }
  return std::move(*bytes);
}

// The keys a `--json` object may hold. Anything else is refused rather than ignored: an agent
// passing `dry_run` would otherwise get a real commit.
constexpr std::array k_json_keys{"title", "content", "body", "text",    "category",
                                 "topic", "summary", "as",   "keywords"};

// `--json` input: one object with the same fields as the flags; flags given on the command line
// win. `source` names the input in messages (a file's path, or `stdin`).
void apply_json_input(std::string_view bytes, const std::string& source, agent::LearnInput& input,
                      std::string& as) {
  nlohmann::json document;
  try {
    document = nlohmann::json::parse(bytes);
  } catch (const nlohmann::json::parse_error& e) {
    // nlohmann counts the byte it stopped at from 1.
    const int line = line_of_offset(bytes, e.byte == 0 ? 0 : e.byte - 1);
    throw UsageError(
        fmt::format("{}:{}: --json: the input is not valid JSON; expected one object such as "
                    "{{\"title\": \"…\", \"content\": \"…\"}}",
                    source, line));
  }
  if (!document.is_object()) {
    throw UsageError(fmt::format(
        "{}: --json: expected one JSON object such as {{\"title\": \"…\", \"content\": \"…\"}}, "
        "not {}",
        source, document.type_name()));
  }
  for (const auto& [key, value] : document.items()) {
    if (std::find(k_json_keys.begin(), k_json_keys.end(), key) == k_json_keys.end()) {
      throw UsageError(fmt::format(
          "{}: --json: unknown key `{}`; the object takes {} (options such as --dry-run are "
          "flags on the command line)",
          source, key, fmt::join(k_json_keys, ", ")));
    }
  }
  auto text = [&](std::initializer_list<const char*> keys) -> std::optional<std::string> {
    for (const char* key : keys) {
      if (const auto found = document.find(key); found != document.end() && !found->is_null()) {
        if (!found->is_string()) {
          throw UsageError("--json: `{}` must be a string", key);
        }
        return found->get<std::string>();
      }
    }
    return std::nullopt;
  };
  if (input.title.empty()) {
    input.title = text({"title"}).value_or("");
  }
  input.content = text({"content", "body", "text"}).value_or("");
  if (input.category.empty()) {
    input.category = text({"category"}).value_or("");
  }
  if (!input.topic) {
    input.topic = text({"topic"});
  }
  if (input.summary.empty()) {
    input.summary = text({"summary"}).value_or("");
  }
  if (as.empty()) {
    as = text({"as"}).value_or("");
  }
  if (input.keywords.empty()) {
    if (const auto found = document.find("keywords"); found != document.end()) {
      if (found->is_string()) {
        input.keywords = split_keywords(found->get<std::string>());
      } else if (found->is_array()) {
        for (const nlohmann::json& item : *found) {
          if (!item.is_string()) {
            throw UsageError("--json: `keywords` must hold strings");
          }
          input.keywords.push_back(item.get<std::string>());
        }
      }
    }
  }
}

// The file a memory's `source` names: its path in the repository when it is in the work tree.
// A file outside it (an agent's temporary file, a download, a note in the author's home) is no
// source a reader of the shared vault can follow, and its name or path would only say where the
// author keeps things: the memory then records `user input`.
std::optional<std::string> recorded_source_path(const git::Repo& repo, const std::string& typed) {
  std::error_code ec;
  const std::filesystem::path file = std::filesystem::weakly_canonical(typed, ec);
  if (ec) {
    return std::nullopt;
  }
  const std::filesystem::path top = std::filesystem::weakly_canonical(repo.workdir(), ec);
  const std::filesystem::path relative = file.lexically_relative(top);
  if (!ec && !relative.empty() && *relative.begin() != ".." && *relative.begin() != ".git") {
    return relative.generic_string();
  }
  return std::nullopt;
}

std::string describe(const agent::LearnDecision& decision) {
  std::string out;
  if (decision.overridden) {
    out += fmt::format("{} {} (chosen with --as)\n", agent::op_name(decision.op), decision.id);
  } else if (decision.op == agent::LearnOp::create && !decision.matches.empty() &&
             agent::reaches_extend(decision.matches.front().overlap)) {
    out += fmt::format("CREATE {} (the closest memory shares one word only)\n", decision.id);
  } else if (decision.op == agent::LearnOp::create) {
    out += fmt::format("CREATE {} (no memory overlaps 30% or more)\n", decision.id);
  } else {
    out += fmt::format("{} {} ({:.0f}% overlap)\n", agent::op_name(decision.op), decision.id,
                       std::floor(decision.matches.front().overlap * 100 + 0.5));
  }
  for (std::size_t i = 0; i < decision.matches.size(); ++i) {
    const agent::OverlapMatch& match = decision.matches[i];
    out += fmt::format("  {}. {} ({:.0f}% overlap) -> Recommended: {}\n", i + 1, match.id,
                       std::floor(match.overlap * 100 + 0.5),
                       match.recommended == agent::LearnOp::create
                           ? std::string("CREATE (no strong match)")
                           : std::string(agent::op_name(match.recommended)));
  }
  return out;
}

int run(const Options& options, Session& session) {
  agent::LearnInput input;
  input.title = options.title;
  input.category = options.category;
  input.topic = options.topic;
  input.keywords = split_keywords(options.keywords);
  input.summary = options.summary;
  std::string as = options.as;

  std::string bytes;
  if (options.text) {
    if (!options.input.empty()) {
      throw UsageError("give the content either with --text or as FILE, not both");
    }
    bytes = *options.text;
  } else if (options.input == "-") {
    // Only when asked: an agent's shell often leaves stdin an open pipe nobody writes to.
    bytes = read_stdin();
  } else if (!options.input.empty()) {
    bytes = read_input_file(options.input);
    input.file = options.input;
    if (const std::optional<std::string> path =
            recorded_source_path(session.repo(), options.input)) {
      input.source = fmt::format("file: {}", *path);
    }
  } else {
    throw UsageError("learn needs content: --text TEXT, a FILE, or `-` for stdin");
  }
  if (session.output().json) {
    apply_json_input(bytes, options.input == "-" ? std::string("stdin") : options.input, input, as);
  } else {
    input.content = std::move(bytes);
  }
  std::optional<agent::LearnOverride> override;
  if (!as.empty()) {
    override = agent::parse_learn_override(as);
  }

  agent::LearnFlags flags;
  flags.commit = !options.no_commit;
  flags.dry_run = options.dry_run;
  flags.allow_dirty = options.allow_dirty;
  // Which of the user's uncommitted vault edits the commit takes, said once it is made.
  std::vector<std::string> dirty;
  if (options.allow_dirty && flags.commit && !flags.dry_run) {
    dirty = session.repo().dirty_paths({".memory/"});
  }
  const agent::LearnOutcome outcome = agent::learn(
      session.repo(), input, override, session.clock().today, flags, session.parse_cache());
  const agent::LearnDecision& decision = outcome.learned.decision;

  if (session.output().json) {
    nlohmann::ordered_json out{
        {"schema", 1},
        {"operation", std::string(agent::op_name(decision.op))},
        {"id", decision.id},
        {"path", decision.path},
        {"overridden", decision.overridden},
        {"dry_run", options.dry_run},
        {"commit", outcome.commit ? nlohmann::ordered_json(*outcome.commit) : nullptr},
        {"key_terms", decision.key_terms},
        {"matches", nlohmann::ordered_json::array()}};
    for (const agent::OverlapMatch& match : decision.matches) {
      out["matches"].push_back(
          nlohmann::ordered_json{{"id", match.id},
                                 {"overlap", match.overlap},
                                 {"shared", match.shared},
                                 {"recommended", std::string(agent::op_name(match.recommended))}});
    }
    util::print_json(out);
    return exit_code::k_ok;
  }
  if (outcome.commit && !session.output().quiet) {
    say_what_allow_dirty_does(dirty, outcome.learned.plan);
  }
  std::string text = describe(decision);
  if (options.dry_run) {
    text += "dry run: nothing was written\n";
  } else if (session.output().quiet) {
    // -q: the decision alone, no commit line (doc/git-vault.1).
  } else if (outcome.commit) {
    // A learned memory has no distill-log entry (doc/agent.md): its commit is what undoes it.
    const std::string commit = outcome.commit->substr(0, 12);
    text += fmt::format("committed {} {}\nUndo with: git vault revert {}\n", commit,
                        outcome.learned.plan.subject, commit);
  } else {
    text += fmt::format("wrote {} (not committed)\n", decision.path);
  }
  std::fputs(text.c_str(), stdout);
  return exit_code::k_ok;
}

}  // namespace learn_command

Runner define_learn(CLI::App& app) {
  using namespace learn_command;  // this file's own helpers
  auto options = std::make_shared<Options>();
  app.add_option("--title", options->title, "The memory's title");
  app.add_option("--category", options->category,
                 "TECHNIQUE, PATTERN, CONFIG, WORKFLOW or INSIGHT (inferred when absent)");
  app.add_option("--topic", options->topic, "Slash path such as python/libs/requests");
  app.add_option("--keywords", options->keywords,
                 "Comma-separated key terms (extracted from the content when absent)");
  app.add_option("--summary", options->summary, "One line (the content's first line when absent)");
  app.add_option("--as", options->as,
                 "Override the overlap classification: new, update:ID or extend:ID");
  app.add_option("--text", options->text, "The content, instead of FILE or stdin");
  app.add_option("input", options->input,
                 "Markdown file with the content, or - for stdin (a JSON object with --json)");
  app.add_flag("--no-commit", options->no_commit,
               "Write the files to the work tree only, without a commit");
  app.add_flag("--dry-run", options->dry_run, "Show the classification; write nothing");
  app.add_flag("--allow-dirty", options->allow_dirty,
               "Commit even while vault paths have uncommitted changes");
  return [options](const Globals& globals) { return run(*options, *globals.session); };
}

}  // namespace gv::cmd
