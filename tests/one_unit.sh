#!/usr/bin/env bash
# Compiles the sources of the core and of the subcommands and hooks as one translation unit
# each, syntax only: a name two files of a target both define (in an anonymous namespace, or a
# `using` alias) is an error here, whatever unity batch the build puts the two files in
# (doc/architecture.md, "Building"). A test file cannot clash as long as its code is in the
# namespace named after it, which is checked by name, at no compile cost. Run by tests/lint.sh.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
unwrapped=()
for source in "$here"/tests/unit/*_test.cpp "$here"/tests/e2e/*_test.cpp; do
  stem=$(basename "$source" .cpp)
  grep -qE "^namespace ([a-z_:]+::)?$stem \{\$" "$source" || unwrapped+=("${source#"$here"/}")
done
if ((${#unwrapped[@]})); then
  for source in "${unwrapped[@]}"; do
    echo "one_unit: $source: put the file's code in \`namespace $(basename "$source" .cpp) {\`," \
      "so that its names cannot clash with another test file's in a unity batch" >&2
  done
  exit 1
fi
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
)
flags=(-std=c++20 -fsyntax-only -I"$here" -DFMT_HEADER_ONLY=1 -DGIT_VAULT_VERSION='"0"')
if command -v pkg-config >/dev/null 2>&1; then
  read -ra git2 <<<"$(pkg-config --cflags libgit2 2>/dev/null || true)"
  flags+=(${git2[@]+"${git2[@]}"})
fi

# The two at once, a core each.
pids=()
for target in "${targets[@]}"; do
  name=${target%%:*}
  for source in ${target#*:}; do
    echo "#include \"$here/$source\""
  done >"$work/$name.cpp"
  ("$cxx" "${flags[@]}" "$work/$name.cpp" >"$work/$name.log" 2>&1 || echo "$name" >>"$work/failed") &
  pids+=("$!")
done
wait "${pids[@]}"
if [[ -s $work/failed ]]; then
  while read -r name; do
    grep -m 10 'error:' "$work/$name.log" | sed "s|$work/||" >&2 || true
    echo "one_unit: two files of $name define the same name; rename one, or share it through a" \
      "header (doc/architecture.md, \"Building\")" >&2
  done <"$work/failed"
  exit 1
fi
