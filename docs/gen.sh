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
trap 'rm -f "$out"' EXIT

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

if [ "$mode" = "--check" ]; then
	if diff -u "$doc" "$out"; then
		echo "docs/abi.md is in sync with selfmon"
	else
		echo "docs/abi.md is out of date: run docs/gen.sh build/selfmon" >&2
		exit 1
	fi
else
	cp "$out" "$doc"
fi
