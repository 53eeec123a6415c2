# selfmon-completion.bash — bash completion for selfmon (installed as
# share/bash-completion/completions/selfmon; or `source` this file).
#
# Every candidate comes from the selfmon being completed, so the
# completion cannot drift from it: the commands from `selfmon --help`,
# each command's options from `selfmon COMMAND --help`, and the readers,
# scenarios, arches, actions and kernel variants from
# `selfmon list --names KIND`.  Values: --arch an arch (or all),
# --scenario a bundled name or a .scn file, --actions/--without a
# comma-separated list of actions, --kernel/--kernel-diff a kernel or a
# list of them (and --kernel-diff the B of A..B),
# --engine, --abi their words, files for the options that take one.

# The selfmon to ask: the word typed (~ expanded), else selfmon on PATH.
_selfmon_bin() {
	local b=${COMP_WORDS[0]}
	[[ $b == "~/"* ]] && b=$HOME/${b#\~/}
	if [[ $b == */* ]]; then
		[[ -x $b ]] && { printf '%s' "$b"; return; }
		b=selfmon
	fi
	printf '%s' "$b"
}

_selfmon() {
	local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD - 1]}
	local sm cmd="" i words
	sm=$(_selfmon_bin)
	COMPREPLY=()
	for ((i = 1; i < COMP_CWORD; i++)); do
		[[ ${COMP_WORDS[i]} == -* ]] && continue
		cmd=${COMP_WORDS[i]}
		break
	done
	if [[ -z $cmd ]]; then
		words=$("$sm" --help 2>/dev/null |
			sed -n '/^commands:$/,/^$/s/^  \([a-z][a-z-]*\)  .*/\1/p')
		COMPREPLY=($(compgen -W "$words --help --version -V" -- "$cur"))
		return 0
	fi
	case $prev in
	--arch)
		words="$("$sm" list --names arches 2>/dev/null) all"
		COMPREPLY=($(compgen -W "$words" -- "$cur"))
		return 0 ;;
	--scenario)
		words=$("$sm" list --names scenarios 2>/dev/null)
		COMPREPLY=($(compgen -W "$words" -- "$cur") $(compgen -f -X '!*.scn' -- "$cur") $(compgen -d -S / -- "$cur"))
		return 0 ;;
	--actions | --without)
		local head="" last=$cur
		if [[ $cur == *,* ]]; then
			head=${cur%,*},
			last=${cur##*,}
		fi
		words=$("$sm" list --names actions 2>/dev/null)
		COMPREPLY=($(compgen -P "$head" -W "$words" -- "$last"))
		compopt -o nospace 2>/dev/null
		return 0 ;;
	--kernel | --kernel-diff)
		# a list V,V... and, for --kernel-diff, A..B: complete the
		# name after the last ',' or '..'
		local head="" last=$cur
		if [[ $prev == --kernel-diff && $last == *..* ]]; then
			head=${last%..*}..
			last=${last##*..}
		fi
		if [[ $last == *,* ]]; then
			head=$head${last%,*},
			last=${last##*,}
		fi
		words=$("$sm" list --names kernels 2>/dev/null)
		COMPREPLY=($(compgen -P "$head" -W "$words" -- "$last"))
		[[ -n $head ]] && compopt -o nospace 2>/dev/null
		return 0 ;;
	--engine)
		COMPREPLY=($(compgen -W "unicorn native" -- "$cur"))
		return 0 ;;
	--abi)
		COMPREPLY=($(compgen -W "raw times scaled values" -- "$cur"))
		return 0 ;;
	--traces)
		COMPREPLY=($(compgen -d -- "$cur"))
		return 0 ;;
	-o | --out | --junit | --html | --compare | --kernel-image)
		COMPREPLY=($(compgen -f -- "$cur"))
		return 0 ;;
	-j | --bound | --random | --seed | --time-limit | --shard | \
	--iterations | --duration | --timeout | --user-access | --names | --events | \
	--reader | --schedule)
		case $prev in
		--names) COMPREPLY=($(compgen -W "readers scenarios arches actions kernels" -- "$cur")) ;;
		--reader) COMPREPLY=($(compgen -W "$("$sm" list --names readers 2>/dev/null)" -- "$cur")) ;;
		esac
		return 0 ;;
	esac
	if [[ $cur == -* ]]; then
		words=$("$sm" "$cmd" --help 2>/dev/null |
			grep -oE -- '(^|[][ ,|(])--?[a-zA-Z][a-zA-Z0-9-]*' |
			sed 's/^[][ ,|(]//' | sort -u)
		COMPREPLY=($(compgen -W "$words" -- "$cur"))
		return 0
	fi
	case $cmd in
	check | explore | explain-bug | hw)
		words=$("$sm" list --names readers 2>/dev/null)
		COMPREPLY=($(compgen -W "$words" -- "$cur"))
		[[ $cmd == hw && $COMP_CWORD -eq 2 ]] &&
			COMPREPLY+=($(compgen -W record -- "$cur"))
		[[ $cmd == check || $cmd == explore ]] &&
			COMPREPLY+=($(compgen -f -- "$cur"))
		;;
	model | plot)
		words=$("$sm" list --names scenarios 2>/dev/null)
		COMPREPLY=($(compgen -W "$words" -- "$cur") $(compgen -f -X '!*.scn' -- "$cur") $(compgen -d -S / -- "$cur"))
		;;
	vm)
		if [[ $COMP_CWORD -eq 2 ]]; then
			COMPREPLY=($(compgen -W "arm64 riscv64" -- "$cur"))
		else
			words=$("$sm" list --names readers 2>/dev/null)
			COMPREPLY=($(compgen -W "$words record" -- "$cur"))
		fi
		;;
	replay | merge)
		COMPREPLY=($(compgen -f -- "$cur"))
		;;
	esac
	return 0
}

complete -F _selfmon selfmon
