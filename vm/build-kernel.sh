#!/bin/sh
# build-kernel.sh ARCH DIR — the kernel `selfmon vm ARCH` boots: Linux from
# Debian's linux-source-6.12 package (/usr/src/linux-source-6.12.tar.xz),
# `make tinyconfig` with this folder's ARCH.config fragment, built with
# the cross compiler into DIR/ARCH (DIR/ARCH/Image is the result).  Kept
# when present and built from the same fragment, script, compiler and
# source; else taken from the cache of kernels (scripts/cache.sh: a fresh
# clone on this machine builds none again), where every kernel built is
# put under the hash of those four; about three minutes on two cores
# otherwise.
set -eu
arch=$1 here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$2"
dir=$(cd "$2" && pwd)
tarball=/usr/src/linux-source-6.12.tar.xz
case $arch in
arm64) karch=arm64 cross=aarch64-linux-gnu- image=arch/arm64/boot/Image ;;
riscv64) karch=riscv cross=riscv64-linux-gnu- image=arch/riscv/boot/Image ;;
*) echo "build-kernel.sh: unknown arch '$arch' (arm64 or riscv64)" >&2; exit 2 ;;
esac
[ -r "$tarball" ] || { echo "build-kernel.sh: no $tarball: apt-get install linux-source-6.12" >&2; exit 2; }
out=$dir/$arch
command -v "${cross}gcc" >/dev/null ||
	{ echo "build-kernel.sh: no ${cross}gcc: apt-get install gcc-${cross%-}" >&2; exit 2; }
# what the kernel is made from: the fragment, this script, the compiler
# and the source
stamp=$({ cat "$here/$arch.config" "$here/build-kernel.sh"
	"${cross}gcc" --version | head -1
	sha256sum <"$tarball"; } | sha256sum | cut -c1-16)
if [ -f "$out/Image" ] && [ "$(cat "$out/stamp" 2>/dev/null)" = "$stamp" ]; then
	echo "build-kernel.sh: $out/Image is up to date"
	exit 0
fi
. "$here/../scripts/cache.sh" # cache_dir
cache=$(cache_dir kernels)
hit=${cache:+$cache/$arch-$stamp}
if [ -n "$hit" ] && [ -f "$hit/Image" ] && [ -f "$hit/version" ]; then
	mkdir -p "$out"
	cp "$hit/Image" "$out/Image.new" && mv "$out/Image.new" "$out/Image"
	cp "$hit/version" "$out/version"
	echo "$stamp" >"$out/stamp"
	echo "build-kernel.sh: $out/Image (Linux $(cat "$out/version")) from the cache, $hit"
	exit 0
fi
src=$dir/linux-source-6.12
if [ ! -f "$src/Makefile" ]; then
	echo "build-kernel.sh: unpacking $tarball"
	rm -rf "$src"
	tar -xf "$tarball" -C "$dir"
fi
rm -rf "$out/obj"
mkdir -p "$out/obj"
k() { make -s -C "$src" O="$out/obj" ARCH=$karch CROSS_COMPILE=$cross "$@"; }
echo "build-kernel.sh: building Linux $(k kernelversion) for $arch into $out"
k tinyconfig >/dev/null
"$src/scripts/kconfig/merge_config.sh" -m -O "$out/obj" "$out/obj/.config" \
	"$here/$arch.config" >/dev/null
k olddefconfig >/dev/null
k -j "$(nproc)" Image
# every option of the fragment must have taken (a renamed option would
# silently give another kernel)
grep '^CONFIG_.*=y' "$here/$arch.config" | while read -r opt; do
	grep -qx "$opt" "$out/obj/.config" ||
		{ echo "build-kernel.sh: $opt did not take (see $out/obj/.config)" >&2; exit 1; }
done
cp "$out/obj/$image" "$out/Image"
k kernelversion > "$out/version"
echo "$stamp" > "$out/stamp"
echo "build-kernel.sh: $out/Image (Linux $(cat "$out/version"))"
# into the cache, whole or not at all (a folder made beside it, renamed)
if [ -n "$hit" ]; then
	new=$(mktemp -d "$cache/.new.XXXXXX") &&
		cp "$out/Image" "$out/version" "$new/" &&
		mv -T "$new" "$hit" 2>/dev/null &&
		echo "build-kernel.sh: kept in the cache, $hit" ||
		rm -rf "$new"
fi
