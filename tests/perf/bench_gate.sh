#!/usr/bin/env bash
# The pre-commit gate's cost against `git status`, on the same repository: a 10,000-memory vault
# (bench/make_vault), committed and checked once (the state the hook leaves behind), then
# one memory edited, the index regenerated and everything staged. Three timings:
#   one-file change   `git vault check --staged` on that staged change, the cache restored
#                     before every run to what the last commit's check left (the hook's case)
#   repeated          the same command again: the staged vault state is remembered
#   git status        on the same repository
#   tests/perf/bench_gate.sh [path/to/git-vault] [memories]
# Uses hyperfine when installed, else a timing loop.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
bin=${1:-$here/../../build/git-vault}
bin=$(cd "$(dirname "$bin")" && pwd)/$(basename "$bin")
count=${2:-10000}
runs=${RUNS:-30}

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
repo=$work/repo
mkdir -p "$repo"
cd "$repo"
export GIT_VAULT_TODAY=2026-11-30 GIT_CONFIG_NOSYSTEM=1 HOME=$work
git init -q
git config user.email bench@example.com
git config user.name bench

echo "building a $count-memory vault in $repo"
"$here/../../bench/make_vault" "$repo" "$count" --git-vault "$bin"
"$bin" check --staged  # what the pre-commit hook of that commit did: fills the cache
cache=$(git rev-parse --git-common-dir)/git-vault/parse-cache
cp "$cache" "$work/cache-after-commit"

file=$(git ls-files '.memory/10-Memories/MEM-*.md' | sed -n "$((count / 2 + 1))p")
sed -i 's/^title: \(.*\)$/title: "edited"/' "$file"
"$bin" index
git add -A
echo "staged:"; git status --short

one="cp $work/cache-after-commit $cache && $bin check --staged"
again="$bin check --staged"
"$bin" check --staged >/dev/null  # the staged change is valid: the gate must pass
sync; sleep 10  # let the writeback of 10,000 new files finish before timing

if command -v hyperfine >/dev/null; then
  hyperfine -N --warmup 5 --runs "$runs" --export-json "$work/times.json" \
    -n "check --staged, one-file change" "sh -c '$one'" \
    -n "check --staged, repeated" "$again" \
    -n "git status" "git status" >&2
  read -r t_one t_again t_status c_one c_again c_status < <(python3 -c '
import json, sys
r = json.load(open(sys.argv[1]))["results"]
print(*(x["median"] for x in r), *(x["user"] + x["system"] for x in r))' "$work/times.json")
  # The cp inside the first command costs time too; measure it alone and take it off.
  hyperfine -N --warmup 2 --runs "$runs" --export-json "$work/cp.json" \
    "sh -c 'cp $work/cache-after-commit $cache'" >/dev/null 2>&1
  read -r t_cp c_cp < <(python3 -c '
import json, sys
r = json.load(open(sys.argv[1]))["results"][0]
print(r["median"], r["user"] + r["system"])' "$work/cp.json")
else
  timed() {  # median of $runs runs, seconds
    for _ in $(seq "$runs"); do
      local start end
      start=$(date +%s.%N); sh -c "$1" >/dev/null; end=$(date +%s.%N)
      echo "$end - $start" | bc -l
    done | sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'
  }
  t_one=$(timed "$one"); t_again=$(timed "$again"); t_status=$(timed "git status")
  t_cp=$(timed "cp $work/cache-after-commit $cache")
  c_one=0 c_again=0 c_status=0 c_cp=0  # CPU time needs hyperfine
fi

python3 - "$count" "$t_one" "$t_cp" "$t_again" "$t_status" "$c_one" "$c_cp" "$c_again" "$c_status" <<'EOF'
import sys
count, one, cp, again, status, c_one, c_cp, c_again, c_status = map(float, sys.argv[1:])
one -= cp
c_one -= c_cp
def ratio(a, b):
    return f"{a / b:4.1f} x git status" if b > 0 else ""
print(f"\n{int(count)} memories             wall (median)                     CPU (user+sys, mean)")
for name, wall, cpu in (("check, one-file change", one, c_one), ("check, repeated", again, c_again),
                        ("git status", status, c_status)):
    print(f"  {name:24} {wall * 1000:7.1f} ms  {ratio(wall, status):18}  "
          f"{cpu * 1000:7.1f} ms  {ratio(cpu, c_status)}")
EOF
