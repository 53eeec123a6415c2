# cache.sh — sourced (POSIX sh) by vm/build-kernel.sh and
# tests/fresh_root_check.sh: the one place a build keeps what outlives a
# clone of the tree (the kernels `selfmon vm` boots, the Debian packages
# of the fresh root), so that a fresh clone on the same machine, CI's
# among them, does not build or download them again.
#
# Owns: cache_dir (where, and whether it is safe to use).  Must not: decide
# what is cached or under which key (each caller names its entries by a
# hash of everything they are made from), or remove anything.
#
# The cache is $SELFMON_CACHE, else $XDG_CACHE_HOME/selfmon, else
# $HOME/.cache/selfmon; SELFMON_CACHE=off turns it off.

# cache_dir NAME: print the cache's folder NAME (made if missing), or
# nothing, with one line on stderr saying why, when the cache is off or
# unsafe: any folder on the way from the cache's root that is a symbolic
# link or is not the caller's own (another user's link or folder is never
# written through).
cache_dir() {
	_root=${SELFMON_CACHE:-${XDG_CACHE_HOME:-${HOME:-/nonexistent}/.cache}/selfmon}
	[ "$_root" != off ] || return 0
	for _d in "$_root" "$_root/$1"; do
		if [ -L "$_d" ] || { [ -e "$_d" ] && [ ! -d "$_d" ]; }; then
			echo "cache: $_d is not a folder of its own (a link or a file): not used" >&2
			return 0
		fi
		mkdir -p -m 700 "$_d" 2>/dev/null || {
			echo "cache: cannot make $_d: not used" >&2
			return 0
		}
		[ -O "$_d" ] || {
			echo "cache: $_d belongs to another user: not used" >&2
			return 0
		}
	done
	echo "$_root/$1"
}
