#!/bin/sh
# layers_check_negative.sh SRC BUILD — layers_check.sh fails where it must:
# on a copy of the layer folders with one bad include planted at a time,
# (1) a model-private header (event.h) from sim/cmd, (2) a header of a
# layer above (sim/cmd's commands.h) from model/, (3) a path around the
# table, (4) an include circle of model's headers (enums.h including
# state.h, which includes model.h, which includes enums.h), it exits
# non-zero naming the planted file and the header; the
# copy unplanted passes.  Owns nothing but its temporary copy.
set -u
src=$1 build=$2 here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
fail() { echo "layers_check_negative: $*"; exit 1; }
mkdir -p "$tmp/src" "$tmp/build"
cp -R "$src/util" "$src/model" "$src/sim" "$src/reader" "$tmp/src/" || exit 1
cp "$build/layers.txt" "$tmp/build/" || exit 1
sh "$here/layers_check.sh" "$tmp/src" "$tmp/build" >/dev/null ||
	fail "the unplanted copy does not pass"
# plant FILE LINE WANT: FILE with LINE added fails, saying WANT
plant() {
	cp "$tmp/src/$1" "$tmp/orig" || exit 1
	printf '%s\n' "$2" >>"$tmp/src/$1"
	out=$(sh "$here/layers_check.sh" "$tmp/src" "$tmp/build")
	rc=$?
	cp "$tmp/orig" "$tmp/src/$1"
	[ $rc -ne 0 ] || fail "$1 with '$2' passes"
	case $out in
	*"$3"*) ;;
	*) fail "$1 with '$2' fails without saying '$3': $out" ;;
	esac
	case $out in
	*"$1"*) ;;
	*) fail "$1 with '$2' fails without naming $1: $out" ;;
	esac
}
plant sim/cmd/cmd_list.c '#include "event.h"' 'is private to model'
plant sim/engine/session.c '#include "drivers.h"' 'is private to model'
plant sim/teach/timeline.c '#include "render.h"' 'not below sim/teach'
plant model/kernel.c '#include "../sim/cmd/commands.h"' 'goes around the layers'
plant model/enums.h '#include "state.h"' 'an include circle'
echo "layers_check_negative: 5 planted includes found, the unplanted copy passes"
