#!/usr/bin/env bash
# Installs git-vault: its build dependencies from the system's package manager (apt, dnf,
# pacman, apk or Homebrew), a Release build, the binary with its man page and its bash and zsh
# completions, and then shows the health report of the demo vault that ships with the sources.
#
#   PREFIX=/opt/git-vault ./install.sh   # default: /usr/local as root, ~/.local otherwise
#   SKIP_PACKAGES=1 ./install.sh         # the dependencies are already there (SKIP_APT=1 too)
#   JOBS=4 ./install.sh                  # parallel compile jobs (default: the number of cores)
#
# The package lists per system are in README.md ("Installing"). ccache is used when installed
# (GIT_VAULT_CCACHE=0 turns it off).
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
say() { echo "git-vault: $*" >&2; }

if [[ $(id -u) -eq 0 ]]; then
  sudo=()
  prefix=${PREFIX:-/usr/local}
else
  sudo=(sudo)
  prefix=${PREFIX:-$HOME/.local}
fi

# What the build needs, per package manager (read through ${!list} below). Test-only tools (Catch2, clang, clang-format) are
# not here: tests/run.sh's callers install them (.ci/run).
# shellcheck disable=SC2034
apt_packages=(g++ cmake ninja-build pkg-config git libgit2-dev libssl-dev zlib1g-dev libcli11-dev
  nlohmann-json3-dev libyaml-cpp-dev libfmt-dev libstemmer-dev)
# shellcheck disable=SC2034
dnf_packages=(gcc-c++ cmake ninja-build pkgconf-pkg-config git libgit2-devel openssl-devel zlib-devel
  cli11-devel json-devel yaml-cpp-devel fmt-devel libstemmer-devel)
# shellcheck disable=SC2034
pacman_packages=(gcc cmake ninja pkgconf git libgit2 openssl zlib cli11 nlohmann-json yaml-cpp fmt
  snowball)
# shellcheck disable=SC2034
apk_packages=(g++ cmake samurai pkgconf git libgit2-dev openssl-dev zlib-dev cli11 nlohmann-json
  yaml-cpp-dev fmt-dev snowball-dev)
# shellcheck disable=SC2034
brew_packages=(cmake ninja pkg-config libgit2 openssl@3 cli11 nlohmann-json yaml-cpp fmt snowball)

# The first package manager found; Homebrew first on macOS, last elsewhere (a Linux machine
# with Homebrew still builds against its system's libraries).
package_manager() {
  local candidates=(apt-get dnf pacman apk brew)
  [[ $(uname -s) == Darwin ]] && candidates=(brew)
  local manager
  for manager in "${candidates[@]}"; do
    if command -v "$manager" >/dev/null 2>&1; then
      echo "$manager"
      return
    fi
  done
}

# Prints the packages of the list that are not installed yet.
missing_packages() {
  local manager=$1 package
  shift
  for package in "$@"; do
    case $manager in
      apt-get) dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "ok installed" ;;
      dnf) rpm -q --whatprovides "$package" >/dev/null 2>&1 ;;
      pacman) pacman -Q "$package" >/dev/null 2>&1 ;;
      apk) apk info -e "$package" >/dev/null 2>&1 ;;
      brew) brew list --versions "$package" >/dev/null 2>&1 ;;
    esac || echo "$package"
  done
}

install_packages() {
  local manager
  manager=$(package_manager)
  if [[ -z $manager ]]; then
    say "error: no supported package manager found (apt-get, dnf, pacman, apk, brew)"
    say "install these yourself: a C++20 compiler (g++ 12 or clang 14), CMake 3.18 or later,"
    say "  Ninja (or make), pkg-config, git, libgit2 1.5 or later, OpenSSL, zlib, CLI11 2.1, nlohmann-json"
    say "  3.10, yaml-cpp, fmt 9, Snowball's libstemmer (README.md, \"Installing\", names them"
    say "  for each system), then run: SKIP_PACKAGES=1 $0"
    exit 1
  fi
  # Indirect expansion rather than namerefs or mapfile: macOS ships bash 3.2.
  local list="${manager%-get}_packages[@]" missing=() package
  for package in $(missing_packages "$manager" "${!list}"); do
    missing+=("$package")
  done
  if ((${#missing[@]} == 0)); then
    say "packages: all already installed ($manager)"
    return
  fi
  say "packages: installing ${missing[*]} ($manager)"
  case $manager in
    apt-get)
      ${sudo[@]+"${sudo[@]}"} apt-get update -qq
      ${sudo[@]+"${sudo[@]}"} env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
      ;;
    dnf) ${sudo[@]+"${sudo[@]}"} dnf install -y -q "${missing[@]}" ;;
    pacman) ${sudo[@]+"${sudo[@]}"} pacman -S --needed --noconfirm "${missing[@]}" ;;
    apk) ${sudo[@]+"${sudo[@]}"} apk add -q "${missing[@]}" ;;
    brew) brew install "${missing[@]}" ;;  # never as root
  esac
}

# Runs the build with a progress line: updated in place on a terminal ("compiling 7/24", or a
# percentage with make), and elsewhere one line per tenth of the way, so a log is not flooded.
# The full output goes to the log.
build_with_progress() {
  local log=$1 line shown percent tenth=-1
  shift
  "$@" 2>&1 | while IFS= read -r line; do
    printf '%s\n' "$line" >>"$log"
    if [[ $line =~ ^\[([0-9]+)/([0-9]+)\]\ Building ]]; then  # Ninja
      shown="${BASH_REMATCH[1]}/${BASH_REMATCH[2]}"
      percent=$((BASH_REMATCH[1] * 100 / BASH_REMATCH[2]))
    elif [[ $line =~ ^\[\ *([0-9]+)%\]\ Building ]]; then  # Makefiles
      shown="${BASH_REMATCH[1]}%"
      percent=${BASH_REMATCH[1]}
    else
      continue
    fi
    if [[ -t 2 ]]; then
      printf '\rgit-vault: compiling %s ' "$shown" >&2
    elif ((percent / 10 > tenth)); then
      tenth=$((percent / 10))
      say "compiling $shown"
    fi
  done
  local status=${PIPESTATUS[0]}
  [[ -t 2 ]] && printf '\n' >&2
  return "$status"
}

if [[ -z ${SKIP_PACKAGES:-}${SKIP_APT:-} ]]; then
  install_packages
fi

build="$here/build-release"
log="$build/install.log"
mkdir -p "$build"
: >"$log"
launcher=() with=""
if [[ ${GIT_VAULT_CCACHE:-1} != 0 ]] && command -v ccache >/dev/null 2>&1; then
  launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache) with=", ccache"
elif [[ ${GIT_VAULT_CCACHE:-1} == 0 ]]; then
  launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=)  # also in a build folder that had it
fi
# Ninja when it is there: it starts the subcommands' batches while the core's last ones still
# compile, where make waits for the whole library. CMake reads it for a new build folder only;
# one keeps the generator it was made with.
if command -v ninja >/dev/null 2>&1; then
  export CMAKE_GENERATOR=${CMAKE_GENERATOR:-Ninja}
fi
jobs=${JOBS:-$(getconf _NPROCESSORS_ONLN 2>/dev/null || echo 2)}
say "building: Release, $jobs jobs$with (log in $log)"
started=$SECONDS
if ! { cmake -S "$here" -B "$build" -DCMAKE_BUILD_TYPE=Release -DGIT_VAULT_WERROR=OFF \
  -DBUILD_TESTING=OFF ${launcher[@]+"${launcher[@]}"} >>"$log" 2>&1 &&
  build_with_progress "$log" cmake --build "$build" -j "$jobs" &&
  cmake --install "$build" --prefix "$prefix" >>"$log" 2>&1; }; then
  tail -n 40 "$log" >&2
  say "error: the build failed; the full log is $log"
  exit 1
fi
bin="$prefix/bin/git-vault"
say "installed $bin, its man page and bash/zsh completions (built in $((SECONDS - started)) s)"
case ":$PATH:" in
  *":$prefix/bin:"*) ;;
  *) say "add $prefix/bin to PATH so that git finds 'git vault'" ;;
esac

# The main job, on the demo vault: a throwaway repository holding a copy of examples/demo.
demo=$(mktemp -d)
trap 'rm -rf "$demo"' EXIT
cp -R "$here/examples/demo/." "$demo/"
git -C "$demo" init -q -b main
git -C "$demo" -c user.name=demo -c user.email=demo@example.com add -A
git -C "$demo" -c user.name=demo -c user.email=demo@example.com commit -q -m "demo vault"
say "health report of the demo vault (examples/demo), as of 2026-11-30:"
(cd "$demo" && "$bin" distill --today 2026-11-30)
