#include <CLI/CLI.hpp>
#include <memory>
#include <string>

#include "cmd/command.hpp"
#include "core/hooks/merge_driver_run.hpp"

namespace gv::cmd {

Runner define_merge_driver(CLI::App& app) {
  auto kind = std::make_shared<std::string>();
  auto files = std::make_shared<hooks::MergeDriverFiles>();
  app.add_option("kind", *kind, "generated, log, recall-metadata or state")->required();
  // git's placeholders: %O ancestor, %A ours (the result is written here), %B theirs, %P path.
  app.add_option("ancestor", files->ancestor, "%O: the common ancestor's version")->required();
  app.add_option("ours", files->ours, "%A: our version; the result is written here")->required();
  app.add_option("theirs", files->theirs, "%B: their version")->required();
  app.add_option("path", files->path, "%P: the path being merged");
  return [kind, files](const Globals&) { return hooks::run_merge_driver(*kind, *files); };
}

}  // namespace gv::cmd
