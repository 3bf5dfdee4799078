#!/usr/bin/env bash
# Installs git-vault's build dependencies (Debian 12 packages), builds a Release binary,
# installs it, and shows the health report of the demo vault that ships with the sources.
#
#   PREFIX=/opt/git-vault ./install.sh     # default: /usr/local as root, ~/.local otherwise
#   SKIP_APT=1 ./install.sh                # dependencies are already there
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
packages=(g++ cmake make pkg-config git libgit2-dev libssl-dev zlib1g-dev libcli11-dev nlohmann-json3-dev
  libyaml-cpp-dev libfmt-dev libstemmer-dev catch2)

if [[ $(id -u) -eq 0 ]]; then
  sudo=()
  prefix=${PREFIX:-/usr/local}
else
  sudo=(sudo)
  prefix=${PREFIX:-$HOME/.local}
fi

if [[ -z ${SKIP_APT:-} ]]; then
  missing=()
  for package in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "ok installed" ||
      missing+=("$package")
  done
  if ((${#missing[@]})); then
    echo "git-vault: installing ${missing[*]}" >&2
    "${sudo[@]}" apt-get update -qq
    DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y -qq "${missing[@]}" >/dev/null
  fi
fi

build="$here/build-release"
log="$build/install.log"
mkdir -p "$build"
echo "git-vault: building (Release; log in $log)" >&2
if ! { cmake -S "$here" -B "$build" -DCMAKE_BUILD_TYPE=Release -DGIT_VAULT_WERROR=OFF \
  -DBUILD_TESTING=OFF && cmake --build "$build" -j "$(nproc)" &&
  cmake --install "$build" --prefix "$prefix"; } >"$log" 2>&1; then
  tail -n 40 "$log" >&2
  echo "git-vault: error: the build failed; the full log is $log" >&2
  exit 1
fi
bin="$prefix/bin/git-vault"
echo "git-vault: installed $bin" >&2
case ":$PATH:" in
  *":$prefix/bin:"*) ;;
  *) echo "git-vault: add $prefix/bin to PATH so that git finds 'git vault'" >&2 ;;
esac

# The main job, on the demo vault: a throwaway repository holding a copy of examples/demo.
demo=$(mktemp -d)
trap 'rm -rf "$demo"' EXIT
cp -R "$here/examples/demo/." "$demo/"
git -C "$demo" init -q -b main
git -C "$demo" -c user.name=demo -c user.email=demo@example.com add -A
git -C "$demo" -c user.name=demo -c user.email=demo@example.com commit -q -m "demo vault"
echo "git-vault: health report of the demo vault (examples/demo), as of 2026-11-30:" >&2
(cd "$demo" && "$bin" distill --today 2026-11-30)
