#!/usr/bin/env bash
# Builds git-vault and its tests with clang and libc++ instead of g++ and libstdc++
# (build-libcxx/), and runs the suite there, so the code keeps to the standard rather than to
# one library's extensions (the library macOS and the BSDs use). Not sanitized: the sanitized
# suite already ran with g++, and an unsanitized binary starts in a tenth of the time, so the
# whole suite costs about a minute here. Warnings are not errors: clang's differ from g++'s, which
# the sanitized build holds to.
#
# yaml-cpp is a C++ library, and Debian's is built against libstdc++: its source package is
# fetched with `apt-get source` (Debian's own registry) and built with libc++ once, into
# build-libcxx/deps. fmt is used header-only and Catch2's main is compiled here, for the same
# reason; libgit2 and the other C libraries link as they are.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
jobs=$(getconf _NPROCESSORS_ONLN 2>/dev/null || echo 2)
build="$here/build-libcxx"
deps="$build/deps"
note() { echo "libcxx: $*" >&2; }

if ! command -v clang++ >/dev/null || ! echo '#include <version>' |
  clang++ -stdlib=libc++ -x c++ -fsyntax-only - 2>/dev/null; then
  note "clang++ with libc++ not installed (clang libc++-14-dev libc++abi-14-dev); skipped"
  exit 0
fi
export CXX=clang++ CXXFLAGS="-stdlib=libc++" LDFLAGS="-stdlib=libc++"

if [[ ! -f $deps/.done ]]; then
  mkdir -p "$build/apt/lists/partial" "$build/yaml-cpp"
  # A source list of its own, so that the machine's apt configuration stays as it is.
  echo "deb-src http://deb.debian.org/debian bookworm main" >"$build/apt/sources.list"
  apt_options=(-o Dir::Etc::SourceList="$build/apt/sources.list" -o Dir::Etc::SourceParts=/dev/null
    -o Dir::State::Lists="$build/apt/lists" -o APT::Sandbox::User=root)
  note "fetching yaml-cpp's Debian source package"
  apt-get "${apt_options[@]}" update -qq >/dev/null
  (cd "$build/yaml-cpp" && apt-get "${apt_options[@]}" source --download-only -qq yaml-cpp >/dev/null)
  tar -xf "$build"/yaml-cpp/yaml-cpp_*.orig.tar.* -C "$build/yaml-cpp"
  source_dir=$(find "$build/yaml-cpp" -mindepth 1 -maxdepth 1 -type d | head -1)
  note "building yaml-cpp with libc++"
  cmake -S "$source_dir" -B "$build/yaml-cpp-build" -DCMAKE_BUILD_TYPE=Release \
    -DYAML_CPP_BUILD_TESTS=OFF -DYAML_CPP_BUILD_TOOLS=OFF -DYAML_CPP_BUILD_CONTRIB=OFF \
    -DYAML_BUILD_SHARED_LIBS=OFF -DCMAKE_POSITION_INDEPENDENT_CODE=ON \
    -DCMAKE_INSTALL_PREFIX="$deps" >/dev/null
  cmake --build "$build/yaml-cpp-build" -j "$jobs" >/dev/null
  cmake --install "$build/yaml-cpp-build" >/dev/null
  touch "$deps/.done"
fi

note "building git-vault and its tests with clang and libc++"
cmake -S "$here" -B "$build/git-vault" -DCMAKE_BUILD_TYPE=Debug -DCMAKE_CXX_FLAGS_DEBUG=-O0 \
  -DGIT_VAULT_WERROR=OFF -DGIT_VAULT_LIBCXX=ON -DGIT_VAULT_STATIC_DEPS=OFF \
  -DCMAKE_PREFIX_PATH="$deps" >/dev/null
cmake --build "$build/git-vault" -j "$jobs"
(cd "$build/git-vault" && ctest --output-on-failure -j "$jobs")
