// SPDX-License-Identifier: GPL-2.0
/*
 * folios FILE: the sizes of the page-cache folios holding FILE's cached pages.
 *
 * Maps the file, touches only the pages already cached (mincore), and reads
 * their page frames' compound-head/tail flags from /proc/self/pagemap and
 * /proc/kpageflags (root only). Prints
 *   orders O1 O2 ...      the folio orders seen, ascending
 *   average_kib N         average folio size
 * This replaces tracing mm_filemap_add_to_page_cache: enabling a tracepoint
 * patches kernel text, which under QEMU TCG with two vCPUs has livelocked the
 * guest (text_poke_bp waiting for a CPU spinning in its int3 handler).
 */
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#define PFN_MASK	((1ULL << 55) - 1)
#define PM_PRESENT	(1ULL << 63)
#define KPF_HEAD	(1ULL << 15)
#define KPF_TAIL	(1ULL << 16)

static void die(const char *what)
{
	perror(what);
	exit(1);
}

/* Read @n 64-bit entries from index @index of a /proc table. */
static void read_entries(int fd, uint64_t index, uint64_t *v, size_t n,
			 const char *what)
{
	ssize_t want = n * sizeof(*v);

	if (pread(fd, v, want, index * sizeof(*v)) != want)
		die(what);
}

int main(int argc, char **argv)
{
	long ps = sysconf(_SC_PAGESIZE);
	unsigned long seen = 0, folios = 0, pages = 0, run = 0;
	int fd, pm, kf, order;
	unsigned char *vec;
	uint64_t *pm_entries;
	struct stat st;
	size_t n, i;
	char *map;

	if (argc != 2) {
		fprintf(stderr, "usage: folios FILE\n");
		return 2;
	}
	fd = open(argv[1], O_RDONLY);
	if (fd < 0 || fstat(fd, &st))
		die(argv[1]);
	n = (st.st_size + ps - 1) / ps;
	if (!n) {
		printf("orders\naverage_kib 0\n");
		return 0;
	}
	map = mmap(NULL, n * ps, PROT_READ, MAP_SHARED, fd, 0);
	vec = malloc(n);
	pm_entries = malloc(n * sizeof(*pm_entries));
	if (map == MAP_FAILED || !vec || !pm_entries || mincore(map, n * ps, vec))
		die("mmap/mincore");
	pm = open("/proc/self/pagemap", O_RDONLY);
	kf = open("/proc/kpageflags", O_RDONLY);
	if (pm < 0 || kf < 0)
		die("/proc/self/pagemap, /proc/kpageflags");
	/* map the cached pages, then read their page frames in one go */
	for (i = 0; i < n; i++)
		if (vec[i] & 1)
			(void)*(volatile char *)(map + i * ps);
	read_entries(pm, (uintptr_t)map / ps, pm_entries, n, "pagemap");

	/* a run is one folio: a head and its tails, or a single page */
	for (i = 0; i <= n; i++) {
		uint64_t e = 0, flags = 0;

		if (i < n && (vec[i] & 1)) {
			e = pm_entries[i];
			if (!(e & PM_PRESENT) || !(e & PFN_MASK)) {
				fprintf(stderr, "folios: no page frame for page %zu (not root?)\n", i);
				return 1;
			}
			read_entries(kf, e & PFN_MASK, &flags, 1, "kpageflags");
		}
		if (run && (!(e & PM_PRESENT) || !(flags & KPF_TAIL))) {
			for (order = 0; (1UL << order) < run; order++)
				;
			seen |= 1UL << order;
			folios++;
			pages += run;
			run = 0;
		}
		if (e & PM_PRESENT)
			run++;
	}
	printf("orders");
	for (order = 0; order < 64; order++)
		if (seen & (1UL << order))
			printf(" %d", order);
	printf("\naverage_kib %lu\n", folios ? pages * ps / 1024 / folios : 0);
	return 0;
}
