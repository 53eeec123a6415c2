#!/bin/sh
# golden_diff_check.sh TEST_VERDICTS GOLDEN_DIR — the comparison of two
# verdict tables (test_verdicts --diff, golden_diff.c) on planted changes
# to copies of tests/golden/: the same tables say "no row changed" (exit
# 0); counts changed in some rows say "verdicts unchanged, N rows changed
# only in column schedules" with N the rows planted; a changed verdict is
# counted and listed with its cell; a row removed is a cell only in the
# old table; scripts/verdicts-diff.sh says the same against a commit; a
# malformed table is one line and exit 2.  Touches only a temporary
# directory.
set -eu
tv=$1
golden=$2
src=$(cd "$(dirname "$0")/.." && pwd)
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
fail() {
	echo "golden diff check: $*" >&2
	exit 1
}
# compare OLD NEW WANT_RC: the report in $dir/out
compare() {
	rc=0
	"$tv" --diff "$1" "$2" >"$dir/out" 2>"$dir/err" || rc=$?
	[ "$rc" -eq "$3" ] || {
		cat "$dir/out" "$dir/err"
		fail "--diff $1 $2: exit $rc, not $3"
	}
}
fresh() {
	rm -rf "$dir/new"
	cp -r "$golden" "$dir/new"
}
rows=$(cat "$golden"/verdicts-*.tsv | grep -vc '^#')
[ "$rows" -gt 100 ] || fail "only $rows rows in $golden"

# the same tables
fresh
compare "$golden" "$dir/new" 0
grep -q "^no row changed ($rows rows)$" "$dir/out" ||
	fail "same tables: $(head -1 "$dir/out")"

# one more schedule in every 7th row of one table: schedules only
fresh
t=$dir/new/verdicts-unicorn-3.tsv
awk -F '\t' -v OFS='\t' '!/^#/ && ++n % 7 == 0 { $9 = $9 + 1; k++ }
	{ print } END { print k > "/dev/stderr" }' "$golden/verdicts-unicorn-3.tsv" \
	>"$t" 2>"$dir/planted"
k=$(cat "$dir/planted")
[ "$k" -gt 1 ] || fail "planted $k changes"
compare "$golden" "$dir/new" 1
grep -q "^verdicts unchanged, $k rows changed only in column schedules " \
	"$dir/out" || fail "schedules planted in $k rows: $(head -1 "$dir/out")"
grep -q '^  e\.g\. 3 unicorn .*: schedules [0-9]* -> [0-9]*$' "$dir/out" ||
	fail "no example row with its schedules"

# a verdict changed (and its result) in one row, a row removed in another
fresh
t=$dir/new/verdicts-native-2.tsv
awk -F '\t' -v OFS='\t' '!/^#/ && ++n == 3 { $7 = $7 == "PASS" ? "FAULT" : "PASS";
	$14 = "planted"; print $3, $4, $5 > "/dev/stderr" } !/^#/ && n == 5 { next }
	{ print }' "$golden/verdicts-native-2.tsv" >"$t" 2>"$dir/planted"
set -- $(cat "$dir/planted")
compare "$golden" "$dir/new" 1
grep -q '^1 verdicts changed, 1 rows changed, in columns: verdict 1 rows, result 1 rows; 1 cells only in the old table, 0 only in the new ' \
	"$dir/out" || fail "verdict planted: $(head -1 "$dir/out")"
grep -q "^  verdict changed: 2 native $1 $2 in $3, kernel .*: verdict " \
	"$dir/out" || fail "the verdict change is not listed with its cell"
grep -q '^  only in the old table: 2 native ' "$dir/out" ||
	fail "the removed row is not listed"

# scripts/verdicts-diff.sh: a commit's tables (here: a directory) against
# the working tree's
rc=0
sh "$src/scripts/verdicts-diff.sh" --tables "$golden" "$dir/new" "$tv" \
	>"$dir/out2" 2>&1 || rc=$?
[ "$rc" -eq 1 ] || fail "verdicts-diff.sh: exit $rc for a planted verdict"
cmp -s "$dir/out" "$dir/out2" || fail "verdicts-diff.sh says otherwise"

# a malformed table: one line, exit 2
fresh
printf '2\tnative\tx86_64\n' >>"$dir/new/verdicts-native-2.tsv"
compare "$golden" "$dir/new" 2
[ "$(wc -l <"$dir/err")" -eq 1 ] && grep -q 'not a row of 14' "$dir/err" ||
	fail "malformed table: $(cat "$dir/err")"
compare "$golden" "$dir/absent" 2
echo "golden diff check: ok ($rows rows; $k planted count changes)"
