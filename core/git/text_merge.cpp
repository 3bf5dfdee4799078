#include "core/git/text_merge.hpp"

#include <git2.h>

#include "core/git/handle.hpp"

namespace gv::git {

TextMerge merge_text(std::string_view ancestor, std::string_view ours, std::string_view theirs,
                     const std::string& path) {
  const auto input = [&](std::string_view bytes) {
    git_merge_file_input file = GIT_MERGE_FILE_INPUT_INIT;
    file.ptr = bytes.data();
    file.size = bytes.size();
    file.path = path.c_str();
    return file;
  };
  const git_merge_file_input base = input(ancestor);
  const git_merge_file_input mine = input(ours);
  const git_merge_file_input other = input(theirs);
  git_merge_file_options options = GIT_MERGE_FILE_OPTIONS_INIT;
  options.ancestor_label = "base";
  options.our_label = "ours";
  options.their_label = "theirs";
  git_merge_file_result result{};
  check(git_merge_file(&result, &base, &mine, &other, &options), "merge " + path);
  TextMerge merged{std::string(result.ptr == nullptr ? "" : result.ptr, result.len),
                   result.automergeable == 0};
  git_merge_file_result_free(&result);
  return merged;
}

}  // namespace gv::git
