/*
 * ioerr - what callers see when the disk fails under a file.
 *
 *   ioerr errseq -b BAD -g GOOD FILE
 *   ioerr dio -b BAD -g GOOD FILE
 *   ioerr append -b BAD -g GOOD FILE
 *
 * BAD and GOOD are shell commands that make the disk fail and work again;
 * BAD gets the file's first physical block and block count (FIEMAP) as its
 * two arguments.
 *
 * errseq: a buffered overwrite whose writeback fails. Each file description
 * that was open before the error sees EIO from fsync exactly once; one opened
 * after the error was seen does not; syncfs on a description open before
 * sees it once too. Once the disk works, a new overwrite and fsync succeed.
 *
 * dio: an O_DIRECT overwrite and an O_DIRECT append onto failing blocks
 * return EIO, or a short count for what was written; the append leaves the
 * size where it was; a failing O_DIRECT read returns EIO.
 *
 * append: a buffered append into failing blocks: fsync reports EIO, and
 * again once the disk works, since the append's blocks still do not hold
 * it. They were allocated at write() time and hold what they held before:
 * bytes past the old size that are neither the append nor zeros are old
 * disk contents, counted and a failure (stock ext2 shows them). Writing
 * the range again and fsync succeed. FILE.cut gets the same failed append
 * and is left alone for the caller to check after a remount.
 *
 * Exit codes: 0 as the rules say, 1 a call returned what it must not,
 * 2 usage, 3 setup failed.
 */
#include <err.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/fiemap.h>
#include <linux/fs.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>

#define LEN	65536

static const char *bad_cmd, *good_cmd;
static int failed;

/* a call's result against what the rules want: 0, or -errno */
static void want(const char *what, long got, int want_errno)
{
	int e = got < 0 ? errno : 0;

	if (e == want_errno) {
		printf("ok   %s: %s\n", what, e ? strerror(e) : "success");
		return;
	}
	printf("FAIL %s: %s, want %s\n", what, e ? strerror(e) : "success",
	       want_errno ? strerror(want_errno) : "success");
	failed = 1;
}

static void sh(const char *cmd, const char *args)
{
	char line[4096];

	snprintf(line, sizeof(line), "%s %s", cmd, args);
	if (system(line))
		errx(3, "%s: failed", line);
}

/* make the disk fail under the file's first extent */
static void fail_disk(int fd)
{
	struct { struct fiemap fm; struct fiemap_extent ext[1]; } m = {
		.fm = { .fm_length = ~0ULL, .fm_extent_count = 1 },
	};
	struct stat st;
	char args[64];

	if (fstat(fd, &st) || ioctl(fd, FS_IOC_FIEMAP, &m) || !m.fm.fm_mapped_extents)
		err(3, "FIEMAP");
	snprintf(args, sizeof(args), "%llu %llu",
		 (unsigned long long)m.ext[0].fe_physical / st.st_blksize,
		 (unsigned long long)m.ext[0].fe_length / st.st_blksize);
	sh(bad_cmd, args);
}

static int open_file(const char *path, int flags)
{
	int fd = open(path, flags, 0644);

	if (fd < 0)
		err(3, "%s", path);
	return fd;
}

static void fill(int fd, char c, off_t at, size_t len, int sync)
{
	static char buf[LEN] __attribute__((aligned(4096)));

	memset(buf, c, len);
	if (pwrite(fd, buf, len, at) != (ssize_t)len || (sync && fsync(fd)))
		err(3, "write");
}

static void errseq(const char *path)
{
	char dir[4096], *slash;
	int fd1, fd2, fd3, dfd;

	fd1 = open_file(path, O_RDWR | O_CREAT | O_TRUNC);
	fill(fd1, 'a', 0, LEN, 1);
	fd2 = open_file(path, O_RDWR);
	snprintf(dir, sizeof(dir), "%s", path);
	slash = strrchr(dir, '/');
	if (slash)
		*slash = 0;
	dfd = open_file(slash ? dir : ".", O_RDONLY | O_DIRECTORY);
	fill(fd1, 'b', 0, LEN, 0);
	fail_disk(fd1);
	want("fsync, first description, after the failed writeback", fsync(fd1), EIO);
	want("fsync again on it", fsync(fd1), 0);
	fd3 = open_file(path, O_RDWR);
	want("fsync on a description opened after the error was seen", fsync(fd3), 0);
	want("fsync, second description open before the error", fsync(fd2), EIO);
	want("fsync again on it", fsync(fd2), 0);
	want("syncfs on the directory open before the error", syncfs(dfd), EIO);
	want("syncfs again", syncfs(dfd), 0);
	sh(good_cmd, "");
	fill(fd1, 'c', 0, LEN, 0);
	want("overwrite and fsync once the disk works", fsync(fd1), 0);
	close(fd1);
	close(fd2);
	close(fd3);
	close(dfd);
}

static void dio(const char *path)
{
	static char buf[2 * LEN] __attribute__((aligned(4096)));
	struct stat st;
	ssize_t r;
	int fd;

	fd = open_file(path, O_RDWR | O_CREAT | O_TRUNC);
	fill(fd, 'a', 0, LEN, 1);
	close(fd);
	fd = open_file(path, O_RDWR | O_DIRECT);
	fail_disk(fd);
	memset(buf, 'b', sizeof(buf));
	r = pwrite(fd, buf, LEN, 0);
	want("O_DIRECT overwrite of failing blocks", r == LEN ? 0 : r, EIO);
	r = pread(fd, buf, LEN, 0);
	want("O_DIRECT read of failing blocks", r == LEN ? 0 : r, EIO);
	/* the append's new blocks come from the free space BAD also failed */
	r = pwrite(fd, buf, 2 * LEN, LEN);
	if (r > 0 && r < 2 * LEN) {
		printf("ok   O_DIRECT append: short, %zd bytes\n", r);
	} else {
		want("O_DIRECT append onto failing blocks", r == 2 * LEN ? 0 : r, EIO);
		r = 0;
	}
	if (fstat(fd, &st))
		err(3, "fstat");
	if (st.st_size != LEN + (r > 0 ? r : 0)) {
		printf("FAIL size after the failed append: %lld, want %lld\n",
		       (long long)st.st_size, (long long)LEN + (r > 0 ? r : 0));
		failed = 1;
	} else {
		printf("ok   size after the failed append: %lld\n", (long long)st.st_size);
	}
	sh(good_cmd, "");
	close(fd);
}

/*
 * Bytes of @path past LEN, read from the disk, that are not @c, nor zero
 * unless @c is.
 */
static off_t stale_bytes(const char *path, char c, char zero, off_t *size)
{
	static char buf[4 * LEN] __attribute__((aligned(4096)));
	struct stat st;
	off_t i, stale = 0;
	int fd;

	fd = open_file(path, O_RDONLY | O_DIRECT);
	if (fstat(fd, &st))
		err(3, "fstat");
	memset(buf, 0, sizeof(buf));
	if (st.st_size > (off_t)sizeof(buf))
		errx(3, "%s: %lld bytes, more than expected", path, (long long)st.st_size);
	/* a short read would count as zeroes */
	if (pread(fd, buf, sizeof(buf), 0) != st.st_size)
		err(3, "read back");
	for (i = LEN; i < st.st_size; i++)
		stale += buf[i] != c && buf[i] != zero;
	close(fd);
	*size = st.st_size;
	return stale;
}

static void append(const char *path)
{
	char cut[4096];
	off_t size, stale;
	int fd, fd2;

	/* a second file whose lost append is left alone: the case checks it */
	snprintf(cut, sizeof(cut), "%s.cut", path);
	fd = open_file(path, O_RDWR | O_CREAT | O_TRUNC);
	fd2 = open_file(cut, O_RDWR | O_CREAT | O_TRUNC);
	fill(fd, 'a', 0, LEN, 1);
	fill(fd2, 'a', 0, LEN, 1);
	fail_disk(fd);
	fill(fd, 'b', LEN, LEN, 0);
	fill(fd2, 'b', LEN, LEN, 0);
	want("fsync of an append into failing blocks", fsync(fd), EIO);
	want("fsync of a second one", fsync(fd2), EIO);
	sh(good_cmd, "");
	want("fsync again once the disk works: the append is still lost",
	     fsync(fd), EIO);
	/* what the disk has now, not the page cache */
	stale = stale_bytes(path, 'b', 0, &size);
	printf("stale %lld of %lld bytes past the old size are old disk contents\n",
	       (long long)stale, (long long)(size - LEN));
	if (stale) {
		printf("FAIL old disk contents in the file after a failed append\n");
		failed = 1;
	}
	fill(fd, 'c', LEN, LEN, 0);
	want("fsync after writing the lost range again", fsync(fd), 0);
	/* and every byte of it is on the disk */
	if (stale_bytes(path, 'c', 'c', &size) || size != 2 * LEN) {
		printf("FAIL the range written again does not read back\n");
		failed = 1;
	}
	close(fd);
	close(fd2);
}

int main(int argc, char **argv)
{
	const char *mode;
	int opt;

	if (argc < 2)
		goto usage;
	mode = argv[1];
	optind = 2;
	while ((opt = getopt(argc, argv, "b:g:")) != -1) {
		if (opt == 'b')
			bad_cmd = optarg;
		else if (opt == 'g')
			good_cmd = optarg;
		else
			goto usage;
	}
	if (!bad_cmd || !good_cmd || argc - optind != 1)
		goto usage;
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (!strcmp(mode, "errseq"))
		errseq(argv[optind]);
	else if (!strcmp(mode, "dio"))
		dio(argv[optind]);
	else if (!strcmp(mode, "append"))
		append(argv[optind]);
	else
		goto usage;
	return failed;
usage:
	fprintf(stderr, "usage: ioerr errseq|dio|append -b BAD -g GOOD FILE\n");
	return 2;
}
