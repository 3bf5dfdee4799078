#!/usr/bin/env bash
# Builds the .deb with cpack from a Release build (build-release, as install.sh leaves it) and
# checks it the way a user of a clean Debian 12 meets it: dpkg installs it into an empty root
# with its own package database (nothing lands on this machine); the binary runs there alone
# (chroot, when run as root), `git vault --version` and `man git-vault` work, the bash
# completion completes, and it prints the health report of the demo vault.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
jobs=$(getconf _NPROCESSORS_ONLN 2>/dev/null || echo 2)
build="$here/build-release"
fail() {
  echo "package: error: $*" >&2
  exit 1
}

# install.sh's build when it is there (CI runs install.sh first), so only the package's own
# steps cost time; the zsh folder Debian's zsh reads is set for the package alone, and the
# folder install.sh installs into is put back afterwards.
zsh_dir=$(sed -n 's/^GIT_VAULT_ZSH_COMPLETION_DIR:[A-Z]*=//p' "$build/CMakeCache.txt" 2>/dev/null || true)
cmake -S "$here" -B "$build" -DCMAKE_BUILD_TYPE=Release -DBUILD_TESTING=OFF \
  -DGIT_VAULT_ZSH_COMPLETION_DIR=share/zsh/vendor-completions >/dev/null
cmake --build "$build" -j "$jobs" >/dev/null
rm -f "$build"/git-vault_*.deb
(cd "$build" && cpack -G DEB >/dev/null)
cmake -S "$here" -B "$build" -DGIT_VAULT_ZSH_COMPLETION_DIR="${zsh_dir:-share/zsh/site-functions}" \
  >/dev/null
deb=$(ls "$build"/git-vault_*.deb)
echo "package: built ${deb#"$here"/}" >&2

scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
root="$scratch/root"
mkdir -p "$root/var/lib/dpkg/info" "$root/var/lib/dpkg/updates"
: >"$root/var/lib/dpkg/status"
# git is the one dependency, and the empty root has none: it is checked on the control file.
[[ $(dpkg-deb -f "$deb" Depends) == git* ]] || fail "Depends is '$(dpkg-deb -f "$deb" Depends)'"
dpkg --root="$root" --force-depends --force-not-root --force-bad-path --log=/dev/null \
  -i "$deb" >/dev/null || fail "dpkg could not install $deb"
for file in usr/bin/git-vault usr/share/man/man1/git-vault.1 \
  usr/share/bash-completion/completions/git-vault usr/share/zsh/vendor-completions/_git-vault; do
  [[ -f $root/$file ]] || fail "the package has no /$file"
done

bin="$root/usr/bin/git-vault"
version=$("$bin" --version)
[[ $version == "git-vault version "* ]] || fail "git-vault --version printed '$version'"
if [[ $(id -u) -eq 0 ]] && ! ldd "$bin" >/dev/null 2>&1; then
  # Linked statically: it runs in a root holding nothing but the package.
  [[ $(chroot "$root" /usr/bin/git-vault --version) == "$version" ]] ||
    fail "the binary does not run alone in the package's root"
fi
[[ $(PATH="$root/usr/bin:$PATH" git vault --version) == "$version" ]] ||
  fail "git vault --version does not find the packaged binary"

if command -v man >/dev/null; then
  MANPATH="$root/usr/share/man" man -P cat git-vault 2>/dev/null | grep -q "git vault" ||
    fail "man git-vault shows no manual"
elif [[ -n ${CI:-} ]]; then
  fail "man is not installed (man-db)"
else
  echo "package: man is not installed; man git-vault not checked" >&2
fi

completed=$(bash -c 'source "$1"; COMP_WORDS=(git vault rec); COMP_CWORD=2; _git_vault
  echo "${COMPREPLY[*]}"' _ "$root/usr/share/bash-completion/completions/git-vault")
[[ $completed == recall ]] || fail "the bash completion offered '$completed' for 'git vault rec'"

demo="$scratch/demo"
cp -R "$here/examples/demo/." "$demo/"
git -C "$demo" init -q -b main
git -C "$demo" -c user.name=demo -c user.email=demo@example.com add -A
git -C "$demo" -c user.name=demo -c user.email=demo@example.com commit -q -m "demo vault"
report=$(cd "$demo" && PATH="$root/usr/bin:$PATH" git vault distill --today 2026-11-30)
grep -q "Health" <<<"$report" || fail "no health report on the demo vault"
echo "package: $(basename "$deb") installs and runs: --version, man, completion, the demo report" >&2
