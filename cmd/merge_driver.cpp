#include <fmt/format.h>

#include <CLI/CLI.hpp>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <memory>
#include <optional>
#include <sstream>
#include <string>

#include "cmd/command.hpp"
#include "core/error.hpp"
#include "core/merge/distill_log_merge.hpp"
#include "core/merge/recall_metadata_merge.hpp"

namespace gv::cmd {
namespace {

// git's placeholders: %O ancestor, %A ours (the result is written here), %B theirs, %P path.
struct Options {
  std::string kind;
  std::string ancestor;
  std::string ours;
  std::string theirs;
  std::string path;
};

std::string read_all(const std::string& file) {
  std::ifstream stream(file, std::ios::binary);
  if (!stream) {
    throw Error("{}: cannot read", file);
  }
  std::ostringstream buffer;
  buffer << stream.rdbuf();
  return buffer.str();
}

void write_all(const std::string& file, const std::string& bytes) {
  std::ofstream stream(file, std::ios::binary | std::ios::trunc);
  stream.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  stream.close();
  if (!stream) {
    throw Error("{}: cannot write", file);
  }
}

int run(const Options& options) {
  if (options.kind == "generated") {
    // Never merged by hand: ours stays, and the post-merge hook regenerates the file from the
    // merged memories.
    return exit_code::k_ok;
  }
  std::optional<std::string> merged;
  if (options.kind == "log") {
    merged = merge::merge_distill_logs(read_all(options.ours), read_all(options.theirs));
  } else if (options.kind == "recall-metadata") {
    merged = merge::merge_recall_metadata(read_all(options.ours), read_all(options.theirs));
  } else {
    throw UsageError("unknown merge driver kind `{}` (known: generated, log, recall-metadata)",
                     options.kind);
  }
  const std::string& shown = options.path.empty() ? options.ours : options.path;
  if (!merged) {
    std::fputs(fmt::format("git-vault: {}: one side is not valid JSON; leaving it to a normal "
                           "conflict\n",
                           shown)
                   .c_str(),
               stderr);
    return exit_code::k_no;
  }
  write_all(options.ours, *merged);
  return exit_code::k_ok;
}

}  // namespace

Runner define_merge_driver(CLI::App& app) {
  auto options = std::make_shared<Options>();
  app.add_option("kind", options->kind, "generated, log or recall-metadata")->required();
  app.add_option("ancestor", options->ancestor, "%O: the common ancestor's version")->required();
  app.add_option("ours", options->ours, "%A: our version; the result is written here")->required();
  app.add_option("theirs", options->theirs, "%B: their version")->required();
  app.add_option("path", options->path, "%P: the path being merged");
  return [options](const Globals&) { return run(*options); };
}

}  // namespace gv::cmd
