// The diff driver's textconv (`diff.vault-memory.textconv`): git hands it a temporary copy of a
// memory file and diffs what it prints, so frontmatter changes show field by field.
#include <CLI/CLI.hpp>
#include <cstdio>
#include <memory>
#include <string>

#include "cmd/command.hpp"
#include "core/error.hpp"
#include "core/review/frontmatter_fields.hpp"
#include "core/util/file.hpp"

namespace gv::cmd {
namespace diff_text_command {

int run(const std::string& path) {
  const std::string text = review::normalise_for_diff(util::read_file(path));
  std::fwrite(text.data(), 1, text.size(), stdout);
  return exit_code::k_ok;
}

}  // namespace diff_text_command

Runner define_diff_text(CLI::App& app) {
  using namespace diff_text_command;  // this file's own helpers
  auto path = std::make_shared<std::string>();
  app.add_option("file", *path, "The memory file to print normalised")->required();
  return [path](const Globals&) { return run(*path); };
}

}  // namespace gv::cmd
