#!/usr/bin/env bash
# Builds git-vault with warnings as errors, AddressSanitizer and UBSan, and runs every test
# (unit and end-to-end, the kill harness, the two-process lock tests and the MCP session driven
# by the TypeScript SDK client included) through ctest; then, when clang++ is installed, runs
# each libFuzzer target for FUZZ_SECONDS (20; tests/fuzz/run.sh), and builds the .deb and checks
# it as a user would see it (tests/package.sh). Each stage prints its time.
#   SANITIZE=OFF           build without the sanitizers
#   FUZZ=0 PACKAGE=0       leave that stage out
#   LIBCXX=1               also build with clang and libc++ and run the suite there
#                          (tests/libcxx.sh; a second full build, so not by default yet)
#   GIT_VAULT_KILL_LONG=1  kill every command at every fault point and kill each recovery too
# ccache is used when installed (GIT_VAULT_CCACHE=0 turns it off), and Ninja when installed
# (CMAKE_GENERATOR picks another).
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
jobs=$(getconf _NPROCESSORS_ONLN 2>/dev/null || echo 2)
if [[ ${GIT_VAULT_CCACHE:-1} != 0 ]] && command -v ccache >/dev/null 2>&1; then
  export CMAKE_CXX_COMPILER_LAUNCHER=ccache  # CMake's default for every build below
fi
# Ninja when it is there (install.sh installs it), for every new build folder below; one keeps
# the generator it was made with.
if command -v ninja >/dev/null 2>&1; then
  export CMAKE_GENERATOR=${CMAKE_GENERATOR:-Ninja}
fi

stage_start=$SECONDS
stage() {
  echo "tests: $1 ($((SECONDS - stage_start)) s)" >&2
  stage_start=$SECONDS
}

"$here/tests/lint.sh"
stage "lint"
build="$here/build-test"
cmake -S "$here" -B "$build" -DCMAKE_BUILD_TYPE=Debug -DGIT_VAULT_WERROR=ON \
  -DGIT_VAULT_SANITIZE="${SANITIZE:-ON}" >/dev/null
cmake --build "$build" -j "$jobs"
stage "test build (Debug, ASan + UBSan, warnings as errors)"
# The MCP session test drives `git vault mcp` with the official TypeScript SDK client, installed
# here into the build directory (never the repository). Without node, npm or the registry, that
# one test is skipped (ctest shows it as skipped, with the reason in its output).
mcp_sdk_version=1.32.2
mcp_sdk_installed="$build/mcp-sdk/node_modules/@modelcontextprotocol/sdk/package.json"
if ! command -v node >/dev/null 2>&1 || ! command -v npm >/dev/null 2>&1; then
  echo "tests/run.sh: node or npm is not installed; the MCP SDK session test is skipped" >&2
elif ! grep -qs "\"version\": \"$mcp_sdk_version\"" "$mcp_sdk_installed"; then
  mkdir -p "$build/mcp-sdk"
  timeout 300 npm install --prefix "$build/mcp-sdk" --no-save --no-audit --no-fund \
    --prefer-offline --fetch-retries=1 --fetch-timeout=30000 --loglevel=error \
    "@modelcontextprotocol/sdk@$mcp_sdk_version" >/dev/null ||
    echo "tests/run.sh: could not install the MCP SDK (no network?); the SDK session test is" \
      "skipped" >&2
  stage "MCP SDK for the session test (npm)"
fi
# AddressSanitizer cannot start under an address-space limit, so the out-of-memory test runs the
# release build install.sh made from these sources (brought up to date here first), when there is
# one; without it that one test is skipped with a warning.
release="$here/build-release"
if [[ ${SANITIZE:-ON} != OFF && -f $release/CMakeCache.txt ]]; then
  cmake --build "$release" -j "$jobs" --target git-vault >/dev/null
  export GIT_VAULT_UNSANITIZED_BIN="$release/git-vault"
  stage "release build for the out-of-memory test (up to date)"
fi
(cd "$build" && ctest --output-on-failure -j "$jobs")
stage "ctest"
if [ "${FUZZ:-1}" != 0 ]; then
  "$here/tests/fuzz/run.sh"
  stage "fuzz targets"
fi
if [ "${LIBCXX:-0}" != 0 ]; then
  "$here/tests/libcxx.sh"
  stage "clang + libc++ build and suite"
fi
if [ "${PACKAGE:-1}" != 0 ]; then
  "$here/tests/package.sh"
  stage "the .deb"
fi
