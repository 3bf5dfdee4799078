#!/usr/bin/env bash
# Times `git vault distill --json` on a generated vault of N memories (default 10000), side by
# side with two baselines on the same repository: `git status`, and `wc -w` over every memory
# file (the cost of merely reading the notes once). The vault comes from bench/make_vault;
# bench/run measures every command this way and more.
#   tests/perf/bench_distill.sh [path/to/git-vault] [N]
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
bin=$(realpath "${1:-$here/../../build-release/git-vault}")
count=${2:-10000}
repo=$(mktemp -d)
trap 'rm -rf "$repo"' EXIT

"$here/../../bench/make_vault" "$repo" "$count" --git-vault "$bin"
cd "$repo"
export GIT_VAULT_TODAY=2026-11-30

if command -v hyperfine >/dev/null; then
  hyperfine --warmup 1 --runs 10 -N \
    "git status --porcelain" \
    "sh -c 'cat .memory/10-Memories/*.md | wc -w'" \
    "$bin distill --json"
else
  for command in "git status --porcelain" "$bin distill --json"; do
    start=$(date +%s%N)
    for _ in 1 2 3 4 5; do $command >/dev/null; done
    end=$(date +%s%N)
    echo "$command: $(((end - start) / 5000000)) ms"
  done
fi
