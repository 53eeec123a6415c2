/*
 * srcline.c — source lines from DWARF with libdwfl (see srcline.h).
 *
 * Owns: opening an ELF object's debug information (offline, as a file or
 * from memory, or this process's own modules), translating an address of
 * a user's image as elf_load.c laid it out back to the object's (a
 * relocatable object's section and offset; a shared object's vaddr), and
 * the line table
 * look-up.  Must not print nor exit: callers decide what a missing line
 * means.  Never runs a tool, never looks past the object for its debug
 * information (no debuginfod, no /usr/lib/debug).
 */
#define _GNU_SOURCE
#include <elfutils/libdwfl.h>
#include <gelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "input.h"
#include "srcline.h"

struct sm_srclines {
	Dwfl *dwfl;
	Dwfl_Module *mod;            /* the one module (offline); NULL: self */
	const struct sm_image *img;  /* a user's image: translate addresses */
	char *copy;                  /* the bytes of an ELF file in memory */
};

/* No separate debug information is looked for: libdwfl's standard
 * look-up searches /usr/lib/debug by build-id and asks every debuginfod
 * server in DEBUGINFOD_URLS (writing its cache), which a user's object
 * must not make selfmon do.  The object's own DWARF is all there is. */
static int own_dwarf_only(Dwfl_Module *mod, void **userdata,
                          const char *modname, Dwarf_Addr base,
                          const char *file_name, const char *debuglink_file,
                          GElf_Word debuglink_crc, char **debuginfo_file_name)
{
	(void)mod, (void)userdata, (void)modname, (void)base, (void)file_name;
	(void)debuglink_file, (void)debuglink_crc;
	*debuginfo_file_name = NULL;
	return -1;
}

static const Dwfl_Callbacks offline_cb = {
	.find_debuginfo = own_dwarf_only,
	.section_address = dwfl_offline_section_address,
};

static const Dwfl_Callbacks self_cb = {
	.find_elf = dwfl_linux_proc_find_elf,
	.find_debuginfo = own_dwarf_only,
};

struct sm_srclines *sm_srclines_file(const char *path,
                                     const struct sm_image *img)
{
	struct sm_srclines *s = calloc(1, sizeof(*s));

	if (!s || !(s->dwfl = dwfl_begin(&offline_cb)))
		return free(s), NULL;
	s->img = img;
	s->mod = dwfl_report_offline(s->dwfl, "reader", path, -1);
	if (!s->mod || dwfl_report_end(s->dwfl, NULL, NULL) != 0) {
		sm_srclines_free(s);
		return NULL;
	}
	return s;
}

struct sm_srclines *sm_srclines_memory(const void *elf, size_t size)
{
	struct sm_srclines *s = calloc(1, sizeof(*s));

	if (!s || !(s->copy = malloc(size)) ||
	    !(s->dwfl = dwfl_begin(&offline_cb))) {
		sm_srclines_free(s);
		return NULL;
	}
	memcpy(s->copy, elf, size);
	s->mod = dwfl_report_offline_memory(s->dwfl, "reader", "readers.elf",
	                                    s->copy, size);
	if (!s->mod || dwfl_report_end(s->dwfl, NULL, NULL) != 0) {
		sm_srclines_free(s);
		return NULL;
	}
	return s;
}

struct sm_srclines *sm_srclines_self(void)
{
	struct sm_srclines *s = calloc(1, sizeof(*s));

	if (!s || !(s->dwfl = dwfl_begin(&self_cb)))
		return free(s), NULL;
	if (dwfl_linux_proc_report(s->dwfl, getpid()) != 0 ||
	    dwfl_report_end(s->dwfl, NULL, NULL) != 0) {
		sm_srclines_free(s);
		return NULL;
	}
	return s;
}

void sm_srclines_free(struct sm_srclines *s)
{
	if (!s)
		return;
	if (s->dwfl)
		dwfl_end(s->dwfl);
	free(s->copy);
	free(s);
}

/* A relocatable object: the section the image holds addr in, and libdwfl's
 * address for it (it lays the sections out on its own and writes their
 * addresses into its copy of the section headers). */
static bool rel_address(const struct sm_srclines *s, uint64_t addr,
                        Dwarf_Addr *out)
{
	const struct sm_image *img = s->img;
	Dwarf_Addr bias;
	Elf *elf = dwfl_module_getelf(s->mod, &bias);
	GElf_Shdr sh;

	for (size_t i = 0; elf && i < img->nsec; i++) {
		const struct sm_image_section *sec = &img->sec[i];
		if (addr < sec->addr || addr - sec->addr >= sec->size)
			continue;
		Elf_Scn *scn = elf_getscn(elf, sec->shndx);
		if (!scn || !gelf_getshdr(scn, &sh))
			return false;
		*out = sh.sh_addr + (addr - sec->addr) + bias;
		return true;
	}
	return false;
}

/* libdwfl's address for addr, or false if it is none of the object's. */
static bool dwfl_address(const struct sm_srclines *s, uint64_t addr,
                         Dwarf_Addr *out)
{
	const struct sm_image *img = s->img;
	Dwarf_Addr bias;

	if (!s->mod) {
		*out = addr; /* this process: run-time addresses */
		return true;
	}
	if (img && img->nsec)
		return rel_address(s, addr, out);
	if (!dwfl_module_getelf(s->mod, &bias))
		return false;
	if (img) { /* a shared object: the image starts at its lowest vaddr */
		if (addr < img->base || addr - img->base >= img->size)
			return false;
		addr = addr - img->base + img->vaddr_lo;
	}
	*out = addr + bias;
	return true;
}

int sm_srclines_src(struct sm_srclines *s, uint64_t addr, char **file,
                    int *line)
{
	Dwarf_Addr a;

	*file = NULL;
	*line = 0;
	if (!s || !dwfl_address(s, addr, &a))
		return 0;
	Dwfl_Module *mod = s->mod ? s->mod : dwfl_addrmodule(s->dwfl, a);
	Dwfl_Line *l = mod ? dwfl_module_getsrc(mod, a) : NULL;
	const char *f = l ? dwfl_lineinfo(l, NULL, line, NULL, NULL, NULL)
	                  : NULL;
	if (!f || *line <= 0)
		return *line = 0, 0;
	return (*file = strdup(f)) ? 1 : -1;
}

int sm_srclines_at(struct sm_srclines *s, uint64_t addr, char **out)
{
	char *file;
	int line, rc = sm_srclines_src(s, addr, &file, &line);

	*out = NULL;
	if (rc <= 0)
		return rc;
	rc = asprintf(out, "%s:%d", file, line) < 0 ? -1 : 1;
	free(file);
	if (rc < 0)
		return *out = NULL, -1;
	sm_printable(*out); /* a file name from the object's DWARF */
	return 1;
}
