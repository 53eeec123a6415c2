/*
 * relocs_riscv64.S — one of each relocation test_elf.c checks against the
 * GNU linker: loaded by sim/elf/elf_load.c and linked by ld --no-relax with
 * tests/elf/relocs.ld, the bytes of .text, .rodata and .data must agree.
 * No GOT and no imports here (ld lays those out differently); they are
 * checked by running the compiled samples instead.
 */
	.text
	.globl	asm_probe
	.type	asm_probe, @function
asm_probe:
	.option	push
	.option	norvc
	beq	a0, a1, .Lnear			/* BRANCH */
	jal	ra, other_func			/* JAL */
	j	.Lnear				/* JAL */
	.option	pop
	call	other_func			/* CALL_PLT */
	.reloc	., R_RISCV_CALL, other_func
	auipc	ra, 0				/* CALL */
	jalr	ra, 0(ra)
1:	auipc	a0, %pcrel_hi(data_word)	/* PCREL_HI20 */
	addi	a0, a0, %pcrel_lo(1b)		/* PCREL_LO12_I */
2:	auipc	a1, %pcrel_hi(dword_v + 8)
	sd	a2, %pcrel_lo(2b)(a1)		/* PCREL_LO12_S */
	lui	a3, %hi(data_word)		/* HI20 */
	addi	a3, a3, %lo(data_word)		/* LO12_I */
	lui	a4, %hi(dword_v)
	sd	a5, %lo(dword_v)(a4)		/* LO12_S */
	c.beqz	a0, .Lnear			/* RVC_BRANCH */
	c.j	.Lnear				/* RVC_JUMP */
	c.beqz	a1, asm_probe			/* RVC_BRANCH, backwards */
	c.j	asm_probe			/* RVC_JUMP, backwards */
	.option	push
	.option	norvc
	bne	a0, a1, asm_probe		/* BRANCH, backwards */
	jal	zero, asm_probe			/* JAL, backwards */
	beq	a0, a1, .Lfarther		/* BRANCH, offset bit 11 */
	.option	pop
.Lmid:
	c.j	.Lfar				/* RVC_JUMP, offset bit 10 */
.Lnear:
	nop
.Lend:
	ret
	.skip	1100
.Lfar:
	ret
	.skip	1100
.Lfarther:
	ret
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
	.dword	data_word + 8			/* 64 */
	.word	data_word			/* 32 */
	.reloc	., R_RISCV_32_PCREL, other_func + 2
	.word	0				/* 32_PCREL */
	.dword	.Lend - .Lmid			/* ADD64, SUB64 */
	.word	.Lend - .Lmid			/* ADD32, SUB32 */
	.half	.Lend - .Lmid			/* ADD16, SUB16 */
	.byte	.Lend - .Lmid			/* ADD8, SUB8 */
	.reloc	., R_RISCV_SET8, data_word + 3
	.byte	0
	.reloc	., R_RISCV_SET16, data_word + 5
	.half	0
	.reloc	., R_RISCV_SET32, data_word + 7
	.word	0
	.reloc	., R_RISCV_SET6, data_word + 0x2d
	.byte	0xc0
	/* R_RISCV_SUB6 is not here: GNU ld 2.40 adds where the psABI
	 * subtracts (test_elf.c checks it on its own). */

	.data
	.p2align 4
data_word:
	.dword	0x1122334455667788
dword_v: .dword	4, 5
	.dword	common_sym

	.bss
	.zero	64
	.comm	common_sym, 24, 16

	.section .note.GNU-stack, "", @progbits
