#!/usr/bin/env bash
# Keeps the layers of doc/architecture.md pointing one way: a file in core/<folder>/ may include
# only core headers of a lower layer (or of its own folder), and the pure layers include no
# file-system, process or libgit2 headers. A new folder must be given a layer here and in
# doc/architecture.md before it builds.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$here"

# Layer of each folder under core/. core/error.hpp is the floor everything may use; "." is the
# rest of core/*.hpp (dates, plan, findings, snapshot entries).
declare -A layer=(
  [error]=0
  [util]=1 [json]=1
  [.]=2 [secrets]=2
  [memory]=3
  [git]=4 [events]=4
  [snapshot]=5
  [scoring]=6
  [vault]=7
  [recall]=8
  [gate]=9 [distill]=9
  [search]=9
  [review]=10 [ci]=10 [setup]=10 [session]=10 [landing]=10 [merge]=10
  [hooks]=11 [agent]=11
  [mcp]=12 [status]=12
)
# Layers that compute on values only: no disk, no processes, no repository.
pure=(memory scoring json merge secrets)

folder_of() {  # core/x/y.hpp -> x ; core/error.hpp -> error ; core/y.hpp -> .
  local rest=${1#core/}
  if [[ $rest == */* ]]; then
    echo "${rest%%/*}"
  elif [[ $rest == error.hpp ]]; then
    echo error
  else
    echo .
  fi
}

status=0
while IFS= read -r file; do
  from=$(folder_of "$file")
  if [[ -z ${layer[$from]+set} ]]; then
    echo "layers: $file: folder core/$from has no layer; add it to tests/layers.sh and doc/architecture.md" >&2
    status=1
    continue
  fi
  while IFS=: read -r line target; do
    to=$(folder_of "$target")
    [[ $to == "$from" ]] && continue
    if [[ -z ${layer[$to]+set} ]]; then
      echo "layers: $file:$line: includes $target from core/$to, which has no layer" >&2
      status=1
    elif ((layer[$to] >= layer[$from])); then
      echo "layers: $file:$line: core/$from (layer ${layer[$from]}) must not include $target (core/$to, layer ${layer[$to]})" >&2
      status=1
    fi
  done < <(grep -noE '^#include "core/[^"]+"' "$file" | sed -E 's/^([0-9]+):#include "(.*)"/\1:\2/')
done < <(find core -name '*.cpp' -o -name '*.hpp' | sort)

for folder in "${pure[@]}"; do
  [[ -d core/$folder ]] || continue
  if hits=$(grep -rnE '^#include <(fstream|filesystem|unistd\.h|fcntl\.h|sys/[a-z]+\.h|git2\.h|git2/.*)>' "core/$folder"); then
    while IFS= read -r hit; do
      echo "layers: $hit: core/$folder is a pure layer (values in, values out; no I/O)" >&2
    done <<<"$hits"
    status=1
  fi
done
exit $status
