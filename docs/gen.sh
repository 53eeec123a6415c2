#!/usr/bin/env bash
# gen.sh SELFMON [--check] — regenerate the examples in docs/abi.md.
#
# Every block that follows a line
#     <!-- selfmon ARGS [| head -N] [| grep PATTERN] -->
# and is fenced with ``` is replaced by the output of `SELFMON ARGS`
# (run from the repository's top), trimmed as the optional filters say.
# The pictures (plot) and the pages to step through a read (replay
# --html, explain-bug --html) it links are regenerated too.  With --check
# nothing is written: the exit status says whether docs/abi.md, its
# pictures and pages are in sync with the tool (0) or not (1, with a
# diff).  A selfmon built without the cross compilers checks what it can
# draw (x86-64) and writes nothing (exit 2).
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
# The pages to step through a read that abi.md links: the command that
# writes it (a replay of a schedule, or explain-bug's own example, which
# abi.md quotes), file.
pages=(
	"explain-bug no_zero_ext_fix reset-quirk.html"
	"replay x86_64:unicorn:no_recheck:x86_remote:rotate_out@6,rotate_in@10 torn-read.html"
	"replay riscv64:unicorn:reference:riscv64_rotate:rotate_out@18 riscv64-sigill.html"
)
svgdir=$(mktemp -d)
trap 'rm -f "$out"; rm -rf "$svgdir"' EXIT
# explain-bug ranks the failing examples of every arch built: a selfmon
# built without a cross compiler counts fewer ("chosen of 11 failing
# examples", not 18) and embeds fewer candidates in its page.
all_arches=0
"$selfmon" --help | grep -q '^Arches built for: x86_64, arm64, riscv64' &&
	all_arches=1
if [ $all_arches = 0 ] && [ "$mode" != --check ]; then
	echo "docs/gen.sh: $selfmon was built without every arch (cross compilers); the docs show all three: not written" >&2
	exit 2
fi
for p in "${plots[@]}"; do
	name=${p##* }
	args=${p% *}
	# a selfmon built without a cross compiler cannot draw the arm64 one
	"$selfmon" plot ${args/NAME/$svgdir/$name} 2>/dev/null || true
done
for p in "${pages[@]}"; do
	# each read fails (replay: exit 1); without its arch's reader code,
	# no file; explain-bug's page only from a selfmon of every arch
	if [ $all_arches = 1 ] || [ "${p%% *}" != explain-bug ]; then
		"$selfmon" ${p% *} --html "$svgdir/${p##* }" >/dev/null 2>&1 || true
	fi
	plots+=("- ${p##* }")
done

if [ "$mode" = "--check" ]; then
	stale=0
	if [ $all_arches = 1 ]; then
		diff -u "$doc" "$out" || stale=1
	else
		echo "docs/abi.md: explain-bug's count of failing examples not checked (selfmon built without every arch)"
		n='s/chosen of [0-9]+ failing examples/chosen of N failing examples/'
		diff -u <(sed -E "$n" "$doc") <(sed -E "$n" "$out") || stale=1
	fi
	for p in "${plots[@]}"; do
		name=${p##* }
		if [ ! -f "$svgdir/$name" ]; then
			echo "docs/$name: not made by this selfmon, not checked"
			continue
		fi
		cmp -s "$svgdir/$name" "docs/$name" ||
			{ echo "docs/$name differs" >&2; stale=1; }
	done
	if [ $stale = 1 ]; then
		echo "docs are out of date: run docs/gen.sh build/selfmon" >&2
		exit 1
	fi
	echo "docs/abi.md, its pictures and pages are in sync with selfmon"
else
	cp "$out" "$doc"
	for p in "${plots[@]}"; do
		if [ -f "$svgdir/${p##* }" ]; then cp "$svgdir/${p##* }" docs/; fi
	done
fi
