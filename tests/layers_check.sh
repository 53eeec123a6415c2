#!/bin/sh
# layers_check.sh SRC BUILD — the layers of the build hold (#31): the
# table CMake wrote (BUILD/layers.txt, one line a layer, bottom to top:
# "DIR: DEPS..." and "DIR private: DIR") names each layer's dependencies
# below it (no cycle), and every quoted #include of every source in a
# layer's folder resolves to its own folder, a layer it depends on, or a
# private folder given to it.  A back edge, a path around the table
# ("../engine/session.h") or an unknown header fails, one line each.
set -u
src=$1 table=$2/layers.txt
[ -r "$table" ] || { echo "layers_check: no $table"; exit 1; }
awk -v src="$src" '
function fail(msg) { print "layers_check: " msg; bad = 1 }
# the table
FILENAME == table && $2 == "private:" { priv[$1] = priv[$1] " " $3; next }
FILENAME == table {
	d = $1; sub(/:$/, "", d)
	order[++n] = d; rank[d] = n
	for (i = 2; i <= NF; i++) {
		if (!($i in rank))
			fail(d " depends on " $i ", which is not below it")
		allow[d, $i] = 1
	}
	next
}
# the sources: FILENAME is DIR/NAME
{
	if ($0 !~ /^[ \t]*#[ \t]*include[ \t]*"/)
		next
	h = $0; sub(/^[^"]*"/, "", h); sub(/".*$/, "", h)
	f = FILENAME; d = f; sub(/\/[^\/]*$/, "", d); sub("^" src "/", "", d)
	if (h ~ /\.\./) { fail(f ": #include \"" h "\" goes around the layers"); next }
	if (system("test -f \"" src "/" d "/" h "\"") == 0)
		next
	found = ""
	for (i = 1; i <= n; i++)
		if (system("test -f \"" src "/" order[i] "/" h "\"") == 0)
			found = order[i]
	split(priv[d], p, " ")
	for (k in p)
		if (system("test -f \"" src "/" p[k] "/" h "\"") == 0)
			found = p[k] "+private"
	if (found == "")
		fail(f ": #include \"" h "\" is in no layer")
	else if (found !~ /\+private$/ && !((d, found) in allow))
		fail(f ": #include \"" h "\" is from " found ", not below " d)
}
END { exit bad }
' table="$table" "$table" $(awk '$2 != "private:" { d = $1; sub(/:$/, "", d); print d }' "$table" |
	while read -r d; do ls "$src/$d"/*.c "$src/$d"/*.h 2>/dev/null; done)
rc=$?
[ $rc -eq 0 ] && echo "layers_check: $(grep -vc private: "$table") layers, no back edge"
exit $rc
