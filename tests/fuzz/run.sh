#!/usr/bin/env bash
# Builds the libFuzzer targets with clang (build-fuzz/) and runs each from its corpus in
# tests/fuzz/corpus/<name>.
#
# Two modes:
#   tests/fuzz/run.sh                  the check tests/run.sh (and CI) runs: FUZZ_RUNS inputs
#                                      (default 10000) per target from a fixed seed, so the same
#                                      sources always run the same inputs and a pass or a failure
#                                      is reproducible, never luck
#   FUZZ_SECONDS=600 tests/fuzz/run.sh exploration: each target for that many seconds from a
#                                      random seed (FUZZ_SEED fixes it), to look for new crashes
# New inputs go to a scratch directory; FUZZ_KEEP=1 merges them into the corpus. A crash stops
# the run with the input's path: turn it into a regression test (tests/unit/
# frontmatter_fuzz_regress_test.cpp shows how) and add it to the corpus.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
if ! command -v clang++ >/dev/null; then
  echo "fuzz: clang++ not installed; fuzz targets skipped" >&2
  exit 0
fi
if [ -n "${FUZZ_SECONDS:-}" ]; then
  budget=(-max_total_time="$FUZZ_SECONDS" -seed="${FUZZ_SEED:-0}")
  what="${FUZZ_SECONDS}s"
else
  budget=(-runs="${FUZZ_RUNS:-10000}" -seed="${FUZZ_SEED:-1}")
  what="${FUZZ_RUNS:-10000} runs, seed ${FUZZ_SEED:-1}"
fi
build="$here/build-fuzz"
cmake -S "$here" -B "$build" -DCMAKE_CXX_COMPILER=clang++ -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DGIT_VAULT_FUZZ=ON -DBUILD_TESTING=OFF >/dev/null
targets=(frontmatter recall_entry json_readers frontmatter_edit)
cmake --build "$build" -j "$(nproc)" --target "${targets[@]/#/fuzz_}" >/dev/null
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
for name in "${targets[@]}"; do
  corpus="$here/tests/fuzz/corpus/$name"
  mkdir -p "$scratch/$name" "$scratch/$name-crash"
  echo "fuzz: $name for $what" >&2
  if ! "$build/tests/fuzz/fuzz_$name" "$scratch/$name" "$corpus" "${budget[@]}" \
    -max_len=65536 -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
    -artifact_prefix="$scratch/$name-crash/" >"$scratch/$name.log" 2>&1; then
    tail -40 "$scratch/$name.log" >&2
    mkdir -p "$here/build-fuzz/crashes"
    cp "$scratch/$name-crash/"* "$here/build-fuzz/crashes/" 2>/dev/null || true
    echo "fuzz: $name found a crash; inputs copied to build-fuzz/crashes/" >&2
    exit 1
  fi
  grep -E '^stat::number_of_executed_units' "$scratch/$name.log" | sed "s/^/fuzz: $name /" >&2 || true
  if [ "${FUZZ_KEEP:-0}" = 1 ]; then
    "$build/tests/fuzz/fuzz_$name" -merge=1 "$corpus" "$scratch/$name" >/dev/null 2>&1
  fi
done
