#!/bin/sh
# man.sh SELFMON OUTDIR — the manual pages of selfmon, made from its own
# help: selfmon(1) from `selfmon --help`, and selfmon-COMMAND(1) from
# `selfmon COMMAND --help` for every command that help lists (as git and
# perf have one page per command).  The build runs it on the binary it
# has just built (the man target), so a page cannot say other than
# --help; tests/man_check.sh proves it.  Each page: NAME (the command's
# line of `selfmon --help`), SYNOPSIS (its usage lines), DESCRIPTION (the
# rest of its help, line for line, in roff's no-fill mode: the help's own
# layout), SEE ALSO.  Writes OUTDIR/*.1; exit 2 and one line if the help
# cannot be read.
set -eu
selfmon=$1
out=$2
die() {
	echo "man.sh: $*" >&2
	exit 2
}
version=$("$selfmon" --version) || die "$selfmon --version fails"
top=$("$selfmon" --help) || die "$selfmon --help fails"
commands=$(printf '%s\n' "$top" |
	sed -n '/^commands:$/,/^$/s/^  \([a-z][a-z-]*\)  .*/\1/p')
[ -n "$commands" ] || die "no commands in $selfmon --help"
mkdir -p "$out"

# roff: a backslash is \e, a minus \- (so options copy as typed), a line
# that starts with '.' or "'" is protected by \&.
roff() {
	sed -e 's/\\/\\e/g' -e 's/-/\\-/g' -e "s/^[.']/\\\\\&&/"
}

# page NAME SUMMARY HELP SEEALSO > file
page() {
	name=$1 summary=$2 help=$3 see=$4
	upper=$(printf '%s' "$name" | tr a-z A-Z)
	printf '.TH %s 1 "" "%s" "selfmon manual"\n' "$upper" "$version"
	printf '.SH NAME\n%s \\- %s\n' "$(printf '%s' "$name" | roff)" \
		"$(printf '%s' "$summary" | roff)"
	# the usage block: the first paragraph, without "usage: "
	printf '.SH SYNOPSIS\n.nf\n'
	printf '%s\n' "$help" | sed -n '1,/^$/{/^$/!p}' |
		sed 's/^usage: //; s/^       //' | roff
	printf '.fi\n.SH DESCRIPTION\n.nf\n'
	printf '%s\n' "$help" | sed '1,/^$/d' | roff
	printf '.fi\n.SH SEE ALSO\n%s\n' "$see"
}

see=""
for c in $commands; do
	see="$see${see:+,
}.BR selfmon\\-$(printf '%s' "$c" | roff) (1)"
done
# selfmon(1)'s NAME line: the help's first paragraph after the usage
page selfmon "$(printf '%s\n' "$top" | sed '1,/^$/d' | sed '/^$/,$d' |
	tr '\n' ' ' | sed 's/^selfmon //; s/ *$//')" "$top" "$see" \
	>"$out/selfmon.1.tmp"
mv "$out/selfmon.1.tmp" "$out/selfmon.1"
for c in $commands; do
	help=$("$selfmon" "$c" --help) || die "$selfmon $c --help fails"
	summary=$(printf '%s\n' "$top" |
		sed -n "s/^  $c  *\([^ ].*\)/\1/p")
	page "selfmon-$c" "$summary" "$help" ".BR selfmon (1)" \
		>"$out/selfmon-$c.1.tmp"
	mv "$out/selfmon-$c.1.tmp" "$out/selfmon-$c.1"
done
