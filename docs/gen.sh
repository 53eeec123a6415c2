#!/usr/bin/env bash
# gen.sh SELFMON [--check] — regenerate the figures and examples of the
# README, HACKING.md, NEWS and the manual (docs/*.md) from real runs.
#
# Every block that follows a line
#     <!-- selfmon ARGS [| head -N] [| grep PATTERN] -->
# and is fenced with ``` is replaced by the output of `SELFMON ARGS`
# (run from the repository's top), trimmed as the optional filters say.
# A block after a line `<!-- example ARGS -->` is the same, run in a
# directory holding the objects of docs/examples/*.c (each compiled with
# `cc -O2 -c`, as the README shows), so that its output names them as the
# README's commands do.
# Every inline figure
#     <!--fig NAME-->VALUE<!--/fig-->
# gets VALUE from the run the table `figures` below names for NAME (a
# field of a `--json` document).  The pictures (plot) and the pages to
# step through a read (replay --html, explain-bug --html) that
# docs/abi.md links are regenerated too.
#
# With --check nothing is written: the exit status says whether the docs,
# their figures, pictures and pages are in sync with the tool (0) or not
# (1, with a diff), and whether a measured figure (a count of cells or
# schedules, a rate, a duration) stands in the prose outside a figure or
# a generated block, where no command would keep it true (1, naming the
# line).  A selfmon built without the cross compilers checks what it can
# (x86-64's pictures, the prose) and writes nothing (exit 2).
set -euo pipefail
cd "$(dirname "$0")/.."
selfmon=$1
mode=${2:-write}
docs=(README.md HACKING.md NEWS docs/*.md)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# The inline figures: NAME, the selfmon arguments of its run (each run
# once), the field of the run's JSON document (its last occurrence: the
# summary's, after the cells).
figures=(
	"cells|check --json --no-traces -q|cells_total"
	"schedules|check --json --no-traces -q|schedules"
	"overflow_schedules|check reference --scenario x86_overflow --json --no-traces -q|schedules"
	"overflow_counter_path|check reference --scenario x86_overflow --json --no-traces -q|counter_path"
	"kd_reset_compared|check --kernel-diff reset_prev_count --json --no-traces -q|compared"
	"kd_reset_changed|check --kernel-diff reset_prev_count --json --no-traces -q|changed"
	"kd_keep_compared|check --kernel-diff riscv_keep_scounteren --json --no-traces -q|compared"
	"kd_keep_changed|check --kernel-diff riscv_keep_scounteren --json --no-traces -q|changed"
	"kd_wmb_compared|check --kernel-diff userpage_wmb --json --no-traces -q|compared"
	"kd_wmb_changed|check --kernel-diff userpage_wmb --json --no-traces -q|changed"
	"kd_72_compared|check --kernel-diff 7.2 --json --no-traces -q|compared"
	"kd_72_changed|check --kernel-diff 7.2 --json --no-traces -q|changed"
	"kd_72_native_compared|check --engine native --kernel-diff 7.2 --json --no-traces -q|compared"
	"kd_72_native_changed|check --engine native --kernel-diff 7.2 --json --no-traces -q|changed"
)

# explain-bug ranks the failing examples of every arch built: a selfmon
# built without a cross compiler counts fewer ("chosen of 11 failing
# examples", not 18), embeds fewer candidates in its page and sweeps
# fewer cells.
all_arches=0
"$selfmon" --help | grep -q '^Arches built for: x86_64, arm64, riscv64' &&
	all_arches=1
if [ $all_arches = 0 ] && [ "$mode" != --check ]; then
	echo "docs/gen.sh: $selfmon was built without every arch (cross compilers); the docs show all three: not written" >&2
	exit 2
fi

# figure NAME: its value, 1,234-style; the runs are kept in $work.
figure() {
	local f name args field run i=0
	for f in "${figures[@]}"; do
		name=${f%%|*}
		args=${f#*|}
		field=${args##*|}
		args=${args%|*}
		i=$((i + 1))
		[ "$name" = "$1" ] || continue
		run=$work/run-$(printf '%s' "$args" | cksum | cut -d' ' -f1)
		[ -f "$run" ] || "$selfmon" $args >"$run" 2>/dev/null || true
		grep -oE "\"$field\":[0-9]+" "$run" | tail -1 | cut -d: -f2 |
			sed -E ':a; s/([0-9])([0-9]{3})($|,)/\1,\2\3/; ta'
		return 0
	done
	echo "docs/gen.sh: unknown figure '$1' (the table 'figures' in docs/gen.sh)" >&2
	return 1
}

# The figures the docs use, NAME=VALUE a line; their runs first, two at
# a time.
used=$(cat "${docs[@]}" 2>/dev/null | grep -oE '<!--fig [a-z0-9_]+-->' |
	sed -E 's/<!--fig ([a-z0-9_]+)-->/\1/' | sort -u)
if [ $all_arches = 1 ]; then
	for f in "${figures[@]}"; do
		args=${f#*|}
		args=${args%|*}
		echo "$used" | grep -qx "${f%%|*}" && echo "$args"
	done | sort -u | {
		while IFS= read -r args; do
			run=$work/run-$(printf '%s' "$args" | cksum | cut -d' ' -f1)
			"$selfmon" $args >"$run.tmp" 2>/dev/null &
			[ "$(jobs -rp | wc -l)" -lt 2 ] || wait -n || true
		done
		wait
	}
	for t in "$work"/run-*.tmp; do [ -f "$t" ] && mv "$t" "${t%.tmp}"; done
fi
: >"$work/figures"
for name in $used; do
	if [ $all_arches = 1 ]; then value=$(figure "$name") || exit 1; else value=N; fi
	[ -n "$value" ] || { echo "docs/gen.sh: figure '$name': its run gave no value" >&2; exit 1; }
	echo "$name=$value" >>"$work/figures"
done

# The examples' objects.
mkdir "$work/examples"
for c in docs/examples/*.c; do
	[ -f "$c" ] || continue
	o=$work/examples/$(basename "${c%.c}").o
	cc -O2 -c "$c" -o "$o" || { echo "docs/gen.sh: $c does not compile" >&2; exit 1; }
done
selfmon_abs=$(realpath "$(command -v "$selfmon")")

# gen FILE OUT: FILE with its blocks and figures made anew.
gen() {
	awk -v selfmon="$selfmon" -v example="cd '$work/examples' && '$selfmon_abs'" '
	/^<!-- (selfmon|example) .* -->$/ {
		print
		cmd = $0
		prefix = cmd ~ /^<!-- example / ? example : selfmon
		sub(/^<!-- (selfmon|example) /, "", cmd)
		sub(/ -->$/, "", cmd)
		pending = 1
		next
	}
	pending && /^```/ {
		print "```"
		full = prefix " " cmd " 2>&1"
		# not the progress line a run of over 10 s writes on stderr (a
		# loaded machine, the sanitizer build): it says how long, not what
		while ((full | getline line) > 0)
			if (line !~ /^selfmon: \[[0-9]+\/[0-9]+ cells\]/)
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
	' "$1" | FIGURES=$work/figures perl -pe '
		BEGIN { open(F, $ENV{FIGURES}) or die; while (<F>) { chomp; my ($k, $v) = split /=/, $_, 2; $fig{$k} = $v } }
		s/<!--fig ([a-z0-9_]+)-->.*?<!--\/fig-->/<!--fig $1-->$fig{$1}<!--\/fig-->/g' >"$2"
}

# lint FILE: the measured figures of its prose, outside the figures, the
# generated and fenced blocks, indented examples and `code`.
lint() {
	# a prose line with the first two words of the next one, so that a
	# figure broken over two lines ("8 of 216" / "cells") is seen
	awk '/^```/ { fence = !fence; next }
	fence || /^(    |\t)/ { if (held != "") print held; held = ""; next }
	{ if (held != "") { split($0, w, " "); print held " " w[1] " " w[2] }
	  held = FILENAME ":" FNR ": " $0 }
	END { if (held != "") print held }' "$1" |
		sed -E 's/<!--fig [a-z0-9_]+-->[^<]*<!--\/fig-->/FIG/g; s/`[^`]*`/CODE/g' |
		grep -E '(^|[^[:alnum:]_/])[0-9][0-9,.]*[kM]? (cells|schedules)\b|[0-9][0-9,]* of [0-9][0-9,]*( [^ ]+){0,2} (cells|schedules|runs|updates)\b|[0-9][0-9,.]*[kM]? ?(schedules/s|exec/s|schedules per second|runs in)|(~|about |takes |took |in |under )[0-9][0-9.,–-]* ?(s|ms|µs|ns|min|minutes|seconds|hours)\b|\b[0-9]+\.[0-9]+ ?(s|ms|µs|ns|min)\b' |
		sed 's/$/   <- a figure no command makes: put it in a <!--fig NAME--> (docs\/gen.sh) or a generated block, or leave it out/' || true
}

# The pictures abi.md shows.
plots=(
	"x86_reset --reader no_zero_ext_fix --schedule reset@10 -o NAME reset.svg"
	"x86_multiplex --reader reference -o NAME multiplex.svg"
	"arm64_timer_wrap --reader no_time_mask -o NAME timer_wrap.svg"
)
# The pages to step through a read that abi.md links: the command that
# writes it (a replay of a schedule, or explain-bug's own example, which
# abi.md quotes), file.
pages=(
	"explain-bug no_zero_ext_fix reset-quirk.html"
	"replay x86_64:unicorn:no_recheck:x86_remote:rotate_out@6,rotate_in@10 torn-read.html"
	"replay riscv64:unicorn:reference:riscv64_rotate:rotate_out@18 riscv64-sigill.html"
)
svgdir=$work/pictures
mkdir "$svgdir"
for p in "${plots[@]}"; do
	name=${p##* }
	args=${p% *}
	# a selfmon built without a cross compiler cannot draw the arm64 one
	"$selfmon" plot ${args/NAME/$svgdir/$name} 2>/dev/null || true
done
for p in "${pages[@]}"; do
	# each read fails (replay: exit 1); without its arch's reader code,
	# no file; explain-bug's page only from a selfmon of every arch
	if [ $all_arches = 1 ] || [ "${p%% *}" != explain-bug ]; then
		"$selfmon" ${p% *} --html "$svgdir/${p##* }" >/dev/null 2>&1 || true
	fi
	plots+=("- ${p##* }")
done

for doc in "${docs[@]}"; do
	[ -f "$doc" ] || continue
	gen "$doc" "$work/$(echo "$doc" | tr / _)"
done

if [ "$mode" = "--check" ]; then
	stale=0
	if [ $all_arches = 0 ]; then
		echo "docs: explain-bug's count of failing examples and the figures not checked (selfmon built without every arch)"
	fi
	# what a build without every arch counts differently, masked
	n='s/chosen of [0-9]+ failing examples/chosen of N failing examples/; s/<!--fig ([a-z0-9_]+)-->[^<]*<!--\/fig-->/<!--fig \1-->N<!--\/fig-->/g'
	for doc in "${docs[@]}"; do
		[ -f "$doc" ] || continue
		new=$work/$(echo "$doc" | tr / _)
		if [ $all_arches = 1 ]; then
			diff -u "$doc" "$new" || stale=1
		else
			diff -u <(sed -E "$n" "$doc") <(sed -E "$n" "$new") || stale=1
		fi
		lint "$doc" >"$work/lint"
		[ -s "$work/lint" ] && { cat "$work/lint"; stale=1; }
	done
	for p in "${plots[@]}"; do
		name=${p##* }
		if [ ! -f "$svgdir/$name" ]; then
			echo "docs/$name: not made by this selfmon, not checked"
			continue
		fi
		cmp -s "$svgdir/$name" "docs/$name" ||
			{ echo "docs/$name differs" >&2; stale=1; }
	done
	if [ $stale = 1 ]; then
		echo "docs are out of date: run docs/gen.sh build/selfmon" >&2
		exit 1
	fi
	echo "the docs, their $(grep -c . "$work/figures") figures, pictures and pages are in sync with selfmon"
else
	for doc in "${docs[@]}"; do
		[ -f "$doc" ] || continue
		cp "$work/$(echo "$doc" | tr / _)" "$doc"
		lint "$doc" >&2
	done
	for p in "${plots[@]}"; do
		if [ -f "$svgdir/${p##* }" ]; then cp "$svgdir/${p##* }" docs/; fi
	done
fi
