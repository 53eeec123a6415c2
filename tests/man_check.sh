#!/bin/sh
# man_check.sh BUILD_DIR — the manual pages say what --help says: the
# pages the build made (BUILD_DIR/man, scripts/man.sh) are the ones the
# built selfmon's help makes now; there is selfmon(1) and one page per
# command `selfmon --help` lists; roff renders each without a warning,
# and every line of each command's --help is in its rendered page, word
# for word; `cmake --install` puts the pages in share/man/man1 and the
# bash completion in share/bash-completion/completions/selfmon.
set -eu
build=$(cd "$1" && pwd)
src=$(cd "$(dirname "$0")/.." && pwd)
selfmon=$build/selfmon
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
fail() {
	echo "man check: $*" >&2
	exit 1
}

sh "$src/scripts/man.sh" "$selfmon" "$dir/man"
diff -r -x pages.stamp "$build/man" "$dir/man" >"$dir/diff" || {
	cat "$dir/diff"
	fail "the built pages differ from selfmon's --help (rebuild: the man target)"
}
commands=$("$selfmon" --help |
	sed -n '/^commands:$/,/^$/s/^  \([a-z][a-z-]*\)  .*/\1/p')
[ "$(echo "$commands" | wc -w)" -ge 9 ] || fail "few commands: $commands"
n=0
for c in "" $commands; do
	page=$dir/man/selfmon${c:+-$c}.1
	[ -f "$page" ] || fail "no page for '${c:-selfmon}'"
	groff -man -ww -z "$page" 2>"$dir/warn" || fail "groff fails on $page"
	[ ! -s "$dir/warn" ] || { cat "$dir/warn"; fail "groff warns on $page"; }
	# rendered wide, so that no line of the help is folded
	MANWIDTH=250 nroff -man -rLL=250n "$page" 2>/dev/null | col -bx |
		sed 's/^ *//; s/ *$//' >"$dir/text"
	if [ -n "$c" ]; then "$selfmon" "$c" --help; else "$selfmon" --help; fi |
		sed 's/^usage: //; s/^ *//; s/ *$//' | grep -v '^$' >"$dir/help"
	while IFS= read -r line; do
		grep -qxF -- "$line" "$dir/text" ||
			fail "'selfmon $c --help' line not in $page: $line"
		n=$((n + 1))
	done <"$dir/help"
	if [ -n "$c" ]; then
		grep -q "^selfmon-$c - " "$dir/text" ||
			fail "$page: no NAME line"
	fi
done
[ "$n" -gt 200 ] || fail "only $n help lines compared"

cmake --install "$build" --prefix "$dir/prefix" >/dev/null
for c in "" $commands; do
	[ -f "$dir/prefix/share/man/man1/selfmon${c:+-$c}.1" ] ||
		fail "cmake --install put no selfmon${c:+-$c}.1 in share/man/man1"
done
cmp -s "$dir/prefix/share/bash-completion/completions/selfmon" \
	"$src/scripts/selfmon-completion.bash" ||
	fail "cmake --install put no bash completion"
echo "man check: $(echo $commands | wc -w) command pages and selfmon(1)" \
	"match --help ($n lines), installed with the completion"
