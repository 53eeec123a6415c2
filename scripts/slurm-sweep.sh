#!/usr/bin/env bash
# slurm-sweep.sh — a selfmon sweep as a Slurm array job on a private,
# single-node Slurm cluster started on this machine, then merged, with the
# wall time beside the single-process run of the same sweep.
#
# Owns: installing Debian's Slurm and MUNGE (as root), a throwaway cluster
# (config, key, state and logs in one temp dir; munged, slurmctld and
# slurmd started in the foreground of this script and stopped by their
# PIDs on exit), the array job, the merge and the figures.  It never uses
# or changes a system-wide Slurm or MUNGE set-up.
#
#   scripts/slurm-sweep.sh [--bound K] [--shards N] [--keep] [--no-single]
#                          [-- CHECK-OPTIONS...]
#
#   --bound K     the sweep's bound (default $BOUND or 4, the issue's sweep)
#   --shards N    array tasks (default $SHARDS or 8); each runs
#                 'selfmon check --shard auto --json -j 1' on one CPU
#   --keep        keep the temp dir (config, logs, shard outputs)
#   --no-single   skip the single-process run (no comparison)
#   CHECK-OPTIONS more options for every check (e.g. --scenario x86_reset)
#
# Environment: SELFMON (default build/selfmon), BOUND, SHARDS, SLURM_PORT
# (slurmctld's port, slurmd uses the next; default: the first free pair
# from 16817).  Exit status: the merge's (check's: 0 all as expected), or
# 2 when the cluster or a shard failed.
set -euo pipefail
cd "$(dirname "$0")/.."

BOUND=${BOUND:-4}
SHARDS=${SHARDS:-8}
SELFMON=${SELFMON:-build/selfmon}
KEEP=0
SINGLE=1
CHECK_ARGS=()

die() { echo "slurm-sweep: $*" >&2; exit 2; }

while [ $# -gt 0 ]; do
	case $1 in
	--bound) BOUND=${2:?--bound needs K}; shift 2 ;;
	--shards) SHARDS=${2:?--shards needs N}; shift 2 ;;
	--keep) KEEP=1; shift ;;
	--no-single) SINGLE=0; shift ;;
	--) shift; CHECK_ARGS=("$@"); break ;;
	-h|--help) sed -n '2,26p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
	*) die "unknown option '$1' (see --help)" ;;
	esac
done
[[ $BOUND =~ ^[0-9]+$ ]] || die "--bound needs a number, not '$BOUND'"
[[ $SHARDS =~ ^[1-9][0-9]*$ ]] || die "--shards needs a number > 0, not '$SHARDS'"
[ -x "$SELFMON" ] || die "$SELFMON not built (cmake -S . -B build && cmake --build build)"
SELFMON=$(realpath "$SELFMON")

PACKAGES=(slurmctld slurmd slurm-client munge)
. scripts/packages.sh # need_packages

# A TCP port nobody listens on (bash's /dev/tcp: a refused connect).
port_free() { ! (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }

pick_ports() {
	local p=${SLURM_PORT:-16817}
	while ! port_free "$p" || ! port_free $((p + 1)); do
		[ -n "${SLURM_PORT:-}" ] && die "port $p or $((p + 1)) is in use (SLURM_PORT)"
		p=$((p + 2))
		[ "$p" -lt 17817 ] || die "no free port pair in 16817-17816"
	done
	CTLD_PORT=$p
	SLURMD_PORT=$((p + 1))
}

PIDS=()
DIR=
cleanup() {
	local rc=$? pid
	for pid in "${PIDS[@]}"; do
		kill "$pid" 2>/dev/null || true
	done
	for pid in "${PIDS[@]}"; do
		wait "$pid" 2>/dev/null || true
	done
	if [ -n "$DIR" ]; then
		if [ "$KEEP" = 1 ] || [ "$rc" -eq 2 ]; then
			echo "slurm-sweep: logs, config and outputs kept in $DIR" >&2
		else
			rm -rf "$DIR"
		fi
	fi
	exit "$rc"
}

write_config() {
	local user host cpus
	user=$(id -un)
	host=$(hostname -s)
	cpus=$(nproc)
	mkdir -p "$DIR/state" "$DIR/spool/$host" "$DIR/out"
	# no cgroups anywhere: processes tracked by their parent, no task
	# binding, no accounting; the node is this host on loopback
	cat >"$DIR/slurm.conf" <<-EOF
	ClusterName=selfmon
	SlurmctldHost=$host(127.0.0.1)
	SlurmctldPort=$CTLD_PORT
	SlurmdPort=$SLURMD_PORT
	SlurmUser=$user
	SlurmdUser=$user
	AuthType=auth/munge
	AuthInfo=socket=$DIR/munge.sock
	CredType=cred/munge
	StateSaveLocation=$DIR/state
	SlurmdSpoolDir=$DIR/spool/%n
	SlurmctldPidFile=$DIR/slurmctld.pid
	SlurmdPidFile=$DIR/slurmd.pid
	SlurmctldLogFile=$DIR/slurmctld.log
	SlurmdLogFile=$DIR/slurmd.log
	ProctrackType=proctrack/linuxproc
	TaskPlugin=task/none
	JobAcctGatherType=jobacct_gather/none
	AccountingStorageType=accounting_storage/none
	JobCompType=jobcomp/none
	MailProg=/bin/true
	SchedulerType=sched/builtin
	SelectType=select/cons_tres
	SelectTypeParameters=CR_CPU
	MpiDefault=none
	ReturnToService=2
	SlurmctldTimeout=30
	SlurmdTimeout=30
	MaxArraySize=100001
	NodeName=$host NodeAddr=127.0.0.1 CPUs=$cpus State=UNKNOWN
	PartitionName=selfmon Nodes=$host Default=YES MaxTime=INFINITE State=UP
	EOF
}

start_munge() {
	dd if=/dev/urandom of="$DIR/munge.key" bs=1 count=1024 status=none
	chmod 400 "$DIR/munge.key"
	munged --foreground --force --key-file="$DIR/munge.key" \
		--socket="$DIR/munge.sock" --pid-file="$DIR/munged.pid" \
		--log-file="$DIR/munged.log" --seed-file="$DIR/munged.seed" \
		>"$DIR/munged.out" 2>&1 &
	PIDS+=($!)
	for _ in $(seq 50); do
		[ -S "$DIR/munge.sock" ] && return 0
		sleep 0.1
	done
	die "munged did not start: $(tail -3 "$DIR/munged.log" 2>/dev/null)"
}

start_slurm() {
	export SLURM_CONF=$DIR/slurm.conf
	slurmctld -D -f "$SLURM_CONF" >"$DIR/slurmctld.out" 2>&1 &
	PIDS+=($!)
	slurmd -D -f "$SLURM_CONF" >"$DIR/slurmd.out" 2>&1 &
	PIDS+=($!)
	local state
	for _ in $(seq 300); do
		state=$(sinfo -h -o %T 2>/dev/null | head -1 || true)
		case $state in idle*|mixed*|allocated*) return 0 ;; esac
		for pid in "${PIDS[@]}"; do
			kill -0 "$pid" 2>/dev/null ||
				die "a daemon stopped: $(tail -3 "$DIR"/slurm*.log "$DIR"/slurm*.out 2>/dev/null | tr '\n' ' ')"
		done
		sleep 0.1
	done
	die "the node did not come up (state '${state:-none}'; logs in $DIR)"
}

now() { date +%s.%N; }
elapsed() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.1f", b - a }'; }

# The array job: shard I of N in task I, its JSON on stdout, the line
# saying where --shard auto found I/N on stderr.
run_array() {
	local extra=
	[ ${#CHECK_ARGS[@]} -eq 0 ] || extra=$(printf " '%s'" "${CHECK_ARGS[@]}")
	cat >"$DIR/shard.sh" <<-EOF
	#!/bin/sh
	exec "$SELFMON" check --shard auto --json --no-traces --bound $BOUND \\
		-j "\${SLURM_CPUS_PER_TASK:-1}"$extra
	EOF
	local t0 t1 rc=0
	t0=$(now)
	sbatch --wait --quiet --array=0-$((SHARDS - 1)) --cpus-per-task=1 \
		--job-name=selfmon-sweep --chdir="$PWD" \
		--output="$DIR/out/part-%a.json" --error="$DIR/out/part-%a.err" \
		"$DIR/shard.sh" || rc=$?
	t1=$(now)
	ARRAY_WALL=$(elapsed "$t0" "$t1")
	# check's statuses 0, 1, 3, 4 are verdicts; 2 is a failure to run
	local i bad=0
	for ((i = 0; i < SHARDS; i++)); do
		if ! grep -q "shard $i/$SHARDS from the Slurm array" "$DIR/out/part-$i.err" 2>/dev/null; then
			echo "slurm-sweep: task $i: $(head -3 "$DIR/out/part-$i.err" 2>/dev/null | tr '\n' ' ')" >&2
			bad=1
		fi
	done
	[ "$bad" = 0 ] || die "some array tasks failed (sbatch exit $rc)"
}

main() {
	need_packages slurm-sweep 2 "${PACKAGES[@]}"
	pick_ports
	DIR=$(mktemp -d /tmp/selfmon-slurm.XXXXXX)
	trap cleanup EXIT
	trap 'exit 2' INT TERM
	write_config
	start_munge
	start_slurm
	echo "slurm-sweep: cluster up ($(nproc) CPUs, slurmctld :$CTLD_PORT, $DIR);" \
		"bound $BOUND, $SHARDS array tasks" >&2
	run_array
	local parts=() i
	for ((i = 0; i < SHARDS; i++)); do parts+=("$DIR/out/part-$i.json"); done
	local rc=0
	"$SELFMON" merge "${parts[@]}" || rc=$?
	"$SELFMON" merge --json "${parts[@]}" >"$DIR/merged.json" || true
	echo
	echo "array job, $SHARDS tasks on $(nproc) CPUs: ${ARRAY_WALL} s wall"
	if [ "$SINGLE" = 1 ]; then
		local t0 t1 src=0
		t0=$(now)
		"$SELFMON" check --json --no-traces --bound "$BOUND" -j "$(nproc)" \
			"${CHECK_ARGS[@]}" >"$DIR/single.json" || src=$?
		t1=$(now)
		echo "single process, -j $(nproc): $(elapsed "$t0" "$t1") s wall (exit $src)"
		if cmp -s "$DIR/single.json" "$DIR/merged.json"; then
			echo "merged document: identical to the single process's"
		else
			echo "merged document: differs from the single process's" \
				"(cells cut by --time-limit are not deterministic)"
		fi
	fi
	return "$rc"
}

main
