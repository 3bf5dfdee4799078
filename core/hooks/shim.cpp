#include "core/hooks/shim.hpp"

#include <fmt/format.h>

#include <algorithm>

namespace gv::hooks {

bool is_known_hook(std::string_view name) {
  return std::find(k_hook_names.begin(), k_hook_names.end(), name) != k_hook_names.end();
}

std::string render_shim(std::string_view name, bool chained) {
  // A blocking hook must fail closed: a gate that silently passes when its binary is missing
  // is how other tools lost data. Advisory hooks only warn.
  const bool blocking = name == "pre-commit";
  std::string out;
  out += "#!/bin/sh\n";
  out += fmt::format("{}\n", k_shim_marker);
  out += "# Installed by `git vault hooks install`; `git vault hooks uninstall` removes it.\n";
  if (chained) {
    out += fmt::format(
        "# The {0} hook that was here before runs first; it is kept as {0}{1}.\n"
        "prior=\"$(dirname -- \"$0\")/{0}{1}\"\n"
        "if [ -x \"$prior\" ]; then\n",
        name, k_backup_suffix);
    if (blocking) {
      out += "  \"$prior\" \"$@\" || exit $?\n";
    } else {
      out += "  \"$prior\" \"$@\"\n";
    }
    out += "fi\n";
  }
  out += "if ! command -v git-vault >/dev/null 2>&1; then\n";
  if (blocking) {
    out += fmt::format(
        "  echo \"git-vault: the {0} hook needs git-vault, which is not on PATH.\" >&2\n"
        "  echo \"git-vault: install it (see its README), or remove this hook with\" >&2\n"
        "  echo \"git-vault:   rm \\\"$0\\\"\" >&2\n"
        "  echo \"git-vault: (git commit --no-verify skips it once).\" >&2\n"
        "  exit 1\n",
        name);
  } else {
    out += fmt::format(
        "  echo \"git-vault: warning: {0} hook skipped: git-vault is not on PATH.\" >&2\n"
        "  exit 0\n",
        name);
  }
  out += "fi\n";
  out += fmt::format("exec git-vault hook {} \"$@\"\n", name);
  return out;
}

bool is_our_shim(std::string_view content) {
  // The marker must be a whole line near the top, not a mention somewhere in a foreign script.
  std::size_t start = 0;
  for (int line = 0; line < 3 && start < content.size(); ++line) {
    std::size_t end = content.find('\n', start);
    if (end == std::string_view::npos) {
      end = content.size();
    }
    std::string_view text = content.substr(start, end - start);
    if (text.ends_with('\r')) {
      text.remove_suffix(1);
    }
    if (text == k_shim_marker) {
      return true;
    }
    start = end + 1;
  }
  return false;
}

}  // namespace gv::hooks
