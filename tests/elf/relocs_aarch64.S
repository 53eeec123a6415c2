/*
 * relocs_aarch64.S — one of each relocation test_elf.c checks against the
 * GNU linker: loaded by sim/elf/elf_load.c and linked by ld with
 * tests/elf/relocs.ld, the bytes of .text, .rodata and .data must agree.
 * No GOT and no imports here (ld lays those out differently); they are
 * checked by running the compiled samples instead.
 */
	.text
	.globl	asm_probe
	.type	asm_probe, %function
asm_probe:
	adr	x0, data_word			/* ADR_PREL_LO21 */
	adrp	x1, data_word			/* ADR_PREL_PG_HI21 */
	add	x1, x1, :lo12:data_word		/* ADD_ABS_LO12_NC */
	ldrb	w2, [x1, :lo12:byte_v]		/* LDST8_ABS_LO12_NC */
	ldrh	w2, [x1, :lo12:half_v]		/* LDST16_ABS_LO12_NC */
	ldr	w2, [x1, :lo12:word_v]		/* LDST32_ABS_LO12_NC */
	ldr	x2, [x1, :lo12:dword_v]		/* LDST64_ABS_LO12_NC */
	ldr	q0, [x1, :lo12:quad_v]		/* LDST128_ABS_LO12_NC */
	adrp	x3, :pg_hi21_nc:data_word	/* ADR_PREL_PG_HI21_NC */
	cbz	x0, other_func			/* CONDBR19 */
	b.eq	other_func			/* CONDBR19 */
	tbz	x0, #3, other_func		/* TSTBR14 */
	bl	other_func			/* CALL26 */
	b	other_func			/* JUMP26 */
	cbnz	x1, asm_probe			/* CONDBR19, backwards */
	tbnz	x1, #2, asm_probe		/* TSTBR14, backwards */
	bl	asm_probe			/* CALL26, backwards */
	adr	x4, asm_probe			/* ADR_PREL_LO21, backwards */
	.size	asm_probe, . - asm_probe

	.section .text.other, "ax", %progbits
	.globl	other_func
	.type	other_func, %function
other_func:
	ret
	.size	other_func, . - other_func

	.section .rodata
	.p2align 3
ro_table:
	.xword	data_word + 16			/* ABS64 */
	.word	data_word			/* ABS32 */
	.word	other_func - .			/* PREL32 */
	.xword	data_word - .			/* PREL64 */

	.data
	.p2align 4
data_word:
	.xword	0x1122334455667788
byte_v:	.byte	1
	.p2align 1
half_v:	.hword	2
	.p2align 2
word_v:	.word	3
	.p2align 3
dword_v: .xword	4
	.p2align 4
quad_v:	.xword	5, 6
	.xword	common_sym

	.bss
	.zero	64
	.comm	common_sym, 24, 16

	.section .note.GNU-stack, "", %progbits
