/*
 * result_json.c — a result's fields as JSON members (result_json.h).
 */
#include "result_json.h"

void sm_result_json(struct json *j, const struct sm_result *r)
{
	if (r->verdict == SM_V_WRONG_VALUE && r->nwrong) {
		json_begin(j, "wrong", '[');
		for (unsigned i = 0; i < r->nwrong && i < 3; i++) {
			const struct sm_wrong *x = &r->wrong[i];
			json_begin(j, NULL, '{');
			json_str(j, "field", sm_wrong_field_name(x->field));
			if (x->field == SM_WF_RC) {
				json_i64(j, "value", (int64_t)x->value);
			} else if (x->field == SM_WF_RELATION) {
				json_u64(j, "value", x->value);
				json_u64(j, "enabled", x->truth_lo);
			} else {
				json_u64(j, "value", x->value);
				json_u64(j, "truth_lo", x->truth_lo);
				json_u64(j, "truth_hi", x->truth_hi);
				if (x->offset_bits) {
					json_u64(j, "offset_bits", x->offset_bits);
					json_str(j, "offset", x->above ? "above" : "below");
					json_str(j, "cause", sm_cause_name(x->cause));
					json_u64(j, "width", r->width);
				}
				json_bool(j, "burst", x->burst);
			}
			json_end(j, '{');
		}
		json_end(j, '[');
	}
	if (r->verdict == SM_V_FAULT && r->fault != SM_FK_NONE) {
		json_begin(j, "fault", '{');
		json_str(j, "kind", sm_fault_kind_name(r->fault));
		if (r->has_pc)
			json_u64(j, "pc", r->fault_pc);
		if (r->has_addr)
			json_u64(j, "address", r->fault_addr);
		json_end(j, '{');
	}
	if (sm_result_isb(r)) {
		json_begin(j, "missing_isb", '{');
		json_u64(j, "msr_pc", r->isb.msr_pc);
		json_u64(j, "mrs_pc", r->isb.mrs_pc);
		json_u64(j, "selected", r->isb.selected);
		json_u64(j, "read", r->isb.read);
		json_end(j, '{');
	}
}
