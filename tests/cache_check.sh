#!/bin/sh
# cache_check.sh SRC — scripts/cache.sh's cache_dir: a folder of the
# caller's own is made (mode 700) and given; SELFMON_CACHE=off gives
# none; a symbolic link, a file or (as root) another user's folder on the
# way is never used, with one line saying so.  Owns only its temporary
# folder.
set -u
. "$1/scripts/cache.sh"
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
fail() { echo "cache_check: $*"; exit 1; }
# expect WANT ROOT: cache_dir kernels under SELFMON_CACHE=ROOT prints WANT
expect() {
	got=$(SELFMON_CACHE=$2 cache_dir kernels 2>"$tmp/err")
	[ "$got" = "$1" ] || fail "SELFMON_CACHE=$2 gives '$got', not '$1' ($(cat "$tmp/err"))"
}
expect "$tmp/c/kernels" "$tmp/c"
[ -d "$tmp/c/kernels" ] || fail "the folder was not made"
[ "$(stat -c %a "$tmp/c/kernels")" = 700 ] || fail "the folder is not 700"
expect "" off
mkdir "$tmp/elsewhere"
ln -s "$tmp/elsewhere" "$tmp/link"
expect "" "$tmp/link"
grep -q "is not a folder of its own" "$tmp/err" || fail "a link is refused without saying so"
[ ! -e "$tmp/elsewhere/kernels" ] || fail "written through a link"
mkdir "$tmp/d"
ln -s "$tmp/elsewhere" "$tmp/d/kernels"
expect "" "$tmp/d"
[ ! -e "$tmp/elsewhere/kernels" ] || fail "written through a link"
: >"$tmp/file"
expect "" "$tmp/file"
n=5
if [ "$(id -u)" -eq 0 ] && id nobody >/dev/null 2>&1; then
	mkdir -p "$tmp/other/kernels"
	chown -R nobody "$tmp/other"
	expect "" "$tmp/other"
	grep -q "belongs to another user" "$tmp/err" || fail "another user's folder is used without saying so"
	n=6
fi
echo "cache_check: $n cases: the own folder made 700, off, links, a file and another user's folder refused"
