/*
 * relocs_x86_64.S — one of each relocation test_elf.c checks against the
 * GNU linker: loaded by sim/elf/elf_load.c and linked by ld with
 * tests/elf/relocs.ld, the bytes of .text, .rodata and .data must agree.
 * No GOT and no imports here (ld lays those out differently); they are
 * checked by running the compiled samples instead.
 */
	.text
	.globl	asm_probe
	.type	asm_probe, @function
asm_probe:
	movl	$data_word, %eax		/* R_X86_64_32 */
	movq	$data_word + 8, %rax		/* R_X86_64_32S */
	movabsq	$data_word + 16, %rax		/* R_X86_64_64 */
	leaq	ro_table(%rip), %rax		/* R_X86_64_PC32 */
	movl	ro_table + 8(%rip), %eax	/* R_X86_64_PC32, addend */
	call	other_func			/* R_X86_64_PLT32 */
	jmp	other_func
	.size	asm_probe, . - asm_probe

	.section .text.other, "ax", @progbits
	.globl	other_func
	.type	other_func, @function
other_func:
	ret
	.size	other_func, . - other_func

	.section .rodata
	.p2align 3
ro_table:
	.quad	other_func			/* R_X86_64_64 */
	.long	other_func - .			/* R_X86_64_PC32 */
	.long	data_word			/* R_X86_64_32 */
	.quad	data_word - .			/* R_X86_64_PC64 */
	.reloc	., R_X86_64_32S, data_word + 4
	.long	0

	.data
	.p2align 4
data_word:
	.quad	0x1122334455667788
	.quad	ro_table + 8			/* R_X86_64_64 */
	.quad	common_sym

	.bss
	.zero	64
	.comm	common_sym, 24, 16

	.section .note.GNU-stack, "", @progbits
