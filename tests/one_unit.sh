#!/usr/bin/env bash
# Compiles the sources of each target (the core, the subcommands and hooks, each test binary) as
# one translation unit, syntax only: a name two files of a target both define (in an anonymous
# namespace, or a `using` alias) is an error here, whatever unity batch the build puts the two
# files in (doc/architecture.md, "Building"). Run by tests/lint.sh.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cxx=${CXX:-c++}
if ! command -v "$cxx" >/dev/null 2>&1; then
  echo "one_unit: $cxx not installed; not checked" >&2
  exit 0
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# name, then the sources (network_stubs.cpp is a target of its own)
targets=(
  "core:$(cd "$here" && find core -name '*.cpp' ! -name network_stubs.cpp | sort | tr '\n' ' ')"
  "git-vault:$(cd "$here" && find cmd hooks -name '*.cpp' | sort | tr '\n' ' ')"
  "unit_tests:$(cd "$here" && find tests/unit -name '*.cpp' | sort | tr '\n' ' ')"
  "e2e_tests:$(cd "$here" && find tests/e2e -name '*.cpp' | sort | tr '\n' ' ')"
)
flags=(-std=c++20 -fsyntax-only -I"$here" -DFMT_HEADER_ONLY=1 -DGIT_VAULT_VERSION='"0"'
  -DGIT_VAULT_BIN='"git-vault"' -DGIT_VAULT_SOURCE_DIR='"."')
if command -v pkg-config >/dev/null 2>&1; then
  read -ra git2 <<<"$(pkg-config --cflags libgit2 2>/dev/null || true)"
  flags+=(${git2[@]+"${git2[@]}"})
fi

pids=()
for target in "${targets[@]}"; do
  name=${target%%:*}
  for source in ${target#*:}; do
    echo "#include \"$here/$source\""
  done >"$work/$name.cpp"
  "$cxx" "${flags[@]}" "$work/$name.cpp" >"$work/$name.log" 2>&1 &
  pids+=("$!:$name")
  # Two at a time: each takes about a gigabyte and a core.
  if ((${#pids[@]} == 2)); then
    wait "${pids[0]%%:*}" || echo "${pids[0]#*:}" >>"$work/failed"
    pids=("${pids[@]:1}")
  fi
done
for entry in "${pids[@]}"; do
  wait "${entry%%:*}" || echo "${entry#*:}" >>"$work/failed"
done
if [[ -s $work/failed ]]; then
  while read -r name; do
    grep -m 10 'error:' "$work/$name.log" | sed "s|$work/||" >&2 || true
    echo "one_unit: two files of $name define the same name; rename one, or share it through a" \
      "header (doc/architecture.md, \"Building\")" >&2
  done <"$work/failed"
  exit 1
fi
