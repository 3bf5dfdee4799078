#!/usr/bin/env bash
# Builds git-vault with warnings as errors, AddressSanitizer and UBSan, and runs every test
# (unit and end-to-end, the kill harness and the two-process lock tests included) through
# ctest; then, when clang++ is installed, runs each libFuzzer target for FUZZ_SECONDS (20).
#   SANITIZE=OFF           build without the sanitizers
#   FUZZ=0                 skip the fuzz targets
#   GIT_VAULT_KILL_LONG=1  kill every command at every fault point and kill each recovery too
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
"$here/tests/lint.sh"
build="$here/build-test"
cmake -S "$here" -B "$build" -DCMAKE_BUILD_TYPE=Debug -DGIT_VAULT_WERROR=ON \
  -DGIT_VAULT_SANITIZE="${SANITIZE:-ON}" >/dev/null
cmake --build "$build" -j "$(nproc)"
(cd "$build" && ctest --output-on-failure -j "$(nproc)")
if [ "${FUZZ:-1}" != 0 ]; then
  "$here/tests/fuzz/run.sh"
fi
