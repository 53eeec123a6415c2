/*
 * cpp_reader.cpp — a reader written in C++, as a C++ library has one, for
 * test_cpp: a class template over the arch's counter access, constexpr
 * helpers, a lambda, a namespace, and the entry points selfmon calls as
 * extern "C" (no name mangling).  Built freestanding: -ffreestanding
 * -fno-exceptions -fno-rtti, nothing of libstdc++ (its cross headers need
 * not be installed), only the page layout (page.h, -I model).
 *
 *   extern "C" uint64_t cpp_count(const void *page);
 *       the raw ABI (read(2) of fd 3, the event's fd, as the fallback)
 *   extern "C" void cpp_start(const void *page, int fd, void *ctx);
 *   extern "C" uint64_t cpp_delta(const void *page, int fd, void *ctx);
 *       the delta ABI: the count's change since cpp_start
 *
 * With -DMYLIB_NO_SIGN_EXTENSION the counter is added unextended (the
 * fault test_cpp expects selfmon to find in C++ code too).
 */
#include <stddef.h>
#include <stdint.h>

#include "page.h"

namespace mylib {

template <typename T> inline T load(const T &x)
{
	return *static_cast<const volatile T *>(&x);
}

inline void compiler_barrier()
{
	__asm__ __volatile__("" ::: "memory");
}

constexpr uint64_t cap(unsigned bit)
{
	return uint64_t(1) << bit;
}

constexpr uint64_t sign_extend(uint64_t raw, unsigned width)
{
#ifdef MYLIB_NO_SIGN_EXTENSION
	return (void)width, raw;
#endif
	return width == 0 || width >= 64
	       ? raw
	       : uint64_t(int64_t(raw << (64 - width)) >> (64 - width));
}

#if defined(__x86_64__)
struct Arch {
	static uint64_t counter(uint32_t idx)
	{
		uint32_t lo, hi;
		__asm__ __volatile__("rdpmc" : "=a"(lo), "=d"(hi) : "c"(idx));
		return lo | uint64_t(hi) << 32;
	}
	static long sys_read(int fd, void *buf, size_t n)
	{
		long ret;
		__asm__ __volatile__("syscall"
		                     : "=a"(ret)
		                     : "0"(0L), "D"(long(fd)), "S"(buf), "d"(n)
		                     : "rcx", "r11", "memory");
		return ret;
	}
};
#elif defined(__aarch64__)
struct Arch {
	template <unsigned N> static uint64_t pmev()
	{
		uint64_t v;
		switch (N) {
#define PMEV(n)                                                                \
	case n:                                                                \
		__asm__ __volatile__("mrs %0, pmevcntr" #n "_el0" : "=r"(v));   \
		break;
		PMEV(0) PMEV(1) PMEV(2) PMEV(3) PMEV(4) PMEV(5) PMEV(6) PMEV(7)
#undef PMEV
		default:
			__asm__ __volatile__("mrs %0, pmccntr_el0" : "=r"(v));
		}
		return v;
	}
	static uint64_t counter(uint32_t idx)
	{
		static uint64_t (*const table[])() = {
			pmev<0>, pmev<1>, pmev<2>, pmev<3>,
			pmev<4>, pmev<5>, pmev<6>, pmev<7>,
		};
		return idx < 8 ? table[idx]() : idx == 31 ? pmev<31>() : 0;
	}
	static long sys_read(int fd, void *buf, size_t n)
	{
		register long x0 __asm__("x0") = fd;
		register long x1 __asm__("x1") = long(buf);
		register long x2 __asm__("x2") = long(n);
		register long x8 __asm__("x8") = 63; /* __NR_read */
		__asm__ __volatile__("svc #0" : "+r"(x0) : "r"(x1), "r"(x2),
		                     "r"(x8) : "memory");
		return x0;
	}
};
#elif defined(__riscv) && __riscv_xlen == 64
struct Arch {
	static uint64_t counter(uint32_t idx)
	{
		uint64_t v = 0;
		switch (idx) {
#define CSR(n)                                                                 \
	case n:                                                                \
		__asm__ __volatile__("csrr %0, %1" : "=r"(v) : "i"(0xc00 + n)); \
		break;
		CSR(0) CSR(1) CSR(2) CSR(3) CSR(4) CSR(5) CSR(6) CSR(7)
		CSR(8) CSR(9) CSR(10) CSR(11) CSR(12) CSR(13) CSR(14) CSR(15)
#undef CSR
		}
		return v;
	}
	static long sys_read(int fd, void *buf, size_t n)
	{
		register long a0 __asm__("a0") = fd;
		register long a1 __asm__("a1") = long(buf);
		register long a2 __asm__("a2") = long(n);
		register long a7 __asm__("a7") = 63; /* __NR_read */
		__asm__ __volatile__("ecall" : "+r"(a0) : "r"(a1), "r"(a2),
		                     "r"(a7) : "memory");
		return a0;
	}
};
#else
#error "cpp_reader.cpp: x86-64, arm64 or riscv64"
#endif

/* The count from the page under its seqlock, or from read(2). */
template <typename A> class Reader {
public:
	Reader(const void *page, int fd)
		: pc_(static_cast<const perf_event_mmap_page *>(page)), fd_(fd)
	{
	}

	/* 0 from the page, 1 from read(2), -1 error */
	int read(uint64_t &out) const
	{
		uint32_t seq;
		uint64_t count;
		do {
			seq = load(pc_->lock);
			compiler_barrier();
			uint64_t caps = load(pc_->capabilities);
			uint32_t idx = load(pc_->index);
			unsigned width = load(pc_->pmc_width);
			if (!(caps & cap(SELFMON_CAP_USER_RDPMC)) || idx == 0)
				return from_read(out);
			count = uint64_t(load(pc_->offset)) +
			        sign_extend(A::counter(idx - 1), width);
			/* after IOC_RESET the offset is zero-extended */
			auto fix = [width](uint64_t c) {
				return int64_t(c) < 0 && width < 64
				       ? c + (uint64_t(1) << width) : c;
			};
			count = fix(count);
			compiler_barrier();
		} while (load(pc_->lock) != seq || (seq & 1));
		out = count;
		return 0;
	}

private:
	int from_read(uint64_t &out) const
	{
		uint64_t buf[3];
		if (A::sys_read(fd_, buf, sizeof(buf)) != long(sizeof(buf)))
			return -1;
		out = buf[0];
		return 1;
	}

	const perf_event_mmap_page *pc_;
	int fd_;
};

} // namespace mylib

extern "C" uint64_t cpp_count(const void *page)
{
	uint64_t c = 0;
	mylib::Reader<mylib::Arch>(page, 3).read(c);
	return c;
}

extern "C" void cpp_start(const void *page, int fd, void *ctx)
{
	uint64_t c = 0;
	mylib::Reader<mylib::Arch>(page, fd).read(c);
	*static_cast<uint64_t *>(ctx) = c;
}

extern "C" uint64_t cpp_delta(const void *page, int fd, void *ctx)
{
	uint64_t c = 0;
	mylib::Reader<mylib::Arch>(page, fd).read(c);
	return c - *static_cast<const uint64_t *>(ctx);
}
