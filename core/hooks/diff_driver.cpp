#include "core/hooks/diff_driver.hpp"

#include <fmt/format.h>

#include <optional>
#include <string>

#include "core/error.hpp"
#include "core/git/hooks_location.hpp"
#include "core/git/repo.hpp"
#include "core/hooks/gitattributes.hpp"
#include "core/util/file.hpp"
#include "core/util/process.hpp"

namespace gv::hooks {
namespace {

std::string textconv_key() { return fmt::format("diff.{}.textconv", k_diff_driver_name); }

bool unset_if_set(git::Repo& repo, const std::string& key) {
  if (!git::local_config_string(repo, key)) {
    return false;
  }
  git::unset_local_config(repo, key);
  return true;
}

}  // namespace

std::filesystem::path info_attributes_path(const git::Repo& repo) {
  return repo.common_dir() / "info" / "attributes";
}

DiffDriverState diff_driver_state(const git::Repo& repo) {
  if (!git::local_config_string(repo, textconv_key())) {
    return DiffDriverState::plain;
  }
  return git::local_config_string(repo, std::string(k_diff_opt_in_key)) ? DiffDriverState::rendered
                                                                        : DiffDriverState::legacy;
}

bool configure_diff_driver(git::Repo& repo) {
  bool changed = false;
  if (git::local_config_string(repo, textconv_key()) != k_diff_textconv) {
    repo.set_config_string(textconv_key(), k_diff_textconv);
    changed = true;
  }
  if (git::local_config_string(repo, std::string(k_diff_opt_in_key)) != "true") {
    repo.set_config_string(k_diff_opt_in_key, "true");
    changed = true;
  }
  const std::filesystem::path attributes = info_attributes_path(repo);
  const std::optional<std::string> existing = util::read_file_if_exists(attributes);
  const std::string wanted = with_attribute_line(existing.value_or(""), k_diff_attribute_line);
  if (wanted != existing.value_or("")) {
    std::filesystem::create_directories(attributes.parent_path());
    util::write_file_atomic(attributes, wanted);
    changed = true;
  }
  return changed;
}

bool remove_diff_driver(git::Repo& repo) {
  bool removed = unset_if_set(repo, textconv_key());
  removed = unset_if_set(repo, std::string(k_diff_opt_in_key)) || removed;
  const std::filesystem::path attributes = info_attributes_path(repo);
  if (const std::optional<std::string> existing = util::read_file_if_exists(attributes)) {
    const std::string wanted = without_attribute_line(*existing, k_diff_attribute_line);
    if (wanted != *existing) {
      util::write_file_atomic(attributes, wanted);
      removed = true;
    }
  }
  return removed;
}

bool remove_legacy_diff_driver(git::Repo& repo) {
  if (diff_driver_state(repo) != DiffDriverState::legacy) {
    return false;
  }
  git::unset_local_config(repo, textconv_key());
  return true;
}

void run_rendered_diff(const git::Repo& repo, const std::vector<std::string>& args, bool no_pager) {
  const std::filesystem::path attributes = repo.common_dir() / "git-vault" / "diff-attributes";
  const std::string line = std::string(k_diff_attribute_line) + "\n";
  if (util::read_file_if_exists(attributes) != line && !util::write_cache_file(attributes, line)) {
    throw Error("{}: cannot write", attributes.string());
  }
  std::vector<std::string> argv = {
      "git", "-c", "core.attributesFile=" + attributes.string(), "-c",
      fmt::format("diff.{}.textconv={}", k_diff_driver_name, k_diff_textconv)};
  if (no_pager) {
    argv.emplace_back("--no-pager");
  }
  argv.emplace_back("diff");
  argv.insert(argv.end(), args.begin(), args.end());
  util::exec_program(argv);
}

}  // namespace gv::hooks
