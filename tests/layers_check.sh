#!/bin/sh
# layers_check.sh SRC BUILD — the layers of the build hold (#31): the
# table CMake wrote (BUILD/layers.txt, one line a layer, bottom to top:
# "DIR: DEPS...", and "DIR private: DIR" and "DIR public: HEADERS...")
# names each layer's dependencies below it (no cycle), and every quoted
# #include of every source in a layer's folder resolves to its own
# folder, a public header of a layer it depends on, or a private folder
# given to it.  A back edge, a header another folder keeps to itself (not
# in its "public:" line; a layer without one has none), a path around the
# table ("../engine/session.h") or an unknown header fails, one line each;
# so does a circle of a folder's headers including each other (a.h
# includes b.h, which includes a.h), named once.
set -u
src=$1 table=$2/layers.txt
[ -r "$table" ] || { echo "layers_check: no $table"; exit 1; }
# every header of the table's folders, one path a line, read once (a
# test -f a lookup was most of the check's time)
hlist=$(mktemp) || exit 1
trap 'rm -f "$hlist"' EXIT
awk '{ d = $1; sub(/:$/, "", d); print d; if ($2 == "private:") print $3 }' "$table" |
	sort -u | while read -r d; do find "$src/$d" -name "*.h" 2>/dev/null; done >"$hlist"
awk -v src="$src" '
function fail(msg) { print "layers_check: " msg; bad = 1 }
function exists(path) { return path in have }
FILENAME == hlist { have[$0] = 1; next }
# the table
FILENAME == table && $2 == "private:" { priv[$1] = priv[$1] " " $3; next }
FILENAME == table && $2 == "public:" {
	for (i = 3; i <= NF; i++)
		pub[$1, $i] = 1
	next
}
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
	if (exists(src "/" d "/" h)) {
		if (f ~ /\.h$/) # a header of the folder includes one of its own
			edges[f] = edges[f] " " src "/" d "/" h
		next
	}
	found = ""
	for (i = 1; i <= n; i++)
		if (exists(src "/" order[i] "/" h))
			found = order[i]
	split(priv[d], p, " ")
	for (k in p)
		if (exists(src "/" p[k] "/" h))
			found = p[k] "+private"
	if (found == "")
		fail(f ": #include \"" h "\" is in no layer")
	else if (found !~ /\+private$/ && !((d, found) in allow))
		fail(f ": #include \"" h "\" is from " found ", not below " d)
	else if (found !~ /\+private$/ && !((found, h) in pub))
		fail(f ": #include \"" h "\" is private to " found " (not in its public headers, CMakeLists.txt selfmon_layer_public())")
}
# a circle of headers, each including the next: the first found, named
function visit(f,   k, e, m, c) {
	colour[f] = 1; stack[++depth] = f
	m = split(edges[f], e, " ")
	for (k = 1; k <= m; k++) {
		if (colour[e[k]] == 1) {
			c = e[k]
			for (i2 = depth; i2 >= 1 && stack[i2] != e[k]; i2--)
				c = stack[i2] " -> " c
			c = e[k] " -> " c
			while ((i2 = index(c, src "/")) > 0) # src is no regular expression
				c = substr(c, 1, i2 - 1) substr(c, i2 + length(src) + 1)
			fail("an include circle: " c)
			circles++
		} else if (!colour[e[k]])
			visit(e[k])
	}
	colour[f] = 2; depth--
}
END {
	for (f in edges)
		if (!colour[f] && !circles)
			visit(f)
	exit bad
}
' hlist="$hlist" table="$table" "$hlist" "$table" $(awk '$2 != "private:" && $2 != "public:" { d = $1; sub(/:$/, "", d); print d }' "$table" |
	while read -r d; do ls "$src/$d"/*.c "$src/$d"/*.h 2>/dev/null; done)
rc=$?
[ $rc -eq 0 ] && echo "layers_check: $(grep -Evc 'private:|public:' "$table") layers, no back edge, no private header included from another folder, no include circle"
exit $rc
