/*
 * integrity - seeded, replayable data-integrity exerciser.
 *
 * Each file gets an in-memory model: maxlen bytes of expected content plus the
 * current size.  Model bytes past the size are always zero, so holes, file
 * extension and truncation need no special cases.  Ops are drawn from a
 * weighted mix by a splitmix64 PRNG seeded with -S, so the same seed and the
 * same options replay the same op sequence.  Written data is a hash of
 * (seed, op number, file offset) and never zero: stale, misplaced and wrongly
 * zeroed data all differ from what is expected, and on a mismatch the op that
 * wrote the bytes actually read can usually be named.  Every read (buffered,
 * O_DIRECT or mmap) is compared with the model; the first difference ends the
 * run with exit 1 and a report that includes the recent op history.
 *
 * With -M (memory fault injection) a syscall failing with ENOMEM ends its op:
 * the model takes exactly what the call acknowledged, and a failed call must
 * have changed nothing else, which every later read checks.
 *
 * Exit codes: 0 verified, 1 data mismatch, 2 usage error, 3 syscall error.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

enum kind {
	K_READ, K_WRITE, K_DREAD, K_DWRITE, K_MREAD, K_MWRITE, K_TRUNC,
	K_FSYNC, K_FDATASYNC, K_REOPEN, K_FALLOC, K_PUNCH, NKINDS,
	K_CORRUPT = NKINDS	/* -X self-test; appears only in the op log */
};

static const char *const kind_names[NKINDS + 1] = {
	"read", "write", "dread", "dwrite", "mread", "mwrite", "trunc",
	"fsync", "fdatasync", "reopen", "falloc", "punch", "corrupt",
};

static const struct preset {
	const char *name, *mix;
} presets[] = {
	{ "buffered", "read=4,write=4,trunc=1,fsync=1,fdatasync=1,reopen=1" },
	/* buffered read and write too: DIO must see dirty page cache and must
	 * invalidate it */
	{ "dio", "dread=4,dwrite=4,read=2,write=1,trunc=1,fsync=1,reopen=1" },
	{ "mmap", "mread=3,mwrite=3,read=2,write=2,trunc=1,fsync=1,reopen=1" },
	{ "mixed", "read=4,write=4,dread=2,dwrite=2,mread=2,mwrite=2,trunc=1,"
		   "fsync=1,fdatasync=1,reopen=1,falloc=1,punch=1" },
};

struct file {
	const char *path;
	int fd;			/* buffered O_RDWR fd */
	int dfd;		/* O_DIRECT fd, opened lazily, -1 if closed */
	uint8_t *model;		/* expected content, zero past size */
	uint64_t size;
};

struct op {
	uint64_t num;
	int kind, file;
	uint64_t off, len;
	uint64_t size;		/* file size after the op */
	const char *note;
	bool done;
};

/* options */
static uint64_t seed, nops = 10000, maxlen = 4 << 20, maxop = 256 << 10;
static uint64_t align = 4096, bsize, corrupt_every, verify_every;
static uint64_t loglen = 64;
static bool verbose, quiet;
static unsigned weight[NKINDS];
static const char *mixname = "buffered";

/* state */
static struct file *files;
static int nfiles;
static uint64_t rng, opnum, pagesz, bufsz;
static uint8_t *wbuf, *rbuf;
static bool disabled[NKINDS];
static uint64_t count[NKINDS + 1], skipped;
static struct op *oplog, scratch_op;
static uint64_t nlogged;
static struct op *cur;		/* op in progress, for error reports */
static sigjmp_buf sigbus_jmp;
static volatile sig_atomic_t sigbus_armed;
static bool enomem_ok;		/* -M */
static uint64_t enomem_ops;	/* ops ended by ENOMEM */
static sigjmp_buf op_jmp;	/* where die() ends such an op */
static bool op_armed;

static uint64_t min_u64(uint64_t a, uint64_t b) { return a < b ? a : b; }
static uint64_t max_u64(uint64_t a, uint64_t b) { return a > b ? a : b; }
static uint64_t round_down(uint64_t x, uint64_t a) { return x - x % a; }
static uint64_t round_up(uint64_t x, uint64_t a) { return round_down(x + a - 1, a); }

/* ---- PRNG and data pattern ---- */

static uint64_t mix64(uint64_t x)
{
	x ^= x >> 30;
	x *= 0xbf58476d1ce4e5b9ULL;
	x ^= x >> 27;
	x *= 0x94d049bb133111ebULL;
	return x ^ (x >> 31);
}

static uint64_t rnd(void)
{
	rng += 0x9e3779b97f4a7c15ULL;
	return mix64(rng);
}

static uint64_t rnd_below(uint64_t n)
{
	return n ? rnd() % n : 0;
}

static uint64_t pattern_word(uint64_t num, uint64_t off)
{
	return mix64(seed ^ mix64(num * 0x9e3779b97f4a7c15ULL ^ (off >> 3)));
}

static uint8_t word_byte(uint64_t w, uint64_t off)
{
	uint8_t b = (uint8_t)(w >> (8 * (off & 7)));

	return b ? b : 0xa5;	/* zero is reserved for holes */
}

static uint8_t pattern_byte(uint64_t num, uint64_t off)
{
	return word_byte(pattern_word(num, off), off);
}

static void fill_pattern(uint8_t *buf, uint64_t num, uint64_t off, uint64_t len)
{
	uint64_t w = 0;

	for (uint64_t i = 0; i < len; i++) {
		if (i == 0 || ((off + i) & 7) == 0)
			w = pattern_word(num, off + i);
		buf[i] = word_byte(w, off + i);
	}
}

/* ---- op log and failure reports ---- */

static void print_op(FILE *out, const struct op *op)
{
	fprintf(out, "#%-8" PRIu64 " %-9s f%d off %-10" PRIu64 " len %-8" PRIu64
		" size %" PRIu64 "%s%s%s\n", op->num, kind_names[op->kind],
		op->file, op->off, op->len, op->size, *op->note ? "  " : "",
		op->note, op->done ? "" : " (in progress)");
}

static void print_log(void)
{
	uint64_t n = min_u64(nlogged, loglen);

	if (!n)
		return;
	fprintf(stderr, "last %" PRIu64 " ops (op, kind, file, offset, length, size after):\n", n);
	for (uint64_t i = nlogged - n; i < nlogged; i++) {
		fputs("  ", stderr);
		print_op(stderr, &oplog[i % loglen]);
	}
}

static void print_context(void)
{
	fprintf(stderr, "  at op #%" PRIu64 " of %" PRIu64 ", seed %" PRIu64 " (replay with -S %" PRIu64
		" and the same options)\n", opnum, nops, seed, seed);
	if (cur) {
		fputs("  op: ", stderr);
		print_op(stderr, cur);
	}
	print_log();
}

/* Unexpected syscall failure (err == 0: no errno to show). */
static void __attribute__((noreturn, format(printf, 2, 3)))
die(int err, const char *fmt, ...)
{
	va_list ap;

	if (err == ENOMEM && enomem_ok && op_armed)
		siglongjmp(op_jmp, 1);
	fflush(stdout);
	fputs("integrity: ERROR: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "%s%s\n", err ? ": " : "", err ? strerror(err) : "");
	print_context();
	exit(3);
}

static void __attribute__((noreturn)) usage(int code)
{
	fprintf(code ? stderr : stdout,
"usage: integrity [options] FILE [FILE...]\n"
"Seeded, replayable data-integrity exerciser; FILEs are created/truncated.\n"
"  -S seed    PRNG seed (default: time based; always printed)\n"
"  -N ops     number of operations (default 10000)\n"
"  -l maxlen  maximum file size, k/m/g suffixes (default 4m)\n"
"  -o maxop   maximum size of one read/write (default 256k)\n"
"  -m mix     comma list of presets and kind[=weight] (default buffered)\n"
"             presets: buffered dio mmap mixed\n"
"             kinds: read write dread dwrite mread mwrite trunc fsync\n"
"                    fdatasync reopen falloc punch\n"
"  -A align   O_DIRECT offset/length/buffer alignment (default 4096)\n"
"  -B bsize   block-aligned mode: buffered, mmap, trunc, falloc offsets\n"
"             and lengths are multiples of bsize (default: byte granular)\n"
"  -X every   self-test: every `every` ops flip one byte behind the\n"
"             model's back; the run must then fail with exit 1\n"
"  -L n       ops of history printed on failure (default 64)\n"
"  -V every   verify all files every `every` ops (default: on reopen\n"
"             and at the end)\n"
"  -M         memory fault injection: ENOMEM from a syscall ends the op\n"
"             (counted) with only what the call acknowledged applied;\n"
"             once set up, the process asks for injected failures\n"
"             (/proc/self/make-it-fail, for a fault-injection task filter)\n"
"  -v         print every op before it runs\n"
"  -q         quiet: only the first line and the summary\n"
"exit: 0 verified, 1 data mismatch, 2 usage error, 3 syscall error\n");
	exit(code);
}

static void __attribute__((noreturn, format(printf, 1, 2)))
bad_usage(const char *fmt, ...)
{
	va_list ap;

	fputs("integrity: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	usage(2);
}

/* Name the op whose data was read instead, by brute force over op numbers. */
static void explain(uint64_t off, const uint8_t *got, uint64_t run)
{
	uint64_t n = min_u64(run, 16), k;

	for (k = 0; k < n && got[k] == 0; k++)
		;
	if (k == n) {
		fprintf(stderr, "  hint: read zeros where data was expected (lost write or wrong zeroing)\n");
		return;
	}
	if (n < 4)	/* too few bytes to name an op reliably */
		return;
	for (uint64_t num = opnum; num >= 1; num--) {
		for (k = 0; k < n && got[k] == pattern_byte(num, off + k); k++)
			;
		if (k == n) {
			fprintf(stderr, "  hint: data read is what op #%" PRIu64
				" wrote at this offset (in some file): stale or misdirected data\n", num);
			return;
		}
	}
	fprintf(stderr, "  hint: data read matches no op's pattern at this offset (garbage or shifted data)\n");
}

static void dump_bytes(const char *label, const uint8_t *p, uint64_t n)
{
	fprintf(stderr, "  %-8s", label);
	for (uint64_t i = 0; i < n; i++)
		fprintf(stderr, " %02x", p[i]);
	fputc('\n', stderr);
}

static void __attribute__((noreturn))
mismatch_data(int fi, uint64_t off, const uint8_t *got, uint64_t n, const char *how)
{
	const struct file *f = &files[fi];
	const uint8_t *exp = f->model + off;
	uint64_t i = 0, run = 0, ndiff = 0, last = 0;

	while (i < n && got[i] == exp[i])
		i++;
	while (i + run < n && got[i + run] != exp[i + run])
		run++;
	/* a run can end early where old and new data agree by chance */
	for (uint64_t k = i; k < n; k++)
		if (got[k] != exp[k]) {
			ndiff++;
			last = k;
		}
	fflush(stdout);
	fprintf(stderr, "MISMATCH: file %d (%s) offset %" PRIu64 " (0x%" PRIx64 "): expected 0x%02x got 0x%02x,"
		" differing run of %" PRIu64 " bytes\n", fi, f->path, off + i, off + i, exp[i], got[i], run);
	fprintf(stderr, "  seen by %s of [%" PRIu64 ", %" PRIu64 "), model size %" PRIu64
		"; %" PRIu64 " bytes differ up to offset %" PRIu64 "\n",
		how, off, off + n, f->size, ndiff, off + last);
	dump_bytes("expected", exp + i, min_u64(n - i, 16));
	dump_bytes("got", got + i, min_u64(n - i, 16));
	explain(off + i, got + i, run);
	print_context();
	exit(1);
}

static void __attribute__((noreturn))
mismatch_len(int fi, uint64_t off, uint64_t len, uint64_t got, uint64_t expect, const char *how)
{
	fflush(stdout);
	fprintf(stderr, "MISMATCH: file %d (%s): %s of %" PRIu64 " bytes at offset %" PRIu64
		" returned %" PRIu64 " bytes, expected %" PRIu64 " (model size %" PRIu64 ")\n",
		fi, files[fi].path, how, len, off, got, expect, files[fi].size);
	print_context();
	exit(1);
}

static void __attribute__((noreturn))
mismatch_size(int fi, uint64_t st_size, const char *how)
{
	fflush(stdout);
	fprintf(stderr, "MISMATCH: file %d (%s): st_size %" PRIu64 ", expected %" PRIu64 " (%s)\n",
		fi, files[fi].path, st_size, files[fi].size, how);
	print_context();
	exit(1);
}

static void check(int fi, uint64_t off, const uint8_t *got, uint64_t n, const char *how)
{
	if (memcmp(got, files[fi].model + off, n) != 0)
		mismatch_data(fi, off, got, n, how);
}

/* A read of len at off returned got bytes: check count and content. */
static void check_read(int fi, uint64_t off, uint64_t len, const uint8_t *buf,
		       uint64_t got, const char *how)
{
	uint64_t size = files[fi].size;
	uint64_t expect = off >= size ? 0 : min_u64(len, size - off);

	check(fi, off, buf, min_u64(got, expect), how);
	if (got != expect)
		mismatch_len(fi, off, len, got, expect, how);
}

/* ---- syscall wrappers ---- */

/*
 * pread until len bytes or EOF.  With O_DIRECT (unit > 1) a count that is not
 * a multiple of unit means EOF was reached; stop rather than issue an
 * unaligned read.
 */
static uint64_t read_full(int fd, uint8_t *buf, uint64_t len, uint64_t off,
			  uint64_t unit, const char *how)
{
	uint64_t done = 0;

	while (done < len) {
		ssize_t r = pread(fd, buf + done, len - done, (off_t)(off + done));

		if (r < 0) {
			if (errno == EINTR || (errno == ENOMEM && enomem_ok && !op_armed))
				continue;
			die(errno, "%s: pread at %" PRIu64 " len %" PRIu64, how, off + done, len - done);
		}
		if (r == 0)
			break;
		done += (uint64_t)r;
		if ((uint64_t)r % unit)
			break;
	}
	return done;
}

/* Writes to a model file (f not NULL) go into its model as they are acknowledged. */
static void model_write(struct file *f, uint64_t off, const uint8_t *buf, uint64_t len);

static void write_full(struct file *f, int fd, const uint8_t *buf, uint64_t len, uint64_t off,
		       const char *how)
{
	while (len) {
		ssize_t r = pwrite(fd, buf, len, (off_t)off);

		if (r < 0) {
			if (errno == EINTR)
				continue;
			die(errno, "%s: pwrite at %" PRIu64 " len %" PRIu64, how, off, len);
		}
		if (r == 0)
			die(0, "%s: pwrite at %" PRIu64 " len %" PRIu64 " returned 0", how, off, len);
		if (f)
			model_write(f, off, buf, (uint64_t)r);
		buf += r;
		off += (uint64_t)r;
		len -= (uint64_t)r;
	}
}

static int open_retry(const char *path, int flags)
{
	int fd;

	do
		fd = open(path, flags, 0644);
	while (fd < 0 && (errno == EINTR || (errno == ENOMEM && enomem_ok)));
	return fd;
}

static void close_fd(int *fd, const char *path)
{
	if (*fd >= 0 && close(*fd) < 0)
		die(errno, "close %s", path);
	*fd = -1;
}

static void open_buffered(struct file *f, int extra)
{
	f->fd = open_retry(f->path, O_RDWR | extra);
	if (f->fd < 0)
		die(errno, "open %s", f->path);
}

static int open_direct(const char *path)
{
	int fd = open_retry(path, O_RDWR | O_DIRECT);

	if (fd < 0 && errno == EINVAL) {
		fflush(stdout);
		fprintf(stderr, "integrity: ERROR: %s: O_DIRECT open failed with EINVAL; "
			"this filesystem does not support direct I/O\n", path);
		exit(3);
	}
	if (fd < 0)
		die(errno, "open O_DIRECT %s", path);
	return fd;
}

static int dio_fd(struct file *f)
{
	if (f->dfd < 0)
		f->dfd = open_direct(f->path);
	return f->dfd;
}

static void drop_cache(struct file *f)
{
	int e = posix_fadvise(f->fd, 0, 0, POSIX_FADV_DONTNEED);

	if (e)
		die(e, "posix_fadvise DONTNEED %s", f->path);
}

static void on_sigbus(int sig)
{
	if (!sigbus_armed) {
		signal(sig, SIG_DFL);
		raise(sig);
		return;
	}
	siglongjmp(sigbus_jmp, 1);
}

/* memcpy to or from a mapping; a SIGBUS becomes a clean error report */
static void map_copy(void *dst, const void *src, size_t n, const char *how)
{
	if (sigsetjmp(sigbus_jmp, 1)) {
		sigbus_armed = 0;
		die(0, "%s: SIGBUS accessing the mapping", how);
	}
	sigbus_armed = 1;
	memcpy(dst, src, n);
	sigbus_armed = 0;
}

static uint8_t *map_file(struct file *f, uint64_t start, uint64_t len, int prot)
{
	void *p = mmap(NULL, len, prot, MAP_SHARED, f->fd, (off_t)start);

	if (p == MAP_FAILED)
		die(errno, "mmap %s at %" PRIu64 " len %" PRIu64, f->path, start, len);
	return p;
}

static void unmap(void *p, uint64_t len)
{
	if (munmap(p, len) < 0)
		die(errno, "munmap");
}

/* ---- op logging ---- */

static struct op *op_begin(int kind, int fi, uint64_t off, uint64_t len, const char *note)
{
	struct op *op = loglen ? &oplog[nlogged++ % loglen] : &scratch_op;

	*op = (struct op){ opnum, kind, fi, off, len, files[fi].size, note, false };
	if (verbose) {
		printf("#%" PRIu64 " %s f%d off %" PRIu64 " len %" PRIu64 " size %" PRIu64 "%s%s\n",
		       opnum, kind_names[kind], fi, off, len, files[fi].size, *note ? " " : "", note);
		fflush(stdout);
	}
	cur = op;
	return op;
}

static void op_end(struct op *op)
{
	op->size = files[op->file].size;
	op->done = true;
	count[op->kind]++;
	cur = NULL;
}

static void op_skip(int kind, int fi, const char *why)
{
	struct op *op = op_begin(kind, fi, 0, 0, why);

	op->done = true;
	skipped++;
	cur = NULL;
}

/* ---- choosing offsets and lengths ---- */

/* Offset in [0, lim], biased toward EOF and block edges. */
static uint64_t pick_off(uint64_t size, uint64_t lim)
{
	uint64_t off, lo;

	switch (rnd_below(4)) {
	case 0:		/* anywhere */
		off = rnd_below(lim + 1);
		break;
	case 1:		/* inside the file */
		off = rnd_below(size + 1);
		break;
	case 2:		/* around EOF */
		lo = size > maxop ? size - maxop : 0;
		off = lo + rnd_below(size + maxop - lo + 1);
		break;
	default:	/* within 4 bytes of a 512..4096 byte boundary */
		off = round_down(rnd_below(lim + 1), 512ULL << rnd_below(4)) + rnd_below(9);
		off = off >= 4 ? off - 4 : 0;
		break;
	}
	return min_u64(off, lim);
}

/* Length in [1, max], biased toward tiny and block-sized lengths. */
static uint64_t pick_len(uint64_t max)
{
	uint64_t len;

	switch (rnd_below(4)) {
	case 0:
		len = 1 + rnd_below(min_u64(max, 64));
		break;
	case 1:
		len = (512ULL << rnd_below(4)) + rnd_below(9) - 4;
		break;
	default:
		len = 1 + rnd_below(max);
		break;
	}
	return len > max ? max : len;
}

/* largest op length that is a multiple of unit; bufsz always fits it */
static uint64_t op_max(uint64_t unit)
{
	return max_u64(round_down(maxop, unit), unit);
}

/* [off, off+len) with off+len <= limit, both multiples of unit, len >= unit.
 * limit must be a nonzero multiple of unit. */
static void pick_range(uint64_t size, uint64_t limit, uint64_t unit, uint64_t *off, uint64_t *len)
{
	*off = round_down(pick_off(size, limit - unit), unit);
	*len = min_u64(round_up(pick_len(op_max(unit)), unit), limit - *off);
}

/* read range: may start past EOF and run past maxlen */
static void pick_read(uint64_t size, uint64_t unit, uint64_t *off, uint64_t *len)
{
	*off = round_down(pick_off(size, maxlen), unit);
	*len = round_up(pick_len(op_max(unit)), unit);
}

static uint64_t buf_unit(void)
{
	return bsize ? bsize : 1;
}

/* ---- model ---- */

static void model_write(struct file *f, uint64_t off, const uint8_t *buf, uint64_t len)
{
	memcpy(f->model + off, buf, len);
	f->size = max_u64(f->size, off + len);
}

static void model_zero(struct file *f, uint64_t off, uint64_t end)
{
	end = min_u64(end, f->size);
	if (off < end)
		memset(f->model + off, 0, end - off);
}

/* ---- verification ---- */

/* Read the whole file through fd in chunks of a multiple of unit. */
static void verify_fd(int fi, int fd, uint64_t unit, const char *how)
{
	uint64_t chunk = round_down(bufsz, unit);
	struct stat st;

	if (fstat(fd, &st) < 0)
		die(errno, "%s: fstat %s", how, files[fi].path);
	if ((uint64_t)st.st_size != files[fi].size)
		mismatch_size(fi, (uint64_t)st.st_size, how);
	for (uint64_t off = 0;; off += chunk) {
		uint64_t got = read_full(fd, rbuf, chunk, off, unit, how);

		check_read(fi, off, chunk, rbuf, got, how);
		if (got < chunk)
			break;
	}
}

static void verify_all(const char *how)
{
	for (int i = 0; i < nfiles; i++)
		verify_fd(i, files[i].fd, 1, how);
}

static void verify_dio(int fi, const char *how)
{
	int fd = open_direct(files[fi].path);

	verify_fd(fi, fd, align, how);
	close_fd(&fd, files[fi].path);
}

/* ---- ops ---- */

static void do_read(int fi)
{
	struct file *f = &files[fi];
	uint64_t off, len;

	pick_read(f->size, buf_unit(), &off, &len);
	struct op *op = op_begin(K_READ, fi, off, len, "");
	uint64_t got = read_full(f->fd, rbuf, len, off, 1, "read");

	check_read(fi, off, len, rbuf, got, "read");
	op_end(op);
}

static void do_write(int fi)
{
	struct file *f = &files[fi];
	uint64_t limit = round_down(maxlen, buf_unit()), off, len;

	pick_range(f->size, limit, buf_unit(), &off, &len);
	struct op *op = op_begin(K_WRITE, fi, off, len, "");

	fill_pattern(wbuf, opnum, off, len);
	write_full(f, f->fd, wbuf, len, off, "write");
	op_end(op);
}

static void do_dread(int fi)
{
	struct file *f = &files[fi];
	uint64_t off, len;

	pick_read(f->size, align, &off, &len);
	struct op *op = op_begin(K_DREAD, fi, off, len, "");
	/* a read crossing EOF returns exactly size - off; check_read insists */
	uint64_t got = read_full(dio_fd(f), rbuf, len, off, align, "dread");

	check_read(fi, off, len, rbuf, got, "dread");
	op_end(op);
}

static void do_dwrite(int fi)
{
	struct file *f = &files[fi];
	uint64_t limit = round_down(maxlen, align), off, len;

	if (!limit) {
		op_skip(K_DWRITE, fi, "skip (maxlen < align)");
		return;
	}
	pick_range(f->size, limit, align, &off, &len);
	struct op *op = op_begin(K_DWRITE, fi, off, len, "");

	fill_pattern(wbuf, opnum, off, len);
	write_full(f, dio_fd(f), wbuf, len, off, "dwrite");
	op_end(op);
}

static void do_mread(int fi)
{
	struct file *f = &files[fi];
	uint64_t limit = round_down(f->size, buf_unit()), off, len;

	if (!limit) {
		op_skip(K_MREAD, fi, "skip (empty)");
		return;
	}
	pick_range(f->size, limit, buf_unit(), &off, &len);
	/* sometimes also check that the EOF page reads as zero past EOF */
	bool tail = f->size % pagesz && rnd_below(4) == 0;
	struct op *op = op_begin(K_MREAD, fi, off, len, tail ? "eof-tail" : "");
	uint64_t start = round_down(off, pagesz);
	uint64_t end = tail ? round_up(f->size, pagesz) : off + len;
	uint8_t *map = map_file(f, start, end - start, PROT_READ);

	map_copy(rbuf, map + (off - start), len, "mread");
	check(fi, off, rbuf, len, "mread");
	if (tail) {
		map_copy(rbuf, map + (f->size - start), end - f->size, "mread");
		check(fi, f->size, rbuf, end - f->size, "mread of the EOF page past EOF");
	}
	unmap(map, end - start);
	op_end(op);
}

static void do_mwrite(int fi)
{
	struct file *f = &files[fi];
	uint64_t limit = round_down(f->size, buf_unit()), off, len;

	if (!limit) {
		op_skip(K_MWRITE, fi, "skip (empty)");
		return;
	}
	pick_range(f->size, limit, buf_unit(), &off, &len);
	bool sync = rnd_below(2);
	struct op *op = op_begin(K_MWRITE, fi, off, len, sync ? "msync" : "");
	uint64_t start = round_down(off, pagesz);
	uint8_t *map = map_file(f, start, off + len - start, PROT_READ | PROT_WRITE);

	fill_pattern(wbuf, opnum, off, len);
	map_copy(map + (off - start), wbuf, len, "mwrite");
	/*
	 * The stores are in the file now: an ENOMEM from msync or munmap
	 * (maple tree nodes, under -M) does not take them back.
	 */
	model_write(f, off, wbuf, len);
	if (sync && msync(map, off + len - start, MS_SYNC) < 0)
		die(errno, "msync");
	unmap(map, off + len - start);
	op_end(op);
}

static void do_trunc(int fi)
{
	struct file *f = &files[fi];
	uint64_t ns;

	switch (rnd_below(3)) {
	case 0:		/* small, rarely block aligned */
		ns = rnd_below(min_u64(maxlen, 16384) + 1);
		break;
	case 1:
		ns = rnd_below(maxlen + 1);
		break;
	default:	/* near the current size */
		ns = f->size + rnd_below(16385);
		ns = ns > 8192 ? ns - 8192 : 0;
		break;
	}
	ns = round_down(min_u64(ns, maxlen), buf_unit());
	struct op *op = op_begin(K_TRUNC, fi, ns, 0,
				 ns < f->size ? "shrink" : ns > f->size ? "grow" : "same");
	int r;

	do
		r = ftruncate(f->fd, (off_t)ns);
	while (r < 0 && errno == EINTR);
	if (r < 0)
		die(errno, "ftruncate %s to %" PRIu64, f->path, ns);
	model_zero(f, ns, f->size);
	f->size = ns;
	op_end(op);
}

static void do_sync(int fi, int kind)
{
	struct file *f = &files[fi];
	struct op *op = op_begin(kind, fi, 0, 0, "");

	if ((kind == K_FSYNC ? fsync(f->fd) : fdatasync(f->fd)) < 0)
		die(errno, "%s %s", kind_names[kind], f->path);
	op_end(op);
}

static void do_reopen(int fi)
{
	struct file *f = &files[fi];
	/* dropping clean cached pages makes the verify read from the device */
	bool drop = rnd_below(2);
	struct op *op = op_begin(K_REOPEN, fi, 0, 0, drop ? "drop-cache" : "");

	close_fd(&f->fd, f->path);
	close_fd(&f->dfd, f->path);
	open_buffered(f, 0);
	if (drop)
		drop_cache(f);
	verify_fd(fi, f->fd, 1, "verify after reopen");
	op_end(op);
}

static void do_falloc(int fi, int kind)
{
	struct file *f = &files[fi];
	uint64_t limit = round_down(maxlen, buf_unit()), off, len;
	int mode;

	pick_range(f->size, limit, buf_unit(), &off, &len);
	if (kind == K_PUNCH)
		mode = FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE;
	else
		mode = rnd_below(2) ? FALLOC_FL_KEEP_SIZE : 0;
	struct op *op = op_begin(kind, fi, off, len, mode == FALLOC_FL_KEEP_SIZE ? "keep-size" : "");
	int r;

	do
		r = fallocate(f->fd, mode, (off_t)off, (off_t)len);
	while (r < 0 && errno == EINTR);
	if (r < 0 && errno == EOPNOTSUPP) {
		disabled[kind] = true;
		if (!quiet)
			printf("integrity: note: %s not supported here (EOPNOTSUPP), disabled\n",
			       kind_names[kind]);
		op->note = "unsupported";
		op->done = true;
		skipped++;
		cur = NULL;
		return;
	}
	if (r < 0)
		die(errno, "fallocate %s mode %#x", f->path, (unsigned)mode);
	if (kind == K_PUNCH)
		model_zero(f, off, off + len);
	else if (mode == 0)
		f->size = max_u64(f->size, off + len);
	op_end(op);
}

/* -X: change one byte through an independent fd without telling the model */
static void do_corrupt(void)
{
	int fi = (int)rnd_below((uint64_t)nfiles), i;

	for (i = 0; i < nfiles && files[fi].size == 0; i++)
		fi = (fi + 1) % nfiles;
	if (i == nfiles)
		return;

	struct file *f = &files[fi];
	uint64_t off = rnd_below(f->size);
	uint8_t b = f->model[off] ^ 0xff;
	struct op *op = op_begin(K_CORRUPT, fi, off, 1, "self-test, model not updated");
	int fd = open_retry(f->path, O_WRONLY);

	if (fd < 0)
		die(errno, "corrupt: open %s", f->path);
	write_full(NULL, fd, &b, 1, off, "corrupt");
	if (fsync(fd) < 0)
		die(errno, "corrupt: fsync");
	close_fd(&fd, f->path);
	op_end(op);
}

static int pick_kind(void)
{
	uint64_t total = 0, r;
	int k;

	for (k = 0; k < NKINDS; k++)
		total += disabled[k] ? 0 : weight[k];
	if (!total)
		die(0, "no enabled op kinds left in mix '%s'", mixname);
	r = rnd_below(total);
	for (k = 0; k < NKINDS; k++) {
		uint64_t w = disabled[k] ? 0 : weight[k];

		if (r < w)
			break;
		r -= w;
	}
	return k;
}

static void do_op(int kind, int fi)
{
	switch (kind) {
	case K_READ:		do_read(fi); break;
	case K_WRITE:		do_write(fi); break;
	case K_DREAD:		do_dread(fi); break;
	case K_DWRITE:		do_dwrite(fi); break;
	case K_MREAD:		do_mread(fi); break;
	case K_MWRITE:		do_mwrite(fi); break;
	case K_TRUNC:		do_trunc(fi); break;
	case K_FSYNC:
	case K_FDATASYNC:	do_sync(fi, kind); break;
	case K_REOPEN:		do_reopen(fi); break;
	case K_FALLOC:
	case K_PUNCH:		do_falloc(fi, kind); break;
	}
}

static void run_op(int kind, int fi)
{
	if (enomem_ok) {
		if (sigsetjmp(op_jmp, 1)) {
			op_armed = false;
			if (cur) {
				cur->note = "ENOMEM";
				cur->done = true;
				cur = NULL;
			}
			enomem_ops++;
			return;
		}
		op_armed = true;
	}
	do_op(kind, fi);
	op_armed = false;
}

/* ---- option parsing ---- */

static uint64_t parse_num(const char *s, char opt, bool suffix)
{
	char *end;
	uint64_t v, mul = 1;

	errno = 0;
	if (*s < '0' || *s > '9')
		bad_usage("-%c: bad number '%s'", opt, s);
	v = strtoull(s, &end, suffix ? 10 : 0);
	if (suffix && *end) {
		switch (*end++ | 0x20) {
		case 'k': mul = 1ULL << 10; break;
		case 'm': mul = 1ULL << 20; break;
		case 'g': mul = 1ULL << 30; break;
		default: end = (char *)s; break;	/* force the error below */
		}
	}
	if (errno || *end || (v && mul > UINT64_MAX / v))
		bad_usage("-%c: bad number '%s'", opt, s);
	return v * mul;
}

static void parse_mix(const char *s, int depth)
{
	char *copy = strdup(s), *save = NULL;

	if (!copy)
		die(errno, "strdup");
	for (char *tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		char *eq = strchr(tok, '=');
		unsigned long w = 1;
		size_t p;
		int k;

		if (eq) {
			char *end;

			*eq = '\0';
			errno = 0;
			w = strtoul(eq + 1, &end, 10);
			if (errno || *end || eq[1] < '0' || eq[1] > '9' || w > 1000000)
				bad_usage("-m: bad weight in '%s=%s'", tok, eq + 1);
		}
		for (p = 0; p < sizeof(presets) / sizeof(presets[0]); p++)
			if (!strcmp(tok, presets[p].name))
				break;
		if (p < sizeof(presets) / sizeof(presets[0]) && !eq && depth == 0) {
			parse_mix(presets[p].mix, 1);
			continue;
		}
		for (k = 0; k < NKINDS && strcmp(tok, kind_names[k]); k++)
			;
		if (k == NKINDS)
			bad_usage("-m: unknown op kind or preset '%s'", tok);
		weight[k] = (unsigned)w;
	}
	free(copy);
}

static bool is_pow2(uint64_t x)
{
	return x && !(x & (x - 1));
}

static void parse_args(int argc, char **argv)
{
	bool have_seed = false;
	int c;

	while ((c = getopt(argc, argv, "S:N:l:o:m:A:B:X:L:V:Mvqh")) != -1) {
		switch (c) {
		case 'S': seed = parse_num(optarg, 'S', false); have_seed = true; break;
		case 'N': nops = parse_num(optarg, 'N', false); break;
		case 'l': maxlen = parse_num(optarg, 'l', true); break;
		case 'o': maxop = parse_num(optarg, 'o', true); break;
		case 'm': mixname = optarg; break;
		case 'A': align = parse_num(optarg, 'A', true); break;
		case 'B': bsize = parse_num(optarg, 'B', true); break;
		case 'X': corrupt_every = parse_num(optarg, 'X', false); break;
		case 'L': loglen = parse_num(optarg, 'L', false); break;
		case 'V': verify_every = parse_num(optarg, 'V', false); break;
		case 'M': enomem_ok = true; break;
		case 'v': verbose = true; break;
		case 'q': quiet = true; break;
		case 'h': usage(0);
		default: usage(2);
		}
	}
	if (optind >= argc)
		bad_usage("no FILE given");
	if (!maxlen || !maxop)
		bad_usage("-l and -o must be nonzero");
	if (!is_pow2(align))
		bad_usage("-A must be a power of two");
	if (bsize && bsize > maxlen)
		bad_usage("-B must not exceed -l");
	if (loglen > 1000000)
		bad_usage("-L too large");
	parse_mix(mixname, 0);
	unsigned total = 0;

	for (int k = 0; k < NKINDS; k++)
		total += weight[k];
	if (!total)
		bad_usage("-m: mix has no ops");
	if (!have_seed) {
		struct timespec ts;

		clock_gettime(CLOCK_REALTIME, &ts);
		seed = mix64((uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec) ^
		       ((uint64_t)getpid() << 32);
	}
	nfiles = argc - optind;
}

/* ---- setup and main ---- */

static void *alloc_aligned(uint64_t size)
{
	void *p;
	int e = posix_memalign(&p, max_u64(align, pagesz), size);

	if (e)
		die(e, "posix_memalign %" PRIu64, size);
	return p;
}

static void setup_files(char **paths)
{
	files = calloc((size_t)nfiles, sizeof(*files));
	if (!files)
		die(errno, "calloc");
	for (int i = 0; i < nfiles; i++) {
		struct file *f = &files[i];
		struct stat st, st2;

		f->path = paths[i];
		f->dfd = -1;
		/* the EOF-page tail check reads model bytes up to a page past maxlen */
		f->model = calloc(1, round_up(maxlen, pagesz));
		if (!f->model)
			die(errno, "calloc model for %s", f->path);
		open_buffered(f, O_CREAT | O_TRUNC);
		if (fstat(f->fd, &st) < 0)
			die(errno, "fstat %s", f->path);
		for (int j = 0; j < i; j++)
			if (fstat(files[j].fd, &st2) == 0 && st.st_dev == st2.st_dev &&
			    st.st_ino == st2.st_ino)
				bad_usage("%s and %s are the same file", files[j].path, f->path);
	}
}

/* Ask the kernel's fault injection (task-filter=Y) to fail this process's calls. */
static void make_it_fail(void)
{
	int fd = open("/proc/self/make-it-fail", O_WRONLY);

	if (fd < 0)
		return;
	if (write(fd, "1", 1) != 1)
		die(errno, "/proc/self/make-it-fail");
	close(fd);
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

static void final_verify(void)
{
	bool dio = weight[K_DREAD] || weight[K_DWRITE];

	verify_all("final verify");
	for (int i = 0; i < nfiles; i++) {
		if (fsync(files[i].fd) < 0)
			die(errno, "final fsync %s", files[i].path);
		drop_cache(&files[i]);
	}
	verify_all("final verify after dropping the page cache");
	for (int i = 0; dio && i < nfiles; i++)
		verify_dio(i, "final O_DIRECT verify");
	for (int i = 0; i < nfiles; i++) {
		close_fd(&files[i].fd, files[i].path);
		close_fd(&files[i].dfd, files[i].path);
	}
}

static void print_summary(double secs)
{
	printf("integrity: OK seed %" PRIu64 " ops %" PRIu64 " files %d", seed, nops, nfiles);
	for (int k = 0; k < NKINDS; k++)
		if (weight[k])
			printf(" %s=%" PRIu64, kind_names[k], count[k]);
	if (corrupt_every)
		printf(" corrupt=%" PRIu64, count[K_CORRUPT]);
	if (enomem_ok)
		printf(" enomem=%" PRIu64, enomem_ops);
	printf(" skipped=%" PRIu64 " time %.2fs (%.0f ops/s)\n", skipped, secs,
	       secs > 0 ? (double)nops / secs : 0.0);
}

int main(int argc, char **argv)
{
	struct sigaction sa = { .sa_handler = on_sigbus };

	parse_args(argc, argv);
	pagesz = (uint64_t)sysconf(_SC_PAGESIZE);
	bufsz = round_up(max_u64(max_u64(maxop, bsize), max_u64(align, pagesz)), align);
	printf("integrity: seed %" PRIu64 " ops %" PRIu64 " files %d mode %s maxlen %" PRIu64
	       " maxop %" PRIu64 " align %" PRIu64 " bsize %" PRIu64 "%s\n", seed, nops, nfiles,
	       mixname, maxlen, maxop, align, bsize, bsize ? "" : " (unaligned)");
	fflush(stdout);

	sigemptyset(&sa.sa_mask);
	if (sigaction(SIGBUS, &sa, NULL) < 0)
		die(errno, "sigaction");
	rng = seed;
	wbuf = alloc_aligned(bufsz);
	rbuf = alloc_aligned(bufsz);
	oplog = calloc((size_t)max_u64(loglen, 1), sizeof(*oplog));
	if (!oplog)
		die(errno, "calloc");
	setup_files(argv + optind);
	if (enomem_ok) {
		/* our own memory in first: a failed page fault is only retried */
		memset(wbuf, 0, bufsz);
		memset(rbuf, 0, bufsz);
		for (int i = 0; i < nfiles; i++)
			memset(files[i].model, 0, maxlen);
		make_it_fail();
	}

	double t0 = now();
	uint64_t progress = nops >= 10 ? nops / 10 : 1;

	for (opnum = 1; opnum <= nops; opnum++) {
		int fi = (int)rnd_below((uint64_t)nfiles);

		run_op(pick_kind(), fi);
		if (corrupt_every && opnum % corrupt_every == 0)
			do_corrupt();
		if (verify_every && opnum % verify_every == 0)
			verify_all("periodic verify");
		if (!quiet && !verbose && opnum % progress == 0) {
			printf("integrity: %" PRIu64 "/%" PRIu64 " ops\n", opnum, nops);
			fflush(stdout);
		}
	}
	opnum = nops;
	final_verify();
	print_summary(now() - t0);

	for (int i = 0; i < nfiles; i++)
		free(files[i].model);
	free(files);
	free(oplog);
	free(wbuf);
	free(rbuf);
	return 0;
}
