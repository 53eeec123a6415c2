#!/bin/sh
# fresh_root_check.sh BUILD_DIR — the ready CI job and the README's set-up
# where they will run: a fresh minimal Debian 12 root, made here by
# Debian's mmdebstrap (variant minbase, the debian:12 container image's
# kind: essential packages and apt, nothing else), with a copy of this
# source tree in it.  Inside the root, as root:
#   1. docs/ci/selfmon-ci.sh on tests/samplelib as the GitHub Actions job
#      runs it: it must install every package selfmon's build needs, build
#      and install selfmon, and pass the sample reader (exit 0, a JUnit
#      report per arch);
#   2. `./dev.sh build`, the install and build of the README's
#      `./dev.sh run` (and of `./dev.sh test`): dev.sh's own package list
#      installed, the whole project configured and built.
# Each step's time is printed.  Needs root, mmdebstrap and Debian's
# mirror (the network); without root or mmdebstrap it exits 77 (ctest:
# skipped).  The downloaded packages are kept between runs in the
# cache's fresh-root folder (scripts/cache.sh; BUILD_DIR/fresh-root-cache
# when the cache is off), so a fresh clone downloads them once, and step
# 2's ccache folder in its fresh-root-ccache folder;
# the root itself is made in a temporary directory, its mounts live in a
# private mount namespace, and both are gone on every exit path.
set -eu
build=$(cd "$1" && pwd)
src=$(cd "$(dirname "$0")/.." && pwd)
say() { echo "fresh root check: $*"; }
fail() {
	echo "fresh root check: $*" >&2
	exit 1
}
[ "$(id -u)" -eq 0 ] || { say "skipped: needs root"; exit 77; }
command -v mmdebstrap >/dev/null ||
	{ say "skipped: needs mmdebstrap (apt-get install mmdebstrap)"; exit 77; }
command -v unshare >/dev/null || { say "skipped: needs unshare"; exit 77; }

. "$src/scripts/cache.sh" # cache_dir
cache=$(cache_dir fresh-root)
[ -n "$cache" ] || cache=$build/fresh-root-cache
mkdir -p "$cache"
# ccache's folder for step 2's build (dev.sh compiles through ccache): a
# hit still needs the compiler and every header the object was made from
# (ccache's direct mode checks each), so a package the set-up lacks still
# fails the build; without the cache, a folder of this run's.
ccache=$(cache_dir fresh-root-ccache)
dir=$(mktemp -d "${TMPDIR:-/tmp}/selfmon-fresh.XXXXXX")
# Every mount below is made in a private mount namespace, mmdebstrap's
# own too, so none is left on the host to be removed through; every
# process in a PID namespace of its own that dies with the unshare that
# made it (--kill-child).  Each step runs in the background and is
# waited for, so that a signal stops it at once: the trap kills its
# unshare, and the EXIT trap removes the directory once the namespace's
# last process is gone (until then rm finds directories still filling).
cleanup() {
	i=0
	until rm -rf --one-file-system "$dir" 2>/dev/null; do
		i=$((i + 1))
		[ "$i" -lt 60 ] || { echo "fresh root check: $dir is left" >&2; break; }
		sleep 1
	done
}
trap cleanup EXIT
child=
trap '[ -z "$child" ] || kill "$child" 2>/dev/null; exit 130' INT TERM HUP
step() { # LOG CMD...: CMD's exit status, its output in LOG
	log=$1
	shift
	"$@" >"$log" 2>&1 &
	child=$!
	st=0
	wait "$child" || st=$?
	child=
	return "$st"
}
root=$dir/root
t0=$(date +%s)
lap() { # STEP: the seconds since the last lap
	t=$(date +%s)
	say "$1: $((t - t0)) s"
	t0=$t
}

# debian:12 has bookworm, its updates and its security suite, and dpkg
# set to force-unsafe-io (the image's /etc/dpkg/dpkg.cfg.d/
# docker-apt-speedup: no fsync of every unpacked file); the packages'
# files come from (and go back to) the cache.
mirror=http://deb.debian.org/debian
step "$dir/mmdebstrap.log" env TMPDIR="$dir" \
	unshare --mount --pid --fork --mount-proc --kill-child \
	--propagation private mmdebstrap --quiet --variant=minbase --components=main \
	--dpkgopt=force-unsafe-io \
	--skip=download/empty \
	--setup-hook='mkdir -p "$1"/var/cache/apt/archives' \
	--setup-hook="sync-in '$cache' /var/cache/apt/archives" \
	--customize-hook="sync-out /var/cache/apt/archives '$cache'" \
	bookworm "$root" \
	"deb $mirror bookworm main" \
	"deb $mirror bookworm-updates main" \
	"deb http://deb.debian.org/debian-security bookworm-security main" || {
	cat "$dir/mmdebstrap.log"
	fail "mmdebstrap could not make the root (network to $mirror?)"
}
lap "minbase root made by mmdebstrap"
cp /etc/resolv.conf "$root/etc/resolv.conf"
mkdir -p "$root/src"
# the tree as it is (uncommitted work too), without builds or git
tar -C "$src" --exclude='./build*' --exclude=./.git -cf - . |
	tar -C "$root/src" -xf -

# in_root SCRIPT: run the sh SCRIPT in the root, as root, in new mount
# and PID namespaces (a /proc of its own, the host's /dev, the cache as
# apt's archive directory): the mounts and every process go with it.
# Run it through step: it becomes unshare itself (exec), which step's
# trap can kill.
in_root() {
	exec unshare --mount --pid --fork --kill-child --propagation private sh -eu -c '
		root=$1
		mount -t proc proc "$root/proc"
		mount --rbind /dev "$root/dev"
		mount --bind "$2" "$root/var/cache/apt/archives"
		mkdir -p "$root/ccache"
		[ -z "$3" ] || mount --bind "$3" "$root/ccache"
		exec chroot "$root" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin \
			HOME=/root LANG=C.UTF-8 CCACHE_DIR=/ccache /bin/sh -euc "$4"' \
		sh "$root" "$cache" "$ccache" "$1"
}

rc=0
step "$dir/ci.out" in_root 'mkdir -p /ci-work && cd /ci-work &&
	WORK=/ci-work/selfmon-ci sh /src/docs/ci/selfmon-ci.sh /src/tests/samplelib' ||
	rc=$?
[ "$rc" -eq 0 ] || {
	tail -60 "$dir/ci.out"
	fail "docs/ci/selfmon-ci.sh exits $rc in a fresh Debian 12 root"
}
grep -q '^selfmon-ci: installing ' "$dir/ci.out" ||
	fail "the CI script installed no package in a fresh root"
n=$(ls "$root"/ci-work/selfmon-ci/reports/*.xml 2>/dev/null | wc -l)
[ "$n" -ge 1 ] || fail "the CI script left no JUnit report"
lap "docs/ci/selfmon-ci.sh (packages, selfmon, the sample library; $n reports)"

rc=0
step "$dir/dev.out" in_root 'cd /src && ./dev.sh build' || rc=$?
[ "$rc" -eq 0 ] || {
	tail -60 "$dir/dev.out"
	fail "./dev.sh build exits $rc in a fresh Debian 12 root"
}
[ -x "$root/src/build/selfmon" ] || fail "./dev.sh build built no selfmon"
step "$dir/v.out" in_root '/src/build/selfmon --version' ||
	fail "the selfmon built in the root does not run: $(cat "$dir/v.out")"
lap "./dev.sh build (dev.sh's packages, the whole project)"
say "the CI job and ./dev.sh's install and build pass in a fresh Debian 12 root"
