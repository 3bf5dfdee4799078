#include "core/hooks/diff_driver.hpp"

#include <fmt/format.h>

#include "core/git/hooks_location.hpp"
#include "core/git/repo.hpp"

namespace gv::hooks {
namespace {

std::string textconv_key() { return fmt::format("diff.{}.textconv", k_diff_driver_name); }

}  // namespace

bool configure_diff_driver(git::Repo& repo) {
  if (git::local_config_string(repo, textconv_key()) == k_diff_textconv) {
    return false;
  }
  repo.set_config_string(textconv_key(), k_diff_textconv);
  return true;
}

bool remove_diff_driver(git::Repo& repo) {
  if (!git::local_config_string(repo, textconv_key())) {
    return false;
  }
  git::unset_local_config(repo, textconv_key());
  return true;
}

}  // namespace gv::hooks
