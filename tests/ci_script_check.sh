#!/bin/sh
# ci_script_check.sh BUILD_DIR — docs/ci/selfmon-ci.sh, the plain-shell CI
# job, run as a CI would run it on tests/samplelib (selfmon installed from
# BUILD_DIR as from a cache; no Debian packages touched): exit 0 and a
# schema-valid JUnit report per arch for the correct reader, exit 1 with
# the replay command in its output for the broken one, exit 2 and one
# line for a library that is not there.  The GitHub Actions workflow
# beside it must parse as YAML (where python3 has yaml) and run that
# script.
set -eu
build=$(cd "$1" && pwd)
src=$(cd "$(dirname "$0")/.." && pwd)
script=$src/docs/ci/selfmon-ci.sh
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
fail() {
	echo "ci script check: $*" >&2
	exit 1
}
export SELFMON_BUILD="$build" SELFMON_NO_APT=1 JOBS=2

rc=0
WORK=$dir/ok sh "$script" "$src/tests/samplelib" >"$dir/ok.out" 2>&1 || rc=$?
[ "$rc" -eq 0 ] || {
	cat "$dir/ok.out"
	fail "exit $rc for the correct reader"
}
n=0
for x in "$dir"/ok/reports/*.xml; do
	xmllint --noout --schema "$src/tests/schemas/junit.xsd" "$x" 2>/dev/null ||
		fail "$x does not validate"
	n=$((n + 1))
done
[ "$n" -ge 1 ] || fail "no JUnit report"

rc=0
WORK=$dir/bad sh "$script" "$src/tests/samplelib" -DSAMPLELIB_BROKEN=ON \
	>"$dir/bad.out" 2>&1 || rc=$?
[ "$rc" -eq 1 ] || {
	cat "$dir/bad.out"
	fail "exit $rc for the broken reader, not 1"
}
grep -q "^  replay:    /.*/selfmon replay '" "$dir/bad.out" ||
	fail "no replay command in the broken reader's output"
grep -q '<failure ' "$dir"/bad/reports/counter_read-x86_64.xml ||
	fail "no <failure> in the broken reader's report"

rc=0
WORK=$dir/none sh "$script" "$dir/no-such-library" >"$dir/none.out" 2>&1 ||
	rc=$?
[ "$rc" -eq 2 ] && [ "$(wc -l <"$dir/none.out")" -eq 1 ] &&
	grep -q '^selfmon-ci: no library at ' "$dir/none.out" || {
	cat "$dir/none.out"
	fail "exit $rc for a missing library, not 2 with one line"
}

workflow=$src/docs/ci/github-actions.yml
grep -q 'run: sh selfmon/docs/ci/selfmon-ci.sh library' "$workflow" ||
	fail "the workflow does not run the script"
if python3 -c 'import yaml' 2>/dev/null; then
	python3 -c 'import sys, yaml; yaml.safe_load(open(sys.argv[1]))' \
		"$workflow" || fail "$workflow is not YAML"
fi
echo "ci script check: passes the correct reader, fails the broken one"
