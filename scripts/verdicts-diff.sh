#!/bin/sh
# verdicts-diff.sh — what a regeneration of the verdict tables
# (tests/golden/, written by test_verdicts --write) changed, in words:
# "no row changed", "verdicts unchanged, N rows changed only in column X",
# or the verdicts that changed, cell by cell, with example rows.
#
# Owns: fetching a commit's tables into a temporary directory (the
# per-engine-and-bound verdicts-*.tsv, or the single verdicts.tsv of
# before the split) and handing both to test_verdicts --diff.  Must not:
# compare rows itself (tests/golden_diff.c does) or write a table.
#
#   scripts/verdicts-diff.sh [REV [BUILD]]
#       REV's tables (default HEAD) against the working tree's
#   scripts/verdicts-diff.sh --tables OLD NEW [TEST_VERDICTS]
#       two tables, each a file or a directory of verdicts-*.tsv
#
# BUILD: the build directory with tests/test_verdicts (default build).
# Exit 0: no row changed; 1: some did; 2: bad input (one line says why).
set -eu
src=$(cd "$(dirname "$0")/.." && pwd)
die() {
	echo "verdicts-diff.sh: $*" >&2
	exit 2
}
run() { # OLD NEW TEST_VERDICTS
	[ -x "$3" ] || die "no $3 (build it: cmake --build build --target test_verdicts)"
	rc=0
	"$3" --diff "$1" "$2" || rc=$?
	[ "$rc" -le 1 ] || exit 2
	exit "$rc"
}
if [ "${1-}" = --tables ]; then
	[ $# -ge 3 ] && [ $# -le 4 ] || die "usage: --tables OLD NEW [TEST_VERDICTS]"
	run "$2" "$3" "${4:-$src/build/tests/test_verdicts}"
fi
case "${1-}" in -*) die "usage: [REV [BUILD]] | --tables OLD NEW [TEST_VERDICTS]" ;; esac
[ $# -le 2 ] || die "usage: [REV [BUILD]] | --tables OLD NEW [TEST_VERDICTS]"
rev=${1:-HEAD}
build=${2:-$src/build}
git -C "$src" rev-parse -q --verify "$rev^{commit}" >/dev/null ||
	die "$rev: not a commit"
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
files=$(git -C "$src" ls-tree --name-only "$rev" tests/golden/ |
	grep -E '^tests/golden/verdicts(-[a-z0-9_]+-[0-9]+)?\.tsv$' || true)
[ -n "$files" ] || die "$rev has no tests/golden/verdicts*.tsv"
for f in $files; do
	git -C "$src" show "$rev:$f" >"$dir/$(basename "$f")"
done
# before the split: one file, not named verdicts-*.tsv
[ ! -f "$dir/verdicts.tsv" ] || mv "$dir/verdicts.tsv" "$dir/verdicts-all-0.tsv"
# the trap must run: no exec
rc=0
(run "$dir" "$src/tests/golden" "$build/tests/test_verdicts") || rc=$?
exit "$rc"
