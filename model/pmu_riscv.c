/*
 * pmu_riscv.c — the riscv64 PMU driver: drivers/perf/riscv_pmu.c and
 * drivers/perf/riscv_pmu_sbi.c as the model needs them.
 *
 * Owns: riscv64's rules (cycle, instret and the hpmcounters, the user
 * access of perf_user_access 1 and 2, widths, periods), the driver's
 * flows that differ from the others (pmu_sbi_event_mapped() and
 * _unmapped(), pmu_sbi_ctr_stop()'s scounteren, the overflow handler's
 * stopped reload and restart) and what user space's csrr of a counter
 * sees.  The perf core reaches it through sm_pmu_riscv only.  It must not
 * decide generic flows (kernel.c) or page contents (userpage.c).
 */
#include "drivers.h"
#include "event.h"

/* A counter number names a register: cycle 0, instret 2, hpmcounter<n>
 * n (3 up), as their CSR numbers 0xC00 + n (model.h). */
static bool riscv_counter_exists(const struct sm_config *cfg, int c)
{
	return c == SM_RISCV_CYCLE || c == SM_RISCV_INSTRET ||
	       (c >= 3 && (unsigned)c < 3 + cfg->gp);
}

static int riscv_fixed_for(const struct sm_config *cfg, enum sm_event_type t)
{
	(void)cfg;
	return t == SM_EV_CYCLES ? SM_RISCV_CYCLE
	     : t == SM_EV_INSTRUCTIONS ? SM_RISCV_INSTRET : -1;
}

static bool riscv_counter_ok(const struct sm_config *cfg,
                             const struct sm_event_cfg *ev, int c)
{
	if (c == SM_RISCV_CYCLE)
		return ev->type == SM_EV_CYCLES;
	if (c == SM_RISCV_INSTRET)
		return ev->type == SM_EV_INSTRUCTIONS;
	return c >= 3 && (unsigned)c < 3 + cfg->gp;
}

static unsigned riscv_first_gp(void)
{
	return 3;
}

/* riscv_pmu_event_idx() with PERF_EVENT_FLAG_USER_READ_CNT, which
 * pmu_sbi_event_mapped() sets once the event is mmapped (read_cnt):
 * perf_user_access 1 gives it to mmapped hardware events; 2 ("legacy")
 * only to cycle and instret, which are then always readable. */
static bool riscv_user_read(const struct sm_config *cfg,
                            const struct sm_event *e)
{
	enum sm_event_type t = e->cfg->type;

	if (t == SM_EV_SOFTWARE || !e->read_cnt)
		return false;
	if (cfg->user_access == 1)
		return e->cfg->user;
	return cfg->user_access == 2 &&
	       (t == SM_EV_CYCLES || t == SM_EV_INSTRUCTIONS);
}

/* drivers/perf/riscv_pmu.c riscv_perf_user_access(): a hardware event
 * with PERF_EVENT_FLAG_USER_READ_CNT and a counter (hw.idx != -1: from
 * riscv_pmu_add() to the end of riscv_pmu_del()).  A page written while
 * the event has none says cap_user_rdpmc = 0 and leaves pmc_width.  The
 * attr.type test comes first, so a sampling clock event's hw.flags
 * (sm_sampling_clock(), pmu.h) is never looked at here. */
static bool riscv_cap_rdpmc(const struct sm_config *cfg,
                            const struct sm_event *e)
{
	return riscv_user_read(cfg, e) && e->counter >= 0;
}

/* cycle and instret are 64-bit; hpmcounters have the configured width. */
static uint64_t riscv_reg_mask(const struct sm_config *cfg, int c)
{
	return c < 3 ? ~0ull : sm_mask_bits(cfg->width);
}

/* riscv_pmu_ctr_get_width_mask(); pmc_width = ctr_get_width() + 1. */
static uint64_t riscv_max_period(const struct sm_config *cfg,
                                 const struct sm_event *e)
{
	return riscv_reg_mask(cfg, e->counter >= 0 ? e->counter
	                         : riscv_fixed_for(cfg, e->cfg->type) >= 0
	                             ? riscv_fixed_for(cfg, e->cfg->type) : 3);
}

/* riscv_pmu_event_init(): a counting event gets half the width mask
 * riscv_pmu_ctr_get_width_mask() returns before the event has a counter
 * (hw.idx == -1): that of counter 0, the 64-bit cycle counter, whatever
 * counter it later runs on.  So the period is 2^63 - 1 and
 * riscv_pmu_event_set_period() clamps `left` to the counter's own half
 * mask (2^47 - 1 for a 48-bit hpmcounter) at every reload. */
static uint64_t riscv_count_period(const struct sm_config *cfg,
                                   const struct sm_event *e)
{
	(void)e;
	return riscv_reg_mask(cfg, SM_RISCV_CYCLE) >> 1;
}

static uint16_t riscv_pmc_width(const struct sm_config *cfg,
                                const struct sm_event *e)
{
	uint64_t m = riscv_max_period(cfg, e);
	uint16_t w = 0;
	while (m) {
		w++;
		m >>= 1;
	}
	return w;
}

/* riscv_pmu_event_set_period(): left is limited to max_period >> 1. */
static int64_t riscv_clamp_left(const struct sm_config *cfg,
                                const struct sm_event *e, int64_t left)
{
	return sm_half_clamp(riscv_max_period(cfg, e), left);
}

static uint64_t riscv_to_reg(const struct sm_config *cfg,
                             const struct sm_event *e, int c, uint64_t v)
{
	(void)e;
	return v & riscv_reg_mask(cfg, c);
}

/* The counter CSR reads back as written. */
static uint64_t riscv_from_reg(const struct sm_config *cfg,
                               const struct sm_event *e, int c, uint64_t raw)
{
	(void)cfg, (void)e, (void)c;
	return raw;
}

/* riscv_pmu_event_update(): (new - prev) masked to the counter's width. */
static uint64_t riscv_delta(const struct sm_config *cfg,
                            const struct sm_event *e, uint64_t prev,
                            uint64_t now)
{
	return (now - prev) & riscv_max_period(cfg, e);
}

/* ---- the driver's flows ---------------------------------------------- */

/* pmu_sbi_ctr_stop() clears the counter's scounteren bit of a mapped
 * event; variant riscv_keep_scounteren keeps it (until
 * pmu_sbi_event_unmapped(): riscv_unmapped()). */
static void riscv_ctr_stop(struct sm_model *m, int c)
{
	const struct sm_counter *r = &m->k.cpu[m->k.task_cpu].ctr[c];

	if (SM_KV(m, SM_KV_RISCV_KEEP_SCOUNTEREN) && r->owner >= 0 &&
	    riscv_user_read(m->cfg, &m->k.ev[r->owner]))
		m->k.cpu[m->k.task_cpu].kept |= 1u << c;
}

/* pmu->start(event, 0): riscv_pmu_start() always sets the period again.
 * The counter of an unthrottled event never stopped: riscv_pmu_start()
 * sets prev_count to -period_left and pmu_sbi_ctr_start() asks the SBI to
 * start the counter at it, which an SBI implementation refuses for a
 * counter already started (SBI_ERR_ALREADY_STARTED, ignored by the
 * driver), so it counts on; the model folds the count first
 * (sm_event_update()), which leaves the same offset + counter and loads
 * the counter with the value it has. */
static void riscv_start_noreload(struct sm_model *m, int i)
{
	sm_event_update(m, &m->k.ev[i]);
	sm_pmu_start(m, i);
}

/* riscv_pmu_event_mapped() -> pmu_sbi_event_mapped() sets
 * PERF_EVENT_FLAG_USER_READ_CNT of a hardware event (so the first page
 * has index 0 and cap_user_rdpmc 0) and writes the page again. */
static void riscv_mapped(struct sm_model *m, int i)
{
	struct sm_event *e = &m->k.ev[i];

	if (e->cfg->type == SM_EV_SOFTWARE)
		return;
	e->read_cnt = true;
	sm_page_update(m, i);
}

/* pmu_sbi_event_unmapped() clears PERF_EVENT_FLAG_USER_READ_CNT
 * (read_cnt; not for an event of no user access, nor under legacy access
 * 2 for one that is not cycles or instret) and, under perf_user_access 1
 * (PERF_EVENT_FLAG_USER_ACCESS), for an event on a counter (hw.idx != -1)
 * pmu_sbi_reset_scounteren() clears the counter's scounteren bit on the
 * mm's CPUs: a csrr of it is SIGILL, even one variant
 * riscv_keep_scounteren had kept. */
static void riscv_unmapped(struct sm_model *m, int i)
{
	struct sm_event *e = &m->k.ev[i];
	enum sm_event_type t = e->cfg->type;

	if (!e->read_cnt || m->cfg->user_access == 0 ||
	    (m->cfg->user_access == 2 && t != SM_EV_CYCLES &&
	     t != SM_EV_INSTRUCTIONS))
		return;
	e->read_cnt = false;
	if (m->cfg->user_access == 1 && e->counter >= 0)
		for (unsigned k = 0; k < m->cfg->ncpus; k++)
			m->k.cpu[k].kept &= ~(1u << e->counter);
}

/* pmu_sbi_ovf_handler() after the interrupt is accounted: without the SBI
 * snapshot extension pmu_sbi_start_ovf_ctrs_sbi() starts each overflowed
 * counter at prev_count and writes its page again
 * (perf_event_update_userpage(): the index is back); with it
 * (pmu snapshot=yes: sbi_pmu_snapshot_available())
 * pmu_sbi_start_ovf_ctrs_snapshot() starts every used counter in one SBI
 * call with no page write. */
static void riscv_irq_restart(struct sm_model *m, int i)
{
	if (!m->cfg->sbi_snapshot)
		sm_page_update(m, i);
}

/* ---- user space's counter reads -------------------------------------- */

/* riscv64 scounteren of the task's CPU, bit n for CSR 0xC00 + n:
 * pmu_sbi_starting_cpu() writes TM (0x2), or CY|TM|IR (0x7) under
 * perf_user_access 2 (legacy); under 1 a counter's bit is set while an
 * event with user access runs on it: pmu_sbi_ctr_start() and
 * pmu_sbi_event_mapped() set it (pmu_sbi_set_scounteren()),
 * pmu_sbi_ctr_stop() and pmu_sbi_event_unmapped() clear it
 * (pmu_sbi_reset_scounteren()); variant riscv_keep_scounteren: the bits
 * pmu_sbi_ctr_stop() left set (`kept`). */
uint32_t sm_riscv_scounteren(const struct sm_model *m)
{
	const struct sm_cpu *cpu = &m->k.cpu[m->k.task_cpu];
	uint32_t v = 1u << SM_RISCV_TIME;

	if (m->cfg->user_access == 2)
		v |= 1u << SM_RISCV_CYCLE | 1u << SM_RISCV_INSTRET;
	if (m->cfg->user_access != 1)
		return v;
	for (int c = 0; c < 32; c++) {
		int owner = cpu->ctr[c].owner;
		if (riscv_counter_exists(m->cfg, c) &&
		    ((cpu->kept >> c & 1) || (owner >= 0 &&
		     riscv_user_read(m->cfg, &m->k.ev[owner]))))
			v |= 1u << c;
	}
	return v;
}

/* riscv64 CSR reads: `time` always; a counter while its scounteren bit is
 * set (sm_riscv_scounteren()), so a reader that races a rotation out of
 * the counter takes an illegal-instruction trap (SIGILL). */
enum sm_fault sm_model_riscv_csr(const struct sm_model *m, unsigned csr,
                                 uint64_t *val)
{
	int c = (int)csr - 0xC00;

	if (m->cfg->arch != SM_RISCV64 || c < 0 || c >= 32)
		return SM_FAULT_ILL;
	if (c == SM_RISCV_TIME) {
		*val = sm_model_timer(m);
		return SM_OK;
	}
	if (!riscv_counter_exists(m->cfg, c) ||
	    !(sm_riscv_scounteren(m) >> c & 1))
		return SM_FAULT_ILL;
	*val = sm_counter_value(m, m->k.task_cpu, c);
	return SM_OK;
}

const struct sm_pmu_rules sm_pmu_riscv = {
	.counter_exists = riscv_counter_exists,
	/* (the SBI firmware chooses the counter: modelled as x86's fast
	 * path, without its scheduler) */
	.counter_ok = riscv_counter_ok, .fixed_for = riscv_fixed_for,
	.first_gp = riscv_first_gp, .reuse_last = true,
	.constraint_only = false,
	.user_read = riscv_user_read, .cap_rdpmc = riscv_cap_rdpmc,
	/* riscv_pmu_event_idx(): counter number + 1 */
	.index = sm_index_plus_one, .pmc_width = riscv_pmc_width,
	.width_only_if_rdpmc = true, .max_period = riscv_max_period,
	.reg_mask = riscv_reg_mask, .clamp_left = riscv_clamp_left,
	.to_reg = riscv_to_reg, .from_reg = riscv_from_reg,
	.delta = riscv_delta, .count_period = riscv_count_period,
	.ctr_stop = riscv_ctr_stop,
	/* riscv_pmu_start(): hw.state = 0, riscv_pmu_event_set_period(),
	 * then ctr_start() and perf_event_update_userpage(): two writes;
	 * riscv_pmu_add() writes the page once more */
	.start_stopped = false, .start_writes_again = true,
	.start_noreload = riscv_start_noreload,
	.add_writes_page = true,
	.event_mapped = riscv_mapped, .event_unmapped = riscv_unmapped,
	/* pmu_sbi_ovf_handler() marks the event PERF_HES_STOPPED before its
	 * set_period (index 0 on that page); it skips a counting event
	 * (!is_sampling_event()) and ignores perf_event_overflow()'s
	 * throttle ("RISC-V don't have to disable interrupts to avoid
	 * throttling here") */
	.irq_stopped = true, .irq_restart = riscv_irq_restart,
	.counting_wrap_silent = true, .throttle_stops = false,
	/* RVWMO; the generic sched_clock over the `time` CSR */
	.weak_order = true, .timer_sched_clock = true,
};
