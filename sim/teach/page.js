/*
 * page.js — the page to step through one read (teach_html.c).
 *
 * Renders everything from the JSON document in #selfmon-data (the one
 * `selfmon replay --explain --json` prints): the listing with a cursor
 * (each source line's text before its first instructions, as objdump -S
 * shows it, marked while the cursor is on one of them),
 * the page as the reader would load it now (the fields the kernel wrote
 * last highlighted, with the action; for a remote writer, which stores of
 * the update have landed), the values loaded so far, the result against
 * the truth, the kernel's state the page does not show (its last change
 * highlighted) and the cursor on the timeline.  The step is in the URL
 * fragment (#step=N).  No network, no libraries.
 */
"use strict";
(function () {
	const D = JSON.parse(document.getElementById("selfmon-data").textContent);
	const S = D.steps, N = S.length;
	const $ = (id) => document.getElementById(id);

	function el(tag, cls, text) {
		const e = document.createElement(tag);
		if (cls)
			e.className = cls;
		if (text !== undefined)
			e.textContent = text;
		return e;
	}

	/* ---- values in the ABI's notation ---- */
	function hex(v) {
		let b = BigInt(v);
		if (b < 0n)
			b += 1n << 64n;
		return "0x" + b.toString(16);
	}
	const CAPS = ["cap_bit0", "cap_bit0_is_deprecated", "cap_user_rdpmc",
		"cap_user_time", "cap_user_time_zero", "cap_user_time_short"];
	function note(field, v) {
		if (field === "index")
			return D.index_names[v] || "";
		if (field === "lock")
			return BigInt(v) % 2n ? "odd: the kernel is updating the page"
				: "even: no update in progress";
		if (field === "capabilities") {
			const b = BigInt(v);
			return CAPS.filter((n, k) => (b >> BigInt(k)) & 1n).join(", ");
		}
		if (field === "offset" && BigInt(v) < 0n)
			return "negative: count minus the counter's raw start value";
		return "";
	}
	/* How far a returned value is from the truth [l, h], modulo 2^64 as
	 * the reader's arithmetic is: "2^48 below the truth" when adding a
	 * power of two lands in it. */
	const M = 1n << 64n;
	function offBy(g, l, h) {
		if (g >= l && g <= h)
			return "within the truth";
		for (const k of [31n, 32n, 47n, 48n, 63n]) {
			const up = (g + (1n << k)) % M, down = (g - (1n << k) + M) % M;
			if (up >= l && up <= h)
				return "2^" + k + " below the truth";
			if (down >= l && down <= h)
				return "2^" + k + " above the truth";
		}
		const above = (g - h + M) % M, below = (l - g + M) % M;
		return above < below ? above + " above the truth"
			: below + " below the truth";
	}
	function trapKind(what) {
		if (/^read$/.test(what))
			return ["read", "read(2) result"];
		if (/rdtsc|CNTVCT|csrr 0xc01|rdtime/.test(what))
			return ["cycles", "cycles (" + what + ")"];
		if (/rdpmc|PMEVCNTR|PMCCNTR|PMXEVCNTR|csrr/.test(what))
			return ["counter", "counter value (" + what + ")"];
		return [what.replace(/[^A-Za-z0-9]+/g, "_"), what];
	}

	/* ---- the state at each step, computed once ---- */
	const pages = [], groups = [], loaded = [];
	(function precompute() {
		let page = Object.assign({}, D.page), group = null, remote = null;
		let pendingName = null, have = {};
		for (let i = 0; i < N; i++) {
			const st = S[i];
			for (const k of st.kernel) {
				for (const c of k.changes)
					page[c[0]] = c[2];
				if (k.store !== undefined) {
					if (!remote) {
						remote = { step: st.step, name: pendingName, stores: [],
							done: false };
						pendingName = null;
						group = remote;
					}
					group = remote;
					remote.stores.push({ field: k.store, step: st.step,
						changed: k.changes.map((c) => c[0]) });
					if (BigInt(page.lock) % 2n === 0n) {
						remote.done = st.step;
						remote = null;
					}
				} else if (k.changes.length) {
					group = { step: st.step, name: k.action, fields: {},
						stores: null };
					for (const c of k.changes)
						group.fields[c[0]] = true;
				} else if (group && group.stores && group.done === st.step) {
					group.name = group.name || k.action;
				} else if (k.applied) {
					pendingName = k.action;
				}
				if (remote && BigInt(page.lock) % 2n === 0n) {
					remote.done = st.step; /* the rest landed with an action */
					remote = null;
				}
			}
			have = Object.assign({}, have);
			for (const l of st.loads) {
				const prev = have["lock"];
				have[l.field] = { value: l.value, step: st.step,
					hist: l.field === "lock" ?
						(prev ? prev.hist.slice(-3) : []).concat([l.value]) : null };
			}
			for (const t of st.traps) {
				const [key, label] = trapKind(t.what);
				have[key] = { value: t.value, step: st.step, label: label,
					arg: t.arg };
			}
			pages.push(Object.assign({}, page));
			groups.push(group);
			loaded.push(have);
		}
	})();

	/* ---- the listing ---- */
	const rowsAt = [], srcAt = [];
	function buildListing() {
		const box = $("code"), frag = document.createDocumentFragment();
		let lastSrc = "", srcRows = [];
		S.forEach((st, i) => {
			const rows = [];
			const line = (cls, text) => {
				const r = el("div", "row " + cls, text);
				r.dataset.i = i;
				frag.appendChild(r);
				return r;
			};
			const add = (cls, text) => {
				const r = line(cls, text);
				rows.push(r);
				return r;
			};
			/* the source line's rows: not the cursor's (it stays on the
			 * instructions), marked while it is on one of the line's */
			const note = () => line("srcnote", "          (" + st.src_note + ")");
			const src = (own) => {
				srcRows = own ? [line("src", "          " + (lastSrc = st.src))]
					: [];
				if (st.src_text) {
					const r = line("srctext", "          | " + st.src_text);
					if (own)
						r.title = "source line " + st.src + ": the " +
							"instructions below come from it";
					srcRows.push(r);
				}
				if (st.src_note)
					srcRows.push(note());
			};
			for (const k of st.kernel) {
				const what = k.store !== undefined ?
					"remote writer stores page." + k.store :
					"kernel: " + k.action + (k.applied ? "" : " (does not apply now)");
				add("kern", "       >>> " + what + k.changes.map((c) =>
					"; " + c[0] + " " + c[1] + " -> " + c[2]).join(""));
			}
			if (st.src && st.src !== lastSrc)
				src(true);
			else if (st.src_note && st.native === undefined)
				note();
			const head = String(st.step).padStart(6) + "  ";
			if (st.native !== undefined) {
				add("insn", head + st.native);
				src(false);
			} else if (st.addr !== undefined)
				add("insn", head + st.addr.slice(2).padStart(8, "0") + "  " +
					st.bytes.padEnd(16) + "  " + st.insn);
			else
				add("insn", head + "(return to the caller)");
			srcAt.push(srcRows);
			for (const l of st.loads)
				add("ld", "          load page." + l.field + (l.part ? "[part]" : "") +
					" = " + l.value + " (" + hex(l.value) + ")");
			for (const t of st.traps)
				add("ld", "          trap " + t.what + "(" + t.arg + ") -> " +
					t.value + " (" + hex(t.value) + ")");
			rowsAt.push(rows);
		});
		if (D.not_listed)
			frag.appendChild(el("div", "row src", "        ... " + D.not_listed +
				" more steps not listed"));
		box.appendChild(frag);
		box.addEventListener("click", (e) => {
			const i = e.target.dataset && e.target.dataset.i;
			if (i !== undefined)
				go(Number(i));
		});
	}

	/* ---- the page table and the loaded values ---- */
	function buildPage() {
		const t = $("page");
		const h = t.insertRow();
		for (const c of ["off", "field", "value", "hex", "written by", "meaning"])
			h.appendChild(el("th", "", c));
		for (const f of D.fields.filter((f) => f.off < 1024)) {
			const r = t.insertRow();
			r.id = "page-" + f.name;
			r.className = "";
			r.appendChild(el("td", "off", "+" + f.off));
			r.appendChild(el("td", "name", f.name));
			for (const c of ["val", "hex", "by", "note"])
				r.appendChild(el("td", c));
		}
	}
	const REG_ORDER = ["lock", "index", "offset", "pmc_width", "capabilities",
		"counter", "cycles", "time_enabled", "time_running", "time_mult",
		"time_shift", "time_offset", "time_zero", "time_cycles", "time_mask",
		"read"];
	function buildRegs() {
		const t = $("regs"), last = loaded.length ? loaded[N - 1] : {};
		const keys = REG_ORDER.filter((k) => k in last).concat(
			Object.keys(last).filter((k) => !REG_ORDER.includes(k)));
		const h = t.insertRow();
		for (const c of ["what", "value", "hex", "loaded at step"])
			h.appendChild(el("th", "", c));
		for (const k of keys) {
			const r = t.insertRow();
			r.id = "reg-" + k;
			r.className = "";
			const label = last[k].label || (k === "lock" ? "page.lock (seq)" :
				"page." + k);
			r.appendChild(el("td", "name", label));
			for (const c of ["val", "hex", "at"])
				r.appendChild(el("td", c));
		}
	}

	/* Who last wrote field in the write group g as of step: "reset @10",
	 * "remote store 3/17" (of the update's stores), or "". */
	function writer(g, field, step) {
		if (!g)
			return "";
		if (!g.stores)
			return g.fields[field] ? g.name + " @" + g.step : "";
		let k = -1;
		g.stores.forEach((s, j) => {
			if (s.step <= step && s.changed.includes(field))
				k = j;
		});
		return k < 0 ? "" : "remote store " + (k + 1) + "/" + g.stores.length +
			(g.name ? " (" + g.name + ")" : "");
	}

	function renderPage(i) {
		const page = pages[i], g = groups[i], st = S[i], have = loaded[i];
		for (const f of D.fields.filter((f) => f.off < 1024)) {
			const r = $("page-" + f.name), v = page[f.name];
			const by = writer(g, f.name, st.step), written = by !== "";
			r.className = (written ? "written" : "") +
				(st.loads.some((l) => l.field === f.name) ? " justloaded" : "");
			r.dataset.by = by;
			r.cells[2].textContent = v;
			r.cells[3].textContent = hex(v);
			r.cells[4].textContent = by;
			r.cells[5].textContent = note(f.name, v);
		}
		const k = st.kernel;
		$("kernel-now").textContent = k.length ?
			"Before this instruction: " + k.map((x) => x.store !== undefined ?
				"the remote writer stores " + x.store : x.action +
				(x.applied ? " (" + x.updates + " page update" +
					(x.updates === 1 ? "" : "s") + "; truth now count " +
					x.truth.count + ")" : " (does not apply now)")).join("; ") :
			g ? "Last kernel write: " + (g.name || "remote writer") + " at step " +
				g.step : "The kernel has not written the page during the call.";
		renderStores(g, st.step);
		renderRegs(have);
	}

	function renderStores(g, step) {
		const box = $("stores");
		box.textContent = "";
		if (!g || !g.stores)
			return;
		const landed = g.stores.filter((s) => s.step <= step).length;
		box.appendChild(el("div", "", "Remote writer (another CPU): " + landed +
			" of " + g.stores.length + " stores of " + (g.name ?
				"the " + g.name + " update" : "this update") + " have landed" +
			(g.done === false || g.done > step ? "; the reader can see the page " +
				"half written" : "")));
		for (const s of g.stores)
			box.appendChild(el("span", s.step <= step ? "landed" : "",
				s.field));
	}

	const SIGNED = {};
	for (const f of D.fields)
		SIGNED[f.name] = f.signed;
	function renderRegs(have) {
		for (const r of $("regs").rows) {
			if (!r.id)
				continue;
			const x = have[r.id.slice(4)];
			r.className = x ? "" : "notyet";
			r.cells[1].textContent = x ? (x.hist ? x.hist.join(" \u2192 ") :
				SIGNED[r.id.slice(4)] ? BigInt.asIntN(64, BigInt(x.value)) +
					" (as s64)" : x.value) : "not loaded yet";
			r.cells[2].textContent = x ? hex(x.value) : "";
			r.cells[3].textContent = x ? String(x.step) : "";
		}
	}

	/* ---- the result ---- */
	function resultRow(t, name, got, lo, hi) {
		const r = t.insertRow(), g = BigInt(got), l = BigInt(lo), h = BigInt(hi);
		r.id = "ret-" + name;
		r.appendChild(el("td", "name", name));
		r.appendChild(el("td", "val", got));
		r.appendChild(el("td", "val", lo === hi ? lo : lo + " .. " + hi));
		r.appendChild(el("td", "off", fieldNote(name, g, l, h)));
	}
	/* How a value misses the truth, from the result's fields when the
	 * oracle found it off by 2^k (its sign as judged), else measured. */
	function fieldNote(name, g, l, h) {
		const w = (D.result.wrong || []).find((x) => x.field === name);
		if (w && w.offset_bits)
			return "2^" + w.offset_bits + " " + w.offset + " the truth";
		return offBy(g, l, h);
	}
	/* running > enabled: each value may be a truth of some instant, the
	 * pair is not; a row of its own, from the result's fields. */
	function relationRow(t) {
		const w = (D.result.wrong || []).find((x) =>
			x.field === "running>enabled");
		if (!w)
			return;
		const r = t.insertRow();
		r.id = "ret-relation";
		r.appendChild(el("td", "name", "running \u2264 enabled"));
		r.appendChild(el("td", "val", "running " + w.value + " > enabled " +
			w.enabled));
		r.appendChild(el("td", "val", "always"));
		r.appendChild(el("td", "off", "broken: running cannot exceed enabled"));
	}
	function renderResult(i) {
		const box = $("result"), R = D.result;
		box.textContent = "";
		if (i < N - 1) {
			box.appendChild(el("p", "verdict pending", "The reader has not " +
				"returned yet (step " + S[i].step + "; it returns after " +
				R.steps + "). Press End to see the verdict."));
			return;
		}
		const v = el("p", "verdict " + (R.fails ? "fail" : "pass"), R.verdict);
		v.id = "verdict";
		box.appendChild(v);
		const d = el("p", "", R.detail);
		d.id = "detail";
		box.appendChild(d);
		if (!R.returned_values)
			return;
		const t = el("table");
		const h = t.insertRow();
		for (const c of ["value", "returned", "truth during the call", ""])
			h.appendChild(el("th", "", c));
		resultRow(t, "count", R.returned.count, R.truth.count[0], R.truth.count[1]);
		if (D.abi === "times" || D.abi === "values") {
			resultRow(t, "enabled", R.returned.enabled, R.truth.enabled[0],
				R.truth.enabled[1]);
			resultRow(t, "running", R.returned.running, R.truth.running[0],
				R.truth.running[1]);
			relationRow(t);
		}
		box.appendChild(t);
		if (D.abi === "values")
			box.appendChild(el("p", "", "return code " + R.rc + (R.rc === 0 ?
				" (read from the page)" : R.rc === 1 ? " (fell back to read(2))" :
				" (error)")));
	}

	/* ---- the timeline's cursors ---- */
	function renderCursor(i) {
		const steps = D.result.steps || 1, f = Math.min(S[i].step / steps, 1);
		for (const id of ["tl-cursor", "tl-zcursor"]) {
			const c = $(id);
			if (!c)
				continue;
			const x0 = Number(c.dataset.x0), x1 = Number(c.dataset.x1);
			const x = (x0 + (x1 - x0) * f).toFixed(1);
			c.setAttribute("x1", x);
			c.setAttribute("x2", x);
		}
	}

	/* ---- the timeline's verdict: its marks (class tl-verdict) only once
	 * the reader has returned, as the result panel; before, the marks of
	 * a call still running (tl-pending) ---- */
	function renderTimelineVerdict(i) {
		const done = i >= N - 1;
		for (const g of document.querySelectorAll("#timeline .tl-verdict"))
			g.style.display = done ? "" : "none";
		for (const g of document.querySelectorAll("#timeline .tl-pending"))
			g.style.display = done ? "none" : "";
	}

	/* ---- the kernel's state off the page (D.kstate) ----
	 * Each event's state, counter, count, prev_count, period_left and the
	 * register that lets user space read counters, as of each step; the
	 * items the last change wrote highlighted with its action, as the
	 * page's fields are. */
	const kstates = [], kgroups = [];
	(function precomputeKstate() {
		if (!D.kstate)
			return;
		let now = {}, group = null;
		for (const r of D.kstate.rows)
			now[r.key] = { value: r.value, note: r.note };
		for (let i = 0; i < N; i++) {
			for (const k of S[i].kernel) {
				if (!k.kstate)
					continue;
				now = Object.assign({}, now);
				group = { step: S[i].step, name: k.action ||
					"remote store", keys: {}, says: k.kstate.says };
				for (const c of k.kstate.changed) {
					now[c[0]] = { value: c[2], note: c[3] };
					group.keys[c[0]] = c[1];
				}
			}
			kstates.push(now);
			kgroups.push(group);
		}
	})();
	function buildKstate() {
		const t = $("kstate");
		if (!t || !D.kstate)
			return;
		const h = t.insertRow();
		for (const c of ["what", "value", "changed by", "meaning"])
			h.appendChild(el("th", "", c));
		for (const r of D.kstate.rows) {
			const row = t.insertRow();
			row.id = "ks-" + r.key;
			row.className = "";
			row.appendChild(el("td", "name", r.label));
			for (const c of ["val", "by", "note"])
				row.appendChild(el("td", c));
		}
	}
	function renderKstate(i) {
		const t = $("kstate");
		if (!t || !D.kstate)
			return;
		const now = kstates[i], g = kgroups[i];
		for (const r of D.kstate.rows) {
			const row = $("ks-" + r.key), x = now[r.key];
			const changed = g !== null && r.key in g.keys;
			const by = changed ? g.name + " @" + g.step : "";
			row.className = changed ? "kchanged" : "";
			row.dataset.by = by;
			row.cells[1].textContent = x.value;
			if (changed)
				row.cells[1].appendChild(el("div", "was", "was " + g.keys[r.key]));
			row.cells[2].textContent = by;
			row.cells[3].textContent = x.note;
		}
		$("kstate-now").textContent = g ? "Last change, " + g.name +
			" at step " + g.step + ": " + g.says :
			"The kernel has not changed this state during the call (CPU " +
			D.kstate.cpu + ").";
	}

	/* The current instruction a third down the listing, after the panels
	 * are drawn (their width decides where lines wrap); and the window
	 * scrolled the least that brings it into view when the header above
	 * the listing (the fault, the example's reasons) leaves it below the
	 * window's edge. */
	function showCurrent(row) {
		if (!row)
			return;
		const box = $("code");
		box.scrollTop = row.offsetTop - box.clientHeight / 3;
		const r = row.getBoundingClientRect();
		const top = $("nav").getBoundingClientRect().bottom;
		if (r.top < top || r.bottom > window.innerHeight)
			window.scrollBy(0, r.bottom > window.innerHeight ?
				r.bottom - window.innerHeight + r.height :
				r.top - top - r.height);
	}

	/* ---- navigation ---- */
	let cur = -1;
	function go(i) {
		i = Math.max(0, Math.min(N - 1, i));
		if (cur >= 0) {
			for (const r of rowsAt[cur])
				r.classList.remove("cur");
			for (const r of srcAt[cur])
				r.classList.remove("srccur");
		}
		cur = i;
		for (const r of rowsAt[i])
			r.classList.add("cur");
		for (const r of srcAt[i])
			r.classList.add("srccur");
		$("stepno").textContent = S[i].step;
		$("slider").value = i;
		renderPage(i);
		renderResult(i);
		renderKstate(i);
		renderCursor(i);
		renderTimelineVerdict(i);
		showCurrent(rowsAt[i][0]);
		const h = "#step=" + S[i].step;
		if (location.hash !== h)
			history.replaceState(null, "", h);
	}
	function find(from, pred) {
		for (let j = from + 1; j < N; j++)
			if (pred(S[j]))
				return j;
		return cur;
	}
	function fromHash() {
		const m = /step=(\d+)/.exec(location.hash);
		if (!m)
			return 0;
		const want = Number(m[1]);
		const j = S.findIndex((s) => s.step >= want);
		return j < 0 ? N - 1 : j;
	}

	function header() {
		$("title").textContent = D.reader + " in " + D.scenario + " (" + D.arch +
			", " + D.engine + ")";
		$("what").textContent = D.reader + ": " + D.what + " (" + D.abi + " ABI)";
		$("schedule").textContent = D.schedule;
		if (D.fault)
			$("fault").appendChild(el("p", "", "The fault: " + D.fault));
		if (D.fix)
			$("fault").appendChild(el("p", "", "The fix: " + D.fix));
		if (D.chosen)
			$("fault").appendChild(el("p", "", "Why this example: " + D.chosen));
		for (const l of D.lands || [])
			$("fault").appendChild(el("p", "", l.kind + " lands " + l.text));
		$("nsteps").textContent = N ? S[N - 1].step : 0;
		$("slider").max = Math.max(N - 1, 0);
	}

	/* The listing sticks below the navigation, as high as the viewport
	 * leaves (page.css); the navigation's height changes as it wraps. */
	function fitPanes() {
		document.documentElement.style.setProperty("--nav-h",
			$("nav").offsetHeight + "px");
	}

	function wire() {
		$("first").onclick = () => go(0);
		$("prev").onclick = () => go(cur - 1);
		$("next").onclick = () => go(cur + 1);
		$("next-kernel").onclick = () => go(find(cur, (s) => s.kernel.length));
		$("next-load").onclick = () => go(find(cur, (s) => s.loads.length));
		$("last").onclick = () => go(N - 1);
		$("slider").oninput = (e) => go(Number(e.target.value));
		window.addEventListener("hashchange", () => go(fromHash()));
		document.addEventListener("keydown", (e) => {
			if (e.target === $("slider") || e.altKey || e.ctrlKey || e.metaKey)
				return;
			const to = { ArrowLeft: cur - 1, ArrowRight: cur + 1,
				ArrowDown: find(cur, (s) => s.kernel.length),
				ArrowUp: find(cur, (s) => s.loads.length),
				Home: 0, End: N - 1 }[e.key];
			if (to === undefined)
				return;
			e.preventDefault();
			go(to);
		});
	}

	header();
	fitPanes();
	window.addEventListener("resize", fitPanes);
	if (!N)
		return;
	buildListing();
	buildPage();
	buildRegs();
	buildKstate();
	wire();
	go(fromHash());
})();
