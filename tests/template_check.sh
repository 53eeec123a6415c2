#!/bin/sh
# template_check.sh BINARY — the kernel variant test template
# (tests/templates/test_kernel_variant.c.in), built as it is, fails and
# says why: not filled in, with each TODO named, so a copy left unfilled
# cannot pass and the template cannot rot into something that does not
# build.
set -u
bin=$1
out=$(mktemp)
trap 'rm -f "$out"' EXIT
fail() {
	cat "$out" >&2
	echo "template check: $*" >&2
	exit 1
}

"$bin" >"$out" 2>&1
rc=$?
[ "$rc" -ne 0 ] || fail "the unfilled template passes"
grep -q "kernel variant test not filled in: 12 TODOs left (docs/kernel-variant.md, step 4)" "$out" ||
	fail "no 'not filled in' message"
for todo in VARIANT ARCH EVENT ACTION BEFORE AFTER BASE_LOCK BASE_INDEX \
	BASE_OFFSET WANT_LOCK WANT_INDEX WANT_OFFSET; do
	grep -q "TODO $todo: " "$out" || fail "TODO $todo is not named"
done
echo "template check: the unfilled template fails, naming its 12 TODOs"
