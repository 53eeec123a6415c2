#!/bin/sh
# selfmon-ci.sh — check a library's perf_event reader in any CI: the one
# job of docs/ci/github-actions.yml as a plain script (Debian 12, or any
# system with selfmon's build dependencies).
#
#   sh selfmon-ci.sh LIBRARY_DIR [CMAKE_ARGUMENTS...]
#
# 1. installs the Debian packages selfmon needs (as root, with apt-get,
#    when some are missing; otherwise it prints the apt-get line and stops);
# 2. builds selfmon from SELFMON_SRC and installs it into SELFMON_PREFIX
#    (an existing SELFMON_BUILD, say from a CI cache, is installed as it is);
# 3. configures LIBRARY_DIR against it (the library calls
#    find_package(selfmon) and selfmon_add_reader_check(), README), builds
#    it and runs its reader checks with ctest (label "selfmon");
# 4. copies the JUnit reports to REPORTS, for the CI to publish.
#
# Environment (all optional):
#   WORK            working directory (default ./selfmon-ci)
#   SELFMON_SRC     selfmon's source tree (default: the one holding this script)
#   SELFMON_BUILD   selfmon's build directory (default $WORK/selfmon-build)
#   SELFMON_PREFIX  where selfmon is installed (default $WORK/selfmon)
#   REPORTS         where the JUnit reports go (default $WORK/reports)
#   SELFMON_NO_APT  1: do not check or install Debian packages
#   JOBS            parallel build jobs (default: the CPU count)
#
# Exit status: 0 every reader check passed, 1 one failed (ctest's output
# has its counterexample and the command that replays it), 2 the set-up
# failed (packages, selfmon's build, the library's configure or build).
set -eu

usage() {
	sed -n '2,30p' "$0" | sed 's/^# \{0,1\}//' >&2
	exit 2
}
die() {
	echo "selfmon-ci: $*" >&2
	exit 2
}
[ $# -ge 1 ] || usage
[ -d "$1" ] || die "no library at $1"
lib=$(cd "$1" && pwd)
shift
here=$(cd "$(dirname "$0")" && pwd)
WORK=${WORK:-$PWD/selfmon-ci}
mkdir -p "$WORK"
WORK=$(cd "$WORK" && pwd)
SELFMON_SRC=$(cd "${SELFMON_SRC:-$here/../..}" && pwd)
SELFMON_BUILD=${SELFMON_BUILD:-$WORK/selfmon-build}
SELFMON_PREFIX=${SELFMON_PREFIX:-$WORK/selfmon}
REPORTS=${REPORTS:-$WORK/reports}
JOBS=${JOBS:-$(nproc 2>/dev/null || echo 2)}

# selfmon's build dependencies (dev.sh has the developer's full list;
# tests/fresh_root_check.sh proves this one in a fresh Debian 12 root).
PACKAGES="build-essential cmake pkg-config libunicorn-dev libcmocka-dev
libelf-dev libdw-dev libcapstone-dev libxml2-utils gcc-aarch64-linux-gnu
gcc-riscv64-linux-gnu libc6-dev-arm64-cross libc6-dev-riscv64-cross"

packages() {
	[ "${SELFMON_NO_APT:-0}" = 1 ] && return 0
	command -v dpkg-query >/dev/null ||
		die "not a Debian system: install selfmon's build dependencies" \
		    "yourself and set SELFMON_NO_APT=1"
	missing=""
	for p in $PACKAGES; do
		dpkg-query -W -f='${Status}' "$p" 2>/dev/null |
			grep -q "install ok installed" || missing="$missing $p"
	done
	[ -z "$missing" ] && return 0
	[ "$(id -u)" -eq 0 ] ||
		die "missing Debian packages; install them with:" \
		    "sudo apt-get install -y$missing"
	echo "selfmon-ci: installing$missing"
	apt-get update -qq || die "apt-get update failed"
	DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
		--no-install-recommends $missing >/dev/null ||
		die "apt-get install$missing failed"
}

selfmon() {
	if [ ! -f "$SELFMON_BUILD/CMakeCache.txt" ]; then
		echo "selfmon-ci: building selfmon from $SELFMON_SRC"
		cmake -S "$SELFMON_SRC" -B "$SELFMON_BUILD" \
			-DCMAKE_BUILD_TYPE=Release >/dev/null ||
			die "selfmon does not configure"
		cmake --build "$SELFMON_BUILD" -j "$JOBS" --target selfmon \
			selfmon_lib selfmon_shared selfmon_man >/dev/null ||
			die "selfmon does not build"
	fi
	cmake --install "$SELFMON_BUILD" --prefix "$SELFMON_PREFIX" \
		>/dev/null || die "selfmon does not install from $SELFMON_BUILD"
}

check() {
	b=$WORK/build
	cmake -S "$lib" -B "$b" -DCMAKE_PREFIX_PATH="$SELFMON_PREFIX" "$@" ||
		die "the library does not configure against selfmon"
	cmake --build "$b" -j "$JOBS" || die "the library does not build"
	rc=0
	ctest --test-dir "$b" -L selfmon --output-on-failure || rc=1
	mkdir -p "$REPORTS"
	found=0
	for x in $(find "$b" -path '*/selfmon-reports/*.xml'); do
		cp "$x" "$REPORTS/"
		found=$((found + 1))
	done
	echo "selfmon-ci: $found JUnit report(s) in $REPORTS"
	[ "$found" -gt 0 ] || [ "$rc" -ne 0 ] ||
		die "no reader check ran (no selfmon_add_reader_check() in $lib?)"
	return $rc
}

packages
selfmon
rc=0
check "$@" || rc=$?
exit $rc
