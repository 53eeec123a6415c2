#!/bin/sh
# kernel_variant_check.sh SRC — docs/kernel-variant.md and the users'
# docs cannot rot away from the source:
# - each row of the flow table (between <!-- flows --> and
#   <!-- /flows -->) names a kernel function that a comment of the model
#   file it names cites, and a model function defined in that file;
# - each kernel variant's bit (model/model.h, SM_KV_* but the versions
#   SM_KV_LINUX_*) is tested with SM_KV() at exactly one place in model/;
# - README.md, HACKING.md, NEWS and docs/*.md point at nothing outside
#   the repository: no DESIGN.md, no /work/ path, every relative Markdown
#   link resolves to a file or folder in the tree, and every file or
#   folder HACKING.md's Layout names in backquotes is in the tree (the
#   section runs from '## Layout' to the next '## ' heading or the end);
# - no comment in the sources (model/, sim/, reader/, util/, tests/,
#   fuzz/) cites DESIGN.md, the design contract that is not in the
#   checkout: a reader of model.h is sent to the docs instead;
# - README.md and docs/abi.md link docs/kernel-variant.md.
# One line per failure; exit 1 if any.
set -u
src=$1
doc=$src/docs/kernel-variant.md
bad=0
fail() {
	echo "kernel_variant_check: $*"
	bad=1
}
[ -r "$doc" ] || { echo "kernel_variant_check: no $doc"; exit 1; }

# The comments of a C file, one line each (a /* ... */ may span lines).
comments() {
	awk '
	{
		line = $0
		while (line != "") {
			if (!inc) {
				i = index(line, "/*")
				if (!i) break
				line = substr(line, i + 2); inc = 1
			}
			j = index(line, "*/")
			if (j) { print substr(line, 1, j - 1); line = substr(line, j + 2); inc = 0 }
			else { print line; line = "" }
		}
	}' "$1"
}

rows=$(sed -n '/^<!-- flows -->$/,/^<!-- \/flows -->$/p' "$doc" |
	grep '^| `' | awk -F'|' '{ print $2 "|" $3 "|" $4 }' | tr -d '` ')
[ "$(echo "$rows" | grep -c .)" -ge 20 ] || fail "the flow table has few rows"
for row in $rows; do
	kfn=${row%%|*}
	rest=${row#*|}
	file=${rest%%|*}
	mfn=${rest#*|}
	mfn=${mfn%()}
	if [ ! -r "$src/$file" ]; then
		fail "flow table: no file $file"
		continue
	fi
	comments "$src/$file" | grep -qF -- "$kfn" ||
		fail "flow table: no comment of $file cites $kfn"
	grep -qE "^[a-z].*[ *]$mfn\(" "$src/$file" ||
		fail "flow table: $file defines no $mfn()"
done

# One bit, tested at one place.
for kv in $(sed -n '/^enum sm_kernel_variant {/,/^};/p' "$src/model/model.h" |
	grep -oE '^	SM_KV_[A-Z0-9_]+' | grep -v LINUX_); do
	n=$(cat "$src"/model/*.c | grep -cE "SM_KV\([a-z]+, $kv\)")
	[ "$n" -eq 1 ] || fail "$kv is tested at $n places in model/, not one"
done

# Nothing outside the repository.
for f in $(cd "$src" && find model sim reader util tests fuzz \
	-name '*.[ch]' -o -name '*.cpp'); do
	grep -n 'DESIGN\.md' "$src/$f" | while IFS= read -r hit; do
		echo "kernel_variant_check: $f:${hit%%:*}: cites DESIGN.md, not in the repository"
	done | grep . && bad=1
done
for md in "$src/README.md" "$src/HACKING.md" "$src/NEWS" "$src"/docs/*.md; do
	[ -r "$md" ] || { fail "no ${md#"$src"/}"; continue; }
	name=${md#"$src"/}
	grep -n 'DESIGN\.md\|/work/' "$md" | while IFS= read -r hit; do
		echo "kernel_variant_check: $name:${hit%%:*}: points outside the repository"
	done | grep . && bad=1
	dir=$(dirname "$md")
	for link in $(grep -oE '\]\([^)#[:space:]]+' "$md" | cut -c3-); do
		case $link in http://* | https://* | mailto:*) continue ;; esac
		real=$(cd "$dir" && realpath -m -- "$link")
		case $real in
		"$(realpath "$src")"/*) [ -e "$real" ] ||
			fail "$name: link $link: no such file" ;;
		*) fail "$name: link $link leaves the repository" ;;
		esac
	done
done
files=$(cd "$src" && find . -path ./build -prune -o -path './build-*' -prune \
	-o -path ./.git -prune -o -print | sed 's|^\./||')
layout=$(sed -n '/^## Layout$/,/^## /p' "$src/HACKING.md")
[ "$(echo "$layout" | grep -c '^| `')" -ge 10 ] ||
	fail "HACKING.md has no Layout table (a '## Layout' section with a row per folder)"
for tok in $(echo "$layout" |
	grep -oE '`[A-Za-z0-9_.*/-]+`' | tr -d '`' |
	grep -E '/$|\.(c|h|sh|cmake|in|config|txt|md|scn|tsv)$'); do
	pat=$(printf '%s' "${tok%/}" | sed 's/\./\\./g; s/\*/[^\/]*/g')
	echo "$files" | grep -qE "(^|/)$pat\$" ||
		fail "HACKING.md's Layout names $tok, which is not in the repository"
done

grep -q '(docs/kernel-variant.md)' "$src/README.md" ||
	fail "README.md does not link docs/kernel-variant.md"
grep -q '(kernel-variant.md)' "$src/docs/abi.md" ||
	fail "docs/abi.md does not link kernel-variant.md"
[ "$bad" -eq 0 ] && echo "kernel_variant_check: $(echo "$rows" | grep -c .) flows, variants and links hold"
exit "$bad"
