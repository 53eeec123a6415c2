#!/bin/sh
# install_check.sh BUILD_DIR — libselfmon installs (static, shared, header,
# pkg-config) and a program builds against it with pkg-config alone, both
# ways, and gets the documented answer: a page that says "not readable"
# (index 0) makes selfmon_read() fall back to read(2), here on a bad fd.
set -eu
build=$1
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
cmake --install "$build" --prefix "$dir/prefix" >/dev/null
export PKG_CONFIG_PATH="$dir/prefix/lib/pkgconfig:$dir/prefix/lib64/pkgconfig:$dir/prefix/lib/x86_64-linux-gnu/pkgconfig"
cat > "$dir/use.c" <<'C'
#include <errno.h>
#include <linux/perf_event.h>
#include <selfmon.h>
#include <stdio.h>
#include <string.h>
int main(void)
{
	static struct perf_event_mmap_page pc;
	struct selfmon_value v = { 1, 2, 3 };
	pc.cap_bit0_is_deprecated = 1;   /* index 0: not on a counter */
	int rc = selfmon_read(&pc, -1, &v);
	struct selfmon_value s = { 10, 30, 0 };
	if (rc != -EBADF || selfmon_scale(&s) != 0) {
		printf("rc %d\n", rc);
		return 1;
	}
	s.running = 15;
	return selfmon_scale(&s) == 20 ? 0 : 1;
}
C
cc "$dir/use.c" -o "$dir/use-shared" $(pkg-config --cflags --libs selfmon)
LD_LIBRARY_PATH="$(pkg-config --variable=libdir selfmon)" "$dir/use-shared"
cc "$dir/use.c" -o "$dir/use-static" $(pkg-config --cflags selfmon) \
	"$(pkg-config --variable=libdir selfmon)/libselfmon.a"
"$dir/use-static"
echo "install check: shared and static builds agree"
