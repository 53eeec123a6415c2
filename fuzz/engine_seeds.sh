#!/bin/sh
# engine_seeds.sh OUTDIR ARCH CC OBJCOPY NM SOURCE... — fuzz_engine's seeds:
# each reader source linked alone at the code base (0x10000000), its
# imports bound to the engine's stubs (stub k at 0x60000000 + 16 k, as
# elf_load.h lays them out), so relative calls and stub calls are
# resolved as the ELF loader would resolve them; then one seed per
# function: the input header (fuzz_engine.c) with that function's offset
# as the entry, followed by the whole .text.  ARCH is enum sm_arch's
# number (0 x86_64, 1 arm64, 2 riscv64); OBJCOPY and NM the arch's
# binutils.
set -e
out=$1 arch=$2 cc=$3 objcopy=$4 nm=$5
shift 5
mkdir -p "$out"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
base=268435456 # 0x10000000, SM_CODE_BASE
an=$(echo x86_64 arm64 riscv64 | cut -d' ' -f$(( arch + 1 )))
for src; do
	name=$(basename "$src" .c)
	exe=$tmp/$name
	"$cc" -O2 -fno-builtin -fno-pic -static -nostdlib \
		-Wl,-Ttext=0x10000000 -Wl,-e,0x10000000 -Wl,--build-id=none \
		-Wl,--defsym=read=0x60000000 -Wl,--defsym=syscall=0x60000010 \
		-Wl,--defsym=__errno_location=0x60000020 \
		-Wl,--defsym=memcpy=0x60000030 -Wl,--defsym=memset=0x60000040 \
		"$src" -o "$exe"
	"$objcopy" -O binary -j .text "$exe" "$tmp/$name.bin"
	size=$(wc -c <"$tmp/$name.bin")
	# global functions only (T), within .text
	"$nm" --defined-only "$exe" | while read -r addr type sym; do
		[ "$type" = T ] || continue
		off=$(( 0x$addr - base ))
		[ "$off" -ge 0 ] && [ "$off" -lt "$size" ] || continue
		# header: arch (scenario 0), raw ABI, no action, step 0, entry
		printf "$(printf '\\%03o\\000\\000\\000\\%03o\\%03o' "$arch" \
			$(( off & 255 )) $(( off >> 8 & 255 )))" >"$out/${an}_${name}_$sym"
		cat "$tmp/$name.bin" >>"$out/${an}_${name}_$sym"
	done
done
