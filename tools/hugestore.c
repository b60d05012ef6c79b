// SPDX-License-Identifier: GPL-2.0
/*
 * hugestore FILE: stores through a shared mapping that the kernel may map
 * with PMDs, 2 MiB at a time.
 *
 * Maps all of FILE shared, asks for huge pages (MADV_HUGEPAGE: readahead
 * then fills the page cache with PMD-sized folios where the filesystem
 * allows large folios), reads every page, then stores the byte 0xa5 at
 * offset 7 of every 16th page and msyncs. Prints
 *   pmd_kib N     FilePmdMapped of the mapping after the stores
 * One write fault can make a whole PMD writable: the stores after the
 * first in each 2 MiB take no fault, so a filesystem that marked only the
 * faulting page dirty loses them.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

static void die(const char *what)
{
	perror(what);
	exit(1);
}

/* FilePmdMapped (KiB) of the mapping that starts at @addr. */
static long pmd_kib(void *addr)
{
	char line[256], start[32];
	long kib = -1;
	int in = 0;
	FILE *f = fopen("/proc/self/smaps", "r");

	if (!f)
		die("/proc/self/smaps");
	snprintf(start, sizeof(start), "%lx-", (unsigned long)addr);
	while (fgets(line, sizeof(line), f)) {
		if (strchr(line, '-') && strchr(line, ' ') > strchr(line, '-'))
			in = !strncmp(line, start, strlen(start));
		if (in && sscanf(line, "FilePmdMapped: %ld kB", &kib) == 1)
			break;
	}
	fclose(f);
	return kib;
}

int main(int argc, char **argv)
{
	long page = sysconf(_SC_PAGESIZE);
	volatile char sum = 0;
	struct stat st;
	char *p;
	off_t i;
	int fd;

	if (argc != 2) {
		fprintf(stderr, "usage: hugestore FILE\n");
		return 2;
	}
	fd = open(argv[1], O_RDWR);
	if (fd < 0 || fstat(fd, &st))
		die(argv[1]);
	p = mmap(NULL, st.st_size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (p == MAP_FAILED)
		die("mmap");
	if (madvise(p, st.st_size, MADV_HUGEPAGE))
		die("madvise");
	for (i = 0; i < st.st_size; i += page)
		sum += p[i];
	for (i = 0; i + 7 < st.st_size; i += 16 * page)
		p[i + 7] = (char)0xa5;
	printf("pmd_kib %ld\n", pmd_kib(p));
	if (msync(p, st.st_size, MS_SYNC))
		die("msync");
	munmap(p, st.st_size);
	close(fd);
	return 0;
}
