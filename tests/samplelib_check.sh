#!/bin/sh
# samplelib_check.sh BUILD_DIR — the CMake package as a library uses it:
# selfmon installed into a private prefix, tests/samplelib configured
# against it with find_package(selfmon) and its one
# selfmon_add_reader_check() call, built, and its ctest run:
#   - the correct reader passes, a test per arch with a compiler, and each
#     writes a JUnit report that validates (tests/schemas/junit.xsd);
#   - the broken reader fails, the ctest output has the counterexample and
#     the replay command, and that command replays the failure;
#   - a usage error in the call stops configuration with its one line;
#   - an arch selfmon has no compiler for is said at configure and its
#     test is disabled (not run, not failed).
set -eu
build=$(cd "$1" && pwd)
src=$(cd "$(dirname "$0")/.." && pwd)
lib=$src/tests/samplelib
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
fail() {
	echo "samplelib check: $*" >&2
	exit 1
}
cmake --install "$build" --prefix "$dir/prefix" >/dev/null
selfmon=$dir/prefix/bin/selfmon

# configure_build DIR PREFIX [cmake args]: the sample library, built.
configure_build() {
	b=$1
	prefix=$2
	shift 2
	if ! cmake -S "$lib" -B "$b" -DCMAKE_PREFIX_PATH="$prefix" "$@" \
		>"$b.log" 2>&1 || ! cmake --build "$b" >>"$b.log" 2>&1; then
		cat "$b.log"
		fail "the sample library does not configure and build"
	fi
}

validate() { # the JUnit reports of build dir $1
	for x in "$1"/selfmon-reports/*.xml; do
		xmllint --noout --schema "$src/tests/schemas/junit.xsd" "$x" \
			2>"$dir/xmllint.out" || {
			cat "$dir/xmllint.out"
			fail "$x does not validate"
		}
	done
}

# How many arches the installed selfmon has a compiler for.
arches=$(grep -c '^set(SELFMON_C_COMPILER_[a-z0-9_]* "[^"]' \
	"$dir/prefix/lib/cmake/selfmon/selfmonConfig.cmake" || true)
[ "$arches" -ge 1 ] || fail "no compiler recorded in the package"

# 1. The correct reader passes on every arch.
configure_build "$dir/ok" "$dir/prefix"
ctest --test-dir "$dir/ok" --output-on-failure >"$dir/ok.out" 2>&1 || {
	cat "$dir/ok.out"
	fail "ctest fails for the correct reader"
}
passed=$(grep -c 'Test #.*selfmon_counter_read_.* Passed' "$dir/ok.out" || true)
[ "$passed" -eq "$arches" ] ||
	fail "$passed reader tests passed, expected $arches"
passed=$(grep -c 'Test #.*selfmon_counter_delta_.* Passed' "$dir/ok.out" || true)
[ "$passed" -eq "$arches" ] ||
	fail "$passed delta ABI tests passed, expected $arches"
[ "$(ls "$dir/ok/selfmon-reports" | wc -l)" -eq "$((2 * arches))" ] ||
	fail "not one JUnit report per arch and check"
validate "$dir/ok"

# 2. The broken one fails, with a counterexample that replays.
configure_build "$dir/bad" "$dir/prefix" -DSAMPLELIB_BROKEN=ON
if ctest --test-dir "$dir/bad" --output-on-failure >"$dir/bad.out" 2>&1; then
	cat "$dir/bad.out"
	fail "ctest passes for the broken reader"
fi
grep -q 'selfmon_counter_read_x86_64 .*Failed' "$dir/bad.out" ||
	fail "the x86_64 check did not fail"
grep -q 'exactly 2^48 above the truth' "$dir/bad.out" ||
	fail "no counterexample detail in the ctest output"
# the replay line runs as pasted: from elsewhere, selfmon not on PATH
# (the installed binary named by its absolute path)
real=$(cd "$dir/prefix/bin" && pwd -P)/selfmon
cmd=$(sed -n 's/^  replay:    \(.* replay .* --explain\)$/\1/p' "$dir/bad.out" |
	head -1)
[ -n "$cmd" ] || fail "no replay line in the ctest output"
case $cmd in
"$real replay '"*) ;;
*) fail "the replay line does not name $real: $cmd" ;;
esac
rc=0
(cd / && env -i PATH=/usr/bin:/bin sh -c "$cmd") >"$dir/replay.out" 2>&1 ||
	rc=$?
[ "$rc" -eq 1 ] && grep -q '^WRONG_VALUE' "$dir/replay.out" || {
	tail -5 "$dir/replay.out"
	fail "'$cmd' exited $rc, not 1 with WRONG_VALUE"
}
validate "$dir/bad"
grep -q '<failure message="WRONG_VALUE, expected PASS' \
	"$dir/bad/selfmon-reports/counter_read-x86_64.xml" ||
	fail "no <failure> in the broken reader's JUnit report"
# the check's NAME (--name) names the cases, not the object's build path
grep -q 'classname="selfmon.counter_read.x86_64"' \
	"$dir/bad/selfmon-reports/counter_read-x86_64.xml" ||
	fail "the JUnit classname is not selfmon.counter_read.x86_64"

# 3. Usage errors: the one line, and configuration stops.
usage_error() { # "EXPECTED LINE END" CALL-ARGUMENTS [BUILD-DIR]
	want=$1
	u=$dir/usage
	ub=${3:-$u-build}
	rm -rf "$u" "$ub"
	mkdir "$u"
	cat >"$u/CMakeLists.txt" <<-CMAKE
	cmake_minimum_required(VERSION 3.20)
	project(usage C)
	enable_testing()
	find_package(selfmon REQUIRED)
	selfmon_add_reader_check($2)
	CMAKE
	if cmake -S "$u" -B "$ub" -DCMAKE_PREFIX_PATH="$dir/prefix" \
		>"$u.out" 2>"$u.err"; then
		fail "configuration went on after: selfmon_add_reader_check($2)"
	fi
	first=$(grep -v '^$' "$u.err" | head -1)
	[ "$first" = "$u/CMakeLists.txt: selfmon_add_reader_check: $want" ] || {
		cat "$u.err"
		fail "wanted the line '...: $want', got '$first'"
	}
}
ok_src="$lib/counter_read.c"
usage_error "ABI must be raw, times, scaled, values, delta or reset (got 'wide')" \
	"NAME r SOURCES $ok_src SYMBOL counter_read ABI wide"
usage_error "SYMBOL is required (NAME, SOURCES, SYMBOL, ABI)" \
	"NAME r SOURCES $ok_src ABI values"
usage_error "unknown argument 'BOUNDS'" \
	"NAME r SOURCES $ok_src SYMBOL counter_read ABI values BOUNDS 2"
usage_error "unknown arch 'ppc64' in ARCHES (x86_64, arm64, riscv64)" \
	"NAME r SOURCES $ok_src SYMBOL counter_read ABI values ARCHES ppc64"
usage_error "BOUND must be 0..6 (got '9')" \
	"NAME r SOURCES $ok_src SYMBOL counter_read ABI values BOUND 9"
usage_error "source 'nope.c' not found" \
	"NAME r SOURCES nope.c SYMBOL counter_read ABI values"
usage_error "ARCHES needs a value" \
	"NAME r SOURCES $ok_src SYMBOL counter_read ABI values ARCHES"
# a build tree whose path selfmon would refuse as a reader's (was: every
# test failing at run time)
usage_error "the build directory '$dir/b#1' holds '#' or ':', which selfmon refuses in a reader's path; build in another directory" \
	"NAME r SOURCES $ok_src SYMBOL counter_read ABI values" "$dir/b#1"

# 4. An arch without a compiler: a configure message, a disabled test.
cp -r "$dir/prefix" "$dir/noarm"
sed -i 's/^set(SELFMON_C_COMPILER_arm64 .*/set(SELFMON_C_COMPILER_arm64 "")/' \
	"$dir/noarm/lib/cmake/selfmon/selfmonConfig.cmake"
configure_build "$dir/na" "$dir/noarm"
grep -q 'selfmon_add_reader_check(counter_read): no arm64 compiler: selfmon was configured without one (install gcc-aarch64-linux-gnu' "$dir/na.log" ||
	fail "no configure message for the missing arm64 compiler"
ctest --test-dir "$dir/na" >"$dir/na.out" 2>&1 || {
	cat "$dir/na.out"
	fail "ctest fails with a disabled arch"
}
grep -q 'selfmon_counter_read_arm64 .*Disabled' "$dir/na.out" ||
	fail "the arm64 test is not listed as disabled"
echo "samplelib check: $arches arches pass, the broken reader fails and replays"
