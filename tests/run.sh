#!/usr/bin/env bash
# Builds git-vault with warnings as errors, AddressSanitizer and UBSan, and runs every test
# (unit and end-to-end) through ctest. SANITIZE=OFF builds without the sanitizers.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
"$here/tests/lint.sh"
build="$here/build-test"
cmake -S "$here" -B "$build" -DCMAKE_BUILD_TYPE=Debug -DGIT_VAULT_WERROR=ON \
  -DGIT_VAULT_SANITIZE="${SANITIZE:-ON}" >/dev/null
cmake --build "$build" -j "$(nproc)"
cd "$build"
ctest --output-on-failure -j "$(nproc)"
