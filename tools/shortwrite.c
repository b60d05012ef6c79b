/*
 * shortwrite: one pwrite(2) whose user buffer ends in unmapped memory, so the
 * kernel can copy only the first MAPPED bytes of it (a short write), and
 * print what pwrite returned: a byte count or -errno.
 *
 *   shortwrite [-d] [-s] FILE OFFSET LENGTH MAPPED
 *     -d  open with O_DIRECT (MAPPED must then be a multiple of 512)
 *     -s  open with O_DSYNC
 *
 * The mapped bytes are 0x5a. With MAPPED == LENGTH the whole buffer is mapped:
 * a plain write, for O_DSYNC checks.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

static void usage(void)
{
	fprintf(stderr, "usage: shortwrite [-d] [-s] FILE OFFSET LENGTH MAPPED\n");
	exit(2);
}

int main(int argc, char **argv)
{
	int flags = O_WRONLY | O_CREAT, opt, fd;
	size_t len, mapped, page = sysconf(_SC_PAGESIZE), span;
	off_t off;
	char *base, *buf;
	ssize_t ret;

	while ((opt = getopt(argc, argv, "ds")) != -1) {
		if (opt == 'd')
			flags |= O_DIRECT;
		else if (opt == 's')
			flags |= O_DSYNC;
		else
			usage();
	}
	if (argc - optind != 4)
		usage();
	off = strtoll(argv[optind + 1], NULL, 0);
	len = strtoull(argv[optind + 2], NULL, 0);
	mapped = strtoull(argv[optind + 3], NULL, 0);
	if (mapped > len)
		usage();

	/* the buffer ends its mapped part exactly at a page boundary */
	span = (mapped + page - 1) / page * page;
	base = mmap(NULL, span + len + page, PROT_READ | PROT_WRITE,
		    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (base == MAP_FAILED) {
		perror("mmap");
		return 1;
	}
	buf = base + (span - mapped);
	memset(buf, 0x5a, mapped);
	if (mapped < len && munmap(base + span, len + page) != 0) {
		perror("munmap");
		return 1;
	}

	fd = open(argv[optind], flags, 0644);
	if (fd < 0) {
		perror(argv[optind]);
		return 1;
	}
	ret = pwrite(fd, buf, len, off);
	printf("%zd\n", ret < 0 ? (ssize_t)-errno : ret);
	return close(fd) != 0;
}
