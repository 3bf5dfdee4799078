#!/usr/bin/env bash
# Static checks that keep the house in order; run first by tests/run.sh.
#  - every C++ file is formatted with the repository's .clang-format;
#  - the layers of doc/architecture.md point one way (tests/layers.sh);
#  - no two files of a target define the same name, so any unity batch compiles
#    (tests/one_unit.sh).
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$here"
mapfile -t files < <(find cmd core hooks tests -name '*.cpp' -o -name '*.hpp' | sort)
if command -v clang-format >/dev/null; then
  if ! clang-format --dry-run --Werror "${files[@]}" 2>/tmp/git-vault-format.$$; then
    grep -m 20 -E 'warning:|error:' /tmp/git-vault-format.$$ >&2 || true
    rm -f /tmp/git-vault-format.$$
    echo "lint: files are not formatted; run: clang-format -i \$(git ls-files '*.cpp' '*.hpp')" >&2
    exit 1
  fi
  rm -f /tmp/git-vault-format.$$
else
  echo "lint: clang-format not installed; formatting not checked" >&2
fi
"$here/tests/layers.sh"
"$here/tests/one_unit.sh"
