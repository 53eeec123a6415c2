#!/usr/bin/env bash
# completion_check.sh SELFMON — scripts/selfmon-completion.bash in bash as
# bash runs it: the script registers _selfmon for `selfmon` (complete -p),
# and with COMP_WORDS/COMP_CWORD set as bash sets them, the function
# offers the commands, each command's options (from its --help), the
# readers, scenarios, arches, actions and kernel variants (from
# `selfmon list --names`), and a list of actions after a comma.
set -euo pipefail
selfmon=$1
src=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=../scripts/selfmon-completion.bash
source "$src/scripts/selfmon-completion.bash"
fail() {
	echo "completion check: $*" >&2
	exit 1
}
[[ $(complete -p selfmon) == "complete -F _selfmon selfmon" ]] ||
	fail "not registered: $(complete -p selfmon 2>&1)"

n=0
# expect "WORDS..." -- CANDIDATE...: completing the last word offers at
# least these; expect_not the same, offers none of them.  (grep reads all
# its input: with -q it could stop early, printf take SIGPIPE, and
# pipefail fail a match.)
candidates() {
	local typed
	read -r -a typed <<<"$1"
	COMP_WORDS=("$selfmon" "${typed[@]}")
	if [[ -z $1 || $1 == *" " ]]; then COMP_WORDS+=(""); fi
	COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
	# as bash calls it: not under set -e (compgen finding nothing is 1)
	set +e
	_selfmon
	set -e
}
expect() {
	local words=$1 c
	shift
	candidates "$words"
	for c in "$@"; do
		printf '%s\n' "${COMPREPLY[@]}" | grep -xF -- "$c" >/dev/null ||
			fail "'selfmon $words' does not offer $c (offers: ${COMPREPLY[*]})"
		n=$((n + 1))
	done
}
expect_not() {
	local words=$1 c
	shift
	candidates "$words"
	for c in "$@"; do
		! printf '%s\n' "${COMPREPLY[@]}" | grep -xF -- "$c" >/dev/null ||
			fail "'selfmon $words' offers $c"
		n=$((n + 1))
	done
}

expect "" check explore merge replay explain-bug plot model hw vm list -V
expect "ch" check
expect_not "ch" model list
expect "check --sc" --scenario
expect "check --" --arch --bound --junit --tap --json --kernel --without
expect "replay --" --explain --html --kernel
expect_not "replay --" --bound
expect "check --scenario x86_re" x86_reset x86_remote
expect_not "check --scenario x86_re" arm64_bias
expect "check --arch " x86_64 arm64 riscv64 all
expect "check --without reset,ov" reset,overflow
expect "check --actions " rotate_out lock_early
expect "check --without st" stale_select
expect "check --kernel " base reset_prev_count userpage_wmb
expect "check --kernel-diff 6.12..7" 6.12..7.2
expect "check --kernel-diff 6.12..7.2,user" 6.12..7.2,userpage_wmb
expect "check --kernel 7.2,res" 7.2,reset_prev_count
expect_not "check --kernel 6.12..7" 6.12..7.2
expect "model --" --kernel-diff --kernel --json
expect "model --kernel-diff re" reset_prev_count
expect "check --engine " unicorn native
expect "check --abi " raw times scaled values
expect "check refe" reference
expect "check --bound 2 no_s" no_sext
expect "model x86_o" x86_overflow
expect "plot --reader no_" no_sext
expect "list --names " readers scenarios arches actions kernels
expect "vm " arm64 riscv64
# every name selfmon lists, offered where it belongs
for kind in readers scenarios arches actions; do
	case $kind in
	readers) words="check " ;;
	scenarios) words="model " ;;
	arches) words="check --arch " ;;
	actions) words="check --without " ;;
	esac
	mapfile -t all < <("$selfmon" list --names "$kind")
	[[ ${#all[@]} -ge 3 ]] || fail "few $kind from selfmon list --names"
	expect "$words" "${all[@]}"
done
echo "completion check: $n candidates offered as expected"
