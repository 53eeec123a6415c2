#!/usr/bin/env bash
# dev.sh — install what is missing, build, and run selfmon.
#
#   ./dev.sh run        the main job (see README)
#   ./dev.sh test       build and run the test suite (ctest), all of it,
#                       CPUs + 1 at a time (test_vm's kernels built first
#                       if they are not up to date: vm-kernels)
#   ./dev.sh quick      the fast tier: every test but those labelled slow
#                       (the golden sweeps, the sweeps over every reader,
#                       the real kernels of test_vm), CPUs + 1 at a time
#   ./dev.sh sanitize   the fast tier built with ASan + UBSan (build-asan/)
#   ./dev.sh nocross    the fast tier of a build without the cross compilers
#   ./dev.sh bench      the benchmarks (figures; --json for a document)
#   ./dev.sh fuzz [S]   the libFuzzer targets (fuzz/, clang, build-fuzz/):
#                       each S seconds (default 300) from its seed corpus
#                       and regression inputs, one a CPU at a time; fails
#                       on a crash
#   ./dev.sh vm-kernels the kernels `selfmon vm` boots: Linux from Debian's
#                       linux-source-6.12, tinyconfig + vm/ARCH.config, for
#                       arm64 and riscv64 into build-vm/ (kept, and in the
#                       cache a fresh clone takes them from: HACKING.md;
#                       ~3 min each to build)
#   ./dev.sh fresh-root the README's set-up and the ready CI job in a
#                       fresh minimal Debian 12 root
#                       (tests/fresh_root_check.sh; root and Debian's
#                       mirror needed, else it says it is skipped)
#   ./dev.sh build      only install and build
#
# Debian packages are installed with apt-get when run as root; otherwise the
# exact apt-get line is printed and the script stops.
set -euo pipefail
cd "$(dirname "$0")"

PACKAGES=(build-essential cmake pkg-config libunicorn-dev libcmocka-dev libelf-dev libdw-dev clang lld libclang-rt-14-dev libcapstone-dev chromium libxml2-utils perl strace
          gcc-aarch64-linux-gnu gcc-riscv64-linux-gnu
          libc6-dev-arm64-cross libc6-dev-riscv64-cross
          qemu-system-arm qemu-system-misc opensbi
          linux-source-6.12 flex bison bc xz-utils mmdebstrap ccache)

. scripts/packages.sh # need_packages

# Compiles go through ccache (its cache in ~/.cache/ccache): a build in a
# fresh clone, CI's four among them, compiles only what changed since
# the last build of the same flags on this machine.
build() { # DIR [cmake options...]
	local dir=$1
	shift
	cmake -S . -B "$dir" -DCMAKE_BUILD_TYPE=RelWithDebInfo \
		-DCMAKE_C_COMPILER_LAUNCHER=ccache -DCMAKE_CXX_COMPILER_LAUNCHER=ccache \
		"$@" >/dev/null
	cmake --build "$dir" -j "$(nproc)" -- --no-print-directory
}

# ctest runs one test more at a time than there are CPUs: some tests wait
# much of their time (the install tests on cmake, test_interrupt on a
# progress line, test_vm on QEMU's boot), and the one
# more fills that time.  No test asserts a time.
TESTJOBS=$(($(nproc) + 1))

FUZZERS=(scenario schedule hwtrace elf json cex vmwire engine)

# fuzz SECONDS: build the fuzz targets, then fuzz_one each, as many at a
# time as there are CPUs (each target single-threaded, so each still gets
# SECONDS of a CPU); one summary line per target, in FUZZERS' order.
fuzz() {
	local secs=$1 dir=build-fuzz jobs lane t rc=0
	CC=clang cmake -S . -B "$dir" -DCMAKE_BUILD_TYPE=RelWithDebInfo \
		-DCMAKE_C_COMPILER_LAUNCHER=ccache -DSELFMON_FUZZ=ON \
		-DSELFMON_CROSS=OFF >/dev/null
	cmake --build "$dir" -j "$(nproc)" --target fuzz -- --no-print-directory
	jobs=$(nproc)
	rm -f "$dir"/fuzz/fuzz_*.out
	# lane L: the targets L, L + jobs, ...; each its output in a file
	for ((lane = 0; lane < jobs; lane++)); do
		(
			for ((t = lane; t < ${#FUZZERS[@]}; t += jobs)); do
				fuzz_one "$dir" "${FUZZERS[t]}" "$secs" \
					>"$dir/fuzz/fuzz_${FUZZERS[t]}.out" 2>&1 || exit 1
			done
		) &
	done
	for ((lane = 0; lane < jobs; lane++)); do
		wait -n || rc=1
	done
	for t in "${FUZZERS[@]}"; do
		[ ! -f "$dir/fuzz/fuzz_$t.out" ] || cat "$dir/fuzz/fuzz_$t.out"
		rm -f "$dir/fuzz/fuzz_$t.out"
	done
	return "$rc"
}

# fuzz_one DIR TARGET SECONDS: run the target's regression inputs once,
# then fuzz it for SECONDS from its seeds (in a private corpus directory,
# so the tree is not written); its summary line, or its log's tail.
fuzz_one() {
	local dir=$1 t=$2 secs=$3 seeds work log runs regress
	case $t in
	scenario) seeds=$dir/fuzz/seeds/scenario ;;
	schedule) seeds=fuzz/seeds/schedule ;;
	hwtrace) seeds=traces/hw ;;
	elf) seeds=$dir/fuzz/seeds/elf ;;
	json) seeds=fuzz/seeds/json ;;
	cex) seeds=fuzz/seeds/cex ;;
	vmwire) seeds=fuzz/seeds/vmwire ;;
	engine) seeds=$dir/fuzz/seeds/engine ;;
	esac
	log=$dir/fuzz/fuzz_$t.log
	regress=fuzz/regress/$t
	[ -d "$regress" ] || regress=$seeds # a target no bug was found by yet
	if ! "$dir/fuzz/fuzz_$t" "$regress"/* >"$log" 2>&1; then
		tail -40 "$log"
		echo "dev.sh: fuzz_$t fails on a regression input (log: $log)" >&2
		return 1
	fi
	work=$(mktemp -d)
	if ! "$dir/fuzz/fuzz_$t" -max_total_time="$secs" -timeout=60 \
		-print_final_stats=1 -artifact_prefix="$dir/fuzz/crash-$t-" \
		"$work" "$seeds" "$regress" >"$log" 2>&1; then
		rm -rf "$work"
		tail -60 "$log"
		echo "dev.sh: fuzz_$t found a crash (log: $log)" >&2
		return 1
	fi
	runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
	echo "fuzz_$t: ${runs:-?} runs in $secs s, $(( ${runs:-0} / secs )) exec/s," \
		"corpus $(ls "$work" | wc -l) new + seeds, no crash"
	rm -rf "$work"
}

# The kernels of `selfmon vm` (test_vm boots them).
kernels() {
	local a
	for a in arm64 riscv64; do
		sh vm/build-kernel.sh "$a" build-vm
	done
}

need_packages dev.sh 1 "${PACKAGES[@]}"
case "${1:-}" in
run)
	build build
	# The main job: every built-in reader, every bundled scenario, every
	# schedule of up to two kernel actions, judged against the truth.
	./build/selfmon check
	;;
test)
	build build
	# test_vm's kernels: the test vm_kernels (a fixture ctest runs first)
	ctest --test-dir build --output-on-failure -j "$TESTJOBS"
	;;
quick)
	build build
	ctest --test-dir build --output-on-failure -LE slow -j "$TESTJOBS"
	;;
sanitize)
	build build-asan -DSELFMON_SANITIZE=ON
	# the slow sweeps and test_vm run in the plain build (./dev.sh test)
	# and the docs and packaging tests (label plain) run in the plain
	# builds: their commands are the other tests' (tests/CMakeLists.txt)
	ASAN_OPTIONS=detect_leaks=1 ctest --test-dir build-asan \
		--output-on-failure -LE 'slow|plain' -j "$TESTJOBS"
	;;
fresh-root)
	# the source tree, not a build: its downloads go to the cache
	mkdir -p build
	rc=0
	sh tests/fresh_root_check.sh build || rc=$?
	[ "$rc" -ne 77 ] || rc=0 # skipped, and it said why
	exit "$rc"
	;;
bench)
	build build
	./build/selfmon_bench "${@:2}"
	;;
nocross)
	build build-nocross -DSELFMON_CROSS=OFF
	ctest --test-dir build-nocross --output-on-failure -LE slow -j "$TESTJOBS"
	;;
fuzz)
	fuzz "${2:-300}"
	;;
vm-kernels)
	build build
	kernels
	;;
build)
	build build
	;;
*)
	sed -n '2,/^[^#]/p' "$0" | sed '$d; s/^# \{0,1\}//'
	exit 2
	;;
esac
