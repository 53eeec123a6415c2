/*
 * unrun.c — readers with code the dynamic loader would run around the
 * call and selfmon does not, for tests/test_elf.c: each -D selects one.
 *
 *   UNRUN_IFUNC        a call to a global IFUNC (STT_GNU_IFUNC)
 *   UNRUN_IFUNC_LOCAL  to a static one (in a .so: R_*_IRELATIVE)
 *   UNRUN_CTOR         a constructor (.init_array)
 *   UNRUN_PREINIT      a pointer in .preinit_array
 *   UNRUN_CTORS        a pointer in .ctors (the old way)
 *   UNRUN_DTOR         a destructor (.fini_array): harmless, it loads
 *
 *   uint64_t reader(const void *page);
 */
#include <stdint.h>

static uint64_t base = 1;

static void init(void)
{
	base = *(volatile uint64_t *)&base + 100;
}

#if defined(UNRUN_IFUNC) || defined(UNRUN_IFUNC_LOCAL)
static uint64_t impl(const void *page)
{
	return *(const volatile uint64_t *)page + base;
}

static uint64_t (*resolve(void))(const void *)
{
	return impl;
}

#ifdef UNRUN_IFUNC_LOCAL
static
#endif
uint64_t probe(const void *page) __attribute__((ifunc("resolve")));
#else
static uint64_t probe(const void *page)
{
	return *(const volatile uint64_t *)page + base;
}
#endif

#ifdef UNRUN_CTOR
__attribute__((constructor)) static void ctor(void) { init(); }
#endif
#ifdef UNRUN_PREINIT
__attribute__((section(".preinit_array"), used))
static void (*const preinit)(void) = init;
#endif
#ifdef UNRUN_CTORS
__attribute__((section(".ctors"), used))
static void (*const ctors)(void) = init;
#endif
#ifdef UNRUN_DTOR
__attribute__((destructor)) static void dtor(void) { init(); }
#endif

uint64_t reader(const void *page)
{
	return probe(page) + 1;
}
