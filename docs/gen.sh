#!/usr/bin/env bash
# gen.sh SELFMON [--check] — regenerate the examples in docs/abi.md.
#
# Every block that follows a line
#     <!-- selfmon ARGS [| head -N] [| grep PATTERN] -->
# and is fenced with ``` is replaced by the output of `SELFMON ARGS`
# (run from the repository's top), trimmed as the optional filters say.
# With --check nothing is written: the exit status says whether
# docs/abi.md is in sync with the tool (0) or not (1, with a diff).
set -euo pipefail
cd "$(dirname "$0")/.."
selfmon=$1
mode=${2:-write}
doc=docs/abi.md
out=$(mktemp)

awk -v selfmon="$selfmon" '
/^<!-- selfmon .* -->$/ {
	print
	cmd = $0
	sub(/^<!-- selfmon /, "", cmd)
	sub(/ -->$/, "", cmd)
	pending = 1
	next
}
pending && /^```/ {
	print "```"
	full = selfmon " " cmd " 2>&1"
	while ((full | getline line) > 0)
		print line
	close(full)
	print "```"
	skipping = 1
	pending = 0
	next
}
skipping {
	if (/^```/)
		skipping = 0
	next
}
{ print }
' "$doc" > "$out"

# The pictures abi.md shows.
plots=(
	"x86_reset --reader no_zero_ext_fix --schedule reset@10 -o NAME reset.svg"
	"x86_multiplex --reader reference -o NAME multiplex.svg"
	"arm64_timer_wrap --reader no_time_mask -o NAME timer_wrap.svg"
)
svgdir=$(mktemp -d)
trap 'rm -f "$out"; rm -rf "$svgdir"' EXIT
for p in "${plots[@]}"; do
	name=${p##* }
	args=${p% *}
	# a selfmon built without a cross compiler cannot draw the arm64 one
	"$selfmon" plot ${args/NAME/$svgdir/$name} 2>/dev/null || true
done

if [ "$mode" = "--check" ]; then
	stale=0
	diff -u "$doc" "$out" || stale=1
	for p in "${plots[@]}"; do
		name=${p##* }
		if [ ! -f "$svgdir/$name" ]; then
			echo "docs/$name: not drawn by this selfmon, not checked"
			continue
		fi
		cmp -s "$svgdir/$name" "docs/$name" ||
			{ echo "docs/$name differs" >&2; stale=1; }
	done
	if [ $stale = 1 ]; then
		echo "docs are out of date: run docs/gen.sh build/selfmon" >&2
		exit 1
	fi
	echo "docs/abi.md and its pictures are in sync with selfmon"
else
	cp "$out" "$doc"
	for p in "${plots[@]}"; do
		[ -f "$svgdir/${p##* }" ] && cp "$svgdir/${p##* }" docs/
	done
fi
