# packages.sh — sourced (bash) by dev.sh and scripts/slurm-sweep.sh: the
# one check that the Debian packages a script needs are installed, and
# their install when they are not.
#
# Owns: need_packages (dpkg's status of each package; as root, apt-get
# update and install of the missing ones without recommends; otherwise
# the exact apt-get line and the caller's exit status).  Must not: hold a
# package list (each script keeps its own) or change anything but the
# packages named.

# need_packages WHO STATUS PACKAGE...: return when every PACKAGE is
# installed; else install the missing ones as root, or print the line
# that would (messages prefixed "WHO: ") and exit STATUS.
need_packages() {
	local who=$1 status=$2 missing=() p
	shift 2
	for p in "$@"; do
		dpkg-query -W -f='${Status}' "$p" 2>/dev/null |
			grep -q "install ok installed" || missing+=("$p")
	done
	[ ${#missing[@]} -eq 0 ] && return 0
	if [ "$(id -u)" -ne 0 ]; then
		echo "$who: missing Debian packages; install them with:" >&2
		echo "  sudo apt-get install -y --no-install-recommends ${missing[*]}" >&2
		exit "$status"
	fi
	echo "$who: installing ${missing[*]}" >&2
	apt-get update -qq
	DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
		--no-install-recommends "${missing[@]}" >/dev/null
}
