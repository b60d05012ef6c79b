// SPDX-License-Identifier: GPL-2.0
/*
 * meta: metadata workloads for the benchmarks, in one process so that the
 * cost of exec (large under QEMU TCG) does not swamp what is measured.
 *
 *   meta files DIR N      create N small files in DIR/dNNN (1000 per
 *                         directory), sync, stat them all, unlink them all
 *   meta lookup DIR N     create N empty files in DIR, sync, drop caches,
 *                         then stat N random names (half of them missing)
 *   meta tree DIR N       create a tree of N files of assorted sizes (for tar)
 *
 * Prints one "bench: NAME VALUE UNIT" line per timed phase.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static void die(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	fprintf(stderr, "meta: ");
	vfprintf(stderr, fmt, ap);
	fprintf(stderr, ": %s\n", strerror(errno));
	va_end(ap);
	exit(1);
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static void report(const char *name, long n, double t0)
{
	printf("bench: %s %.0f ops/s\n", name, n / (now() - t0));
	fflush(stdout);
}

static void drop_caches(void)
{
	int fd = open("/proc/sys/vm/drop_caches", O_WRONLY);

	sync();
	if (fd < 0 || write(fd, "3", 1) != 1)
		die("drop_caches");
	close(fd);
}

/* A deterministic pseudo-random sequence, the same for every filesystem. */
static unsigned long rnd(unsigned long *state)
{
	*state = *state * 6364136223846793005UL + 1442695040888963407UL;
	return *state >> 33;
}

static char buf[65536];

static void make_file(const char *path, size_t size)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_EXCL, 0644);

	if (fd < 0)
		die("create %s", path);
	while (size) {
		size_t n = size < sizeof(buf) ? size : sizeof(buf);

		if (write(fd, buf, n) != (ssize_t)n)
			die("write %s", path);
		size -= n;
	}
	close(fd);
}

static void files(const char *dir, long n)
{
	char path[4096];
	struct stat st;
	double t0;
	long i;

	t0 = now();
	for (i = 0; i < n; i++) {
		if (i % 1000 == 0) {
			snprintf(path, sizeof(path), "%s/d%03ld", dir, i / 1000);
			if (mkdir(path, 0755))
				die("mkdir %s", path);
		}
		snprintf(path, sizeof(path), "%s/d%03ld/f%ld", dir, i / 1000, i);
		make_file(path, 100);
	}
	sync();
	report("files-create", n, t0);

	t0 = now();
	for (i = 0; i < n; i++) {
		snprintf(path, sizeof(path), "%s/d%03ld/f%ld", dir, i / 1000, i);
		if (stat(path, &st))
			die("stat %s", path);
	}
	report("files-stat", n, t0);

	t0 = now();
	for (i = 0; i < n; i++) {
		snprintf(path, sizeof(path), "%s/d%03ld/f%ld", dir, i / 1000, i);
		if (unlink(path))
			die("unlink %s", path);
		if (i % 1000 == 999 || i == n - 1) {
			snprintf(path, sizeof(path), "%s/d%03ld", dir, i / 1000);
			if (rmdir(path))
				die("rmdir %s", path);
		}
	}
	sync();
	report("files-unlink", n, t0);
}

static void lookup(const char *dir, long n)
{
	unsigned long state = 1;
	char path[4096];
	struct stat st;
	double t0;
	long i;

	for (i = 0; i < n; i++) {
		snprintf(path, sizeof(path), "%s/entry-%ld", dir, i);
		make_file(path, 0);
	}
	drop_caches();
	t0 = now();
	for (i = 0; i < n; i++) {
		long k = rnd(&state) % (2 * n);
		int ret;

		snprintf(path, sizeof(path), "%s/entry-%ld", dir, k);
		ret = stat(path, &st);
		if (ret != (k < n ? 0 : -1))
			die("stat %s", path);
	}
	report("dir-lookup", n, t0);
}

/* Sizes like a source tree: mostly a few KiB, some larger. */
static void tree(const char *dir, long n)
{
	unsigned long state = 2;
	char path[4096];
	long i;

	for (i = 0; i < n; i++) {
		size_t size = rnd(&state) % 8192;

		if (i % 100 == 0)
			size *= 16;
		if (i % 50 == 0) {
			snprintf(path, sizeof(path), "%s/d%ld", dir, i / 50);
			if (mkdir(path, 0755))
				die("mkdir %s", path);
		}
		snprintf(path, sizeof(path), "%s/d%ld/f%ld", dir, i / 50, i);
		make_file(path, size);
	}
}

int main(int argc, char **argv)
{
	long n;

	if (argc != 4)
		goto usage;
	/* file contents, filled once: not part of what is timed */
	memset(buf, 'm', sizeof(buf));
	n = atol(argv[3]);
	if (n <= 0)
		goto usage;
	if (!strcmp(argv[1], "files"))
		files(argv[2], n);
	else if (!strcmp(argv[1], "lookup"))
		lookup(argv[2], n);
	else if (!strcmp(argv[1], "tree"))
		tree(argv[2], n);
	else
		goto usage;
	return 0;
usage:
	fprintf(stderr, "usage: meta files|lookup|tree DIR N\n");
	return 2;
}
