#!/bin/sh
# kernel_variant_example.sh SRC — the worked example of
# docs/kernel-variant.md still works as the page says: its patch (the
# ```diff block after <!-- example-patch -->) applies to a copy of
# model/ and adds as many lines as the page states ("adds **N lines**");
# the template (tests/templates/test_kernel_variant.c.in) with its TODOs
# replaced by the page's defines (the block after <!-- example-fill -->)
# builds against that copy and passes; and without the variant's call in
# reset() it fails.  Nothing is written outside a temporary directory.
set -u
src=$(cd "$1" && pwd)
doc=$src/docs/kernel-variant.md
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() {
	echo "kernel_variant_example: $*"
	exit 1
}

# The fenced block after the marker line.
block() {
	awk -v mark="<!-- $1 -->" '
	$0 == mark { want = 1; next }
	want == 1 && /^```/ { want = 2; next }
	want == 2 && /^```/ { exit }
	want == 2 { print }' "$doc"
}

block example-patch >"$tmp/patch"
block example-fill >"$tmp/fill"
[ -s "$tmp/patch" ] || fail "no example patch in $doc"
[ "$(grep -c '^#define ' "$tmp/fill")" -eq 12 ] ||
	fail "the example does not fill the template's 12 TODOs"
added=$(grep -c '^+[^+]' "$tmp/patch")
blank=$(grep -c '^+$' "$tmp/patch")
n=$((added + blank))
grep -q "adds \*\*$n lines\*\*" "$doc" ||
	fail "the patch adds $n lines; the page says otherwise"

cp -r "$src/model" "$tmp/model"
(cd "$tmp" && patch -p1 -s --no-backup-if-mismatch <patch) ||
	fail "the example patch no longer applies to model/"

# The template, each "#define NAME TODO(...)" replaced by the page's.
awk 'FNR == NR { split($0, w, " "); def[w[2]] = $0; next }
	/^#define [A-Z_]+ TODO\(/ && ($2 in def) { print def[$2]; used++; next }
	{ print }
	END { if (used != 12) exit 1 }' "$tmp/fill" \
	"$src/tests/templates/test_kernel_variant.c.in" >"$tmp/test.c" ||
	fail "the page's defines do not fill the template's TODOs"

build() {
	# shellcheck disable=SC2046
	cc -std=gnu11 -O0 -Wall -Wextra -Werror -I"$tmp/model" -I"$src/util" \
		-I"$src/tests" $(pkg-config --cflags cmocka) -o "$tmp/test" \
		"$tmp/test.c" "$tmp"/model/*.c "$src"/util/*.c \
		$(pkg-config --libs cmocka) -lpthread -lrt -lm 2>"$tmp/cc.log" ||
		{ cat "$tmp/cc.log"; fail "the example does not build: $1"; }
}
build "patched"
"$tmp/test" >"$tmp/out" 2>&1 || { cat "$tmp/out"; fail "the example's test fails"; }

# Without the call the test must fail (the function stays: unused).
sed -i 's/^\treset_reload(m, i);$//' "$tmp/model/kernel.c"
sed -i 's/^static void reset_reload(/static __attribute__((unused)) void reset_reload(/' \
	"$tmp/model/kernel.c"
build "without the call"
"$tmp/test" >"$tmp/out" 2>&1 && fail "the example's test passes without the variant"
echo "kernel_variant_example: the patch applies ($n lines), its test passes, and fails without it"
