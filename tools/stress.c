// SPDX-License-Identifier: GPL-2.0
/*
 * stress - many processes on shared files and directories, every byte and
 * every name checked against a model.
 *
 *   stress run [-p PROCS] [-t SECS] [-S SEED] [-s SIZE] -m MODEL DIR
 *   stress verify -m MODEL DIR
 *
 * Data: DIR/mix0 and mix1 are cut into 1536-byte slots, so the slots of
 * different processes share pages and blocks; they see buffered and mmap
 * I/O, which the page cache keeps coherent byte by byte. DIR/page0 and page1
 * are cut into page-sized slots and see O_DIRECT too: Linux keeps direct and
 * buffered I/O coherent only page by page. Slot i of a file belongs to
 * process i % PROCS. Its content is a function of (file, slot, generation)
 * and the model keeps only the generation, so the page files (SIZE bytes
 * each, default 32m) can be larger than the guest's memory. Processes also
 * move the end of every file past the last slot (truncate up and down,
 * writes there), which shares the last page and indirect blocks with slots.
 *
 * Names: each process creates, rewrites, renames (also over its own names)
 * and unlinks files of its own in the shared directories DIR/d0..d7, with
 * fsync of files and directories.
 *
 * Reads check the model as they go. When every process is done, "run"
 * saves the model to the file MODEL; "verify" (after a remount, say) reads
 * every slot again and lists every directory: each entry must be one the
 * model has, in that directory, with its content, and none may be missing.
 * A process's ops are replayable from the seed; how they interleave with
 * the others' is not.
 *
 * Exit codes: 0 verified, 1 mismatch, 2 usage, 3 setup or syscall error.
 */
#include <dirent.h>
#include <err.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define NFILES		4	/* mix0 mix1 page0 page1 */
#define NDIRS		8
#define NAMES		48	/* live names per process, at most */
#define NAME_MAX_LEN	3000	/* content of a name's file, bytes */
#define TAIL		65536	/* how far past the last slot the end moves */
#define MAXPROCS	64

enum op {
	OP_WRITE, OP_MWRITE, OP_DWRITE, OP_READ, OP_MREAD, OP_DREAD,
	OP_TRUNC, OP_FSYNC, OP_CREATE, OP_REWRITE, OP_RENAME, OP_UNLINK,
	OP_NREAD, OP_DIRSYNC, NOPS
};

static const char *const op_names[NOPS] = {
	"write", "mwrite", "dwrite", "read", "mread", "dread", "trunc",
	"fsync", "create", "rewrite", "rename", "unlink", "nread", "dirsync",
};

static const unsigned int op_weight[NOPS] = {
	6, 3, 3, 4, 2, 2, 1, 1, 2, 1, 2, 1, 2, 1,
};

struct data_file {
	char path[4096];
	size_t slot;		/* bytes */
	uint64_t nslots;	/* a multiple of the process count */
	uint32_t *gen;		/* per slot, shared with the parent */
	int fd, dfd;		/* per process */
	char *map;		/* per process: [0, nslots * slot) */
};

struct name {
	uint32_t id;		/* the name is p<proc>-<id> */
	uint32_t key;		/* content: of the name it was created as */
	uint32_t gen;
	uint16_t dir;
	uint8_t used;
};

struct proc_model {
	struct name names[NAMES];
	uint32_t next_id;
	uint64_t ops[NOPS];
};

static struct data_file files[NFILES];
static struct proc_model *models;	/* shared: one per process */
static unsigned int nprocs = 6;
static uint64_t seed = 1;
static const char *dir;
static uint64_t rng;
static long page_size;

static uint64_t mix64(uint64_t z)
{
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static uint64_t next(void)
{
	rng += 0x9e3779b97f4a7c15ULL;
	return mix64(rng);
}

static uint64_t below(uint64_t n)
{
	return next() % n;
}

/* len bytes of the content keyed (a, b, gen); generation 0 is a hole */
static void content(char *buf, size_t len, uint64_t a, uint64_t b, uint32_t gen)
{
	uint64_t key = mix64(seed ^ mix64(a ^ mix64(b ^ mix64(gen))));
	size_t i;

	if (!gen) {
		memset(buf, 0, len);
		return;
	}
	for (i = 0; i < len; i += 8) {
		uint64_t v = mix64(key + i) | 0x0101010101010101ULL;

		memcpy(buf + i, &v, len - i < 8 ? len - i : 8);
	}
}

static int mismatch(const char *what, const char *path, uint64_t at,
		    const char *got, const char *want, size_t len)
{
	size_t i = 0;

	while (i < len && got[i] == want[i])
		i++;
	if (i == len)
		return 0;
	fprintf(stderr, "stress: %s of %s at %" PRIu64 "+%zu: got %02x, want %02x\n",
		what, path, at, i, (unsigned char)got[i], (unsigned char)want[i]);
	return 1;
}

static void xpwrite(int fd, const void *buf, size_t len, off_t at, const char *path)
{
	ssize_t r = pwrite(fd, buf, len, at);

	if (r != (ssize_t)len)
		err(3, "pwrite %s at %lld: %zd", path, (long long)at, r);
}

static void xpread(int fd, void *buf, size_t len, off_t at, const char *path)
{
	ssize_t r = pread(fd, buf, len, at);

	if (r != (ssize_t)len)
		err(3, "pread %s at %lld: %zd", path, (long long)at, r);
}

static void name_path(char *path, size_t size, unsigned int proc, const struct name *n)
{
	snprintf(path, size, "%s/d%u/p%u-%u", dir, n->dir, proc, n->id);
}

static size_t name_len(unsigned int proc, const struct name *n)
{
	return 1 + mix64(seed ^ ((uint64_t)proc << 32 | n->key) ^ n->gen) % NAME_MAX_LEN;
}

static void name_write(unsigned int proc, struct name *n, int flags)
{
	char path[4200], buf[NAME_MAX_LEN];
	size_t len = name_len(proc, n);
	int fd;

	name_path(path, sizeof(path), proc, n);
	fd = open(path, O_WRONLY | flags, 0644);
	if (fd < 0)
		err(3, "open %s", path);
	content(buf, len, proc, n->key, n->gen);
	xpwrite(fd, buf, len, 0, path);
	if (!below(4) && fsync(fd))
		err(3, "fsync %s", path);
	close(fd);
}

static int name_check(unsigned int proc, const struct name *n)
{
	char path[4200], buf[NAME_MAX_LEN + 1], want[NAME_MAX_LEN];
	size_t len = name_len(proc, n);
	ssize_t r;
	int fd;

	name_path(path, sizeof(path), proc, n);
	fd = open(path, O_RDONLY);
	if (fd < 0) {
		fprintf(stderr, "stress: %s: %s\n", path, strerror(errno));
		return 1;
	}
	r = pread(fd, buf, sizeof(buf), 0);
	close(fd);
	if (r != (ssize_t)len) {
		fprintf(stderr, "stress: %s holds %zd bytes, want %zu\n", path, r, len);
		return 1;
	}
	content(want, len, proc, n->key, n->gen);
	return mismatch("name", path, 0, buf, want, len);
}

/* one of this process's names, used or not */
static struct name *pick_name(struct proc_model *m, int used)
{
	unsigned int i, start = below(NAMES);

	for (i = 0; i < NAMES; i++) {
		struct name *n = &m->names[(start + i) % NAMES];

		if (n->used == used)
			return n;
	}
	return NULL;
}

static int name_op(unsigned int proc, enum op op)
{
	struct proc_model *m = &models[proc];
	char from[4200], to[4200];
	struct name *n, *t;
	int fd;

	switch (op) {
	case OP_CREATE:
		n = pick_name(m, 0);
		if (!n)
			return 0;
		*n = (struct name){ .id = m->next_id++, .gen = 1, .dir = below(NDIRS), .used = 1 };
		n->key = n->id;
		name_write(proc, n, O_CREAT | O_EXCL);
		return 0;
	case OP_REWRITE:
		n = pick_name(m, 1);
		if (!n)
			return 0;
		n->gen++;
		name_write(proc, n, O_TRUNC);
		return 0;
	case OP_RENAME:
		n = pick_name(m, 1);
		if (!n)
			return 0;
		name_path(from, sizeof(from), proc, n);
		t = below(3) ? NULL : pick_name(m, 1);
		if (t && t != n) {
			/* over another name of ours: it takes n's content */
			name_path(to, sizeof(to), proc, t);
			if (rename(from, to))
				err(3, "rename %s %s", from, to);
			t->key = n->key;
			t->gen = n->gen;
			n->used = 0;
			return 0;
		}
		n->dir = below(NDIRS);
		name_path(to, sizeof(to), proc, n);
		if (rename(from, to))
			err(3, "rename %s %s", from, to);
		return 0;
	case OP_UNLINK:
		n = pick_name(m, 1);
		if (!n)
			return 0;
		name_path(from, sizeof(from), proc, n);
		if (unlink(from))
			err(3, "unlink %s", from);
		n->used = 0;
		return 0;
	case OP_NREAD:
		n = pick_name(m, 1);
		return n ? name_check(proc, n) : 0;
	case OP_DIRSYNC:
		snprintf(from, sizeof(from), "%s/d%u", dir, (unsigned int)below(NDIRS));
		fd = open(from, O_RDONLY | O_DIRECTORY);
		if (fd < 0 || fsync(fd))
			err(3, "fsync %s", from);
		close(fd);
		return 0;
	default:
		return 0;
	}
}

static int data_op(unsigned int proc, enum op op, char *buf, char *want)
{
	struct data_file *f = &files[below(NFILES)];
	uint64_t k, s, end = f->nslots * f->slot;
	off_t at;
	int ret = 0;

	/* half of the ops in the first pages, where processes meet */
	k = below(2 * (f->nslots / nprocs)) % (f->nslots / nprocs);
	if (below(2))
		k %= 64 / nprocs + 1;
	s = k * nprocs + proc;
	at = s * f->slot;
	/* the mix files are not for O_DIRECT: see the header */
	if (f->dfd < 0 && op == OP_DWRITE)
		op = OP_WRITE;
	if (f->dfd < 0 && op == OP_DREAD)
		op = OP_READ;

	switch (op) {
	case OP_WRITE:
	case OP_MWRITE:
	case OP_DWRITE:
		content(buf, f->slot, s, (uintptr_t)(f - files), ++f->gen[s]);
		if (op == OP_MWRITE)
			memcpy(f->map + at, buf, f->slot);
		else
			xpwrite(op == OP_DWRITE ? f->dfd : f->fd, buf, f->slot, at, f->path);
		break;
	case OP_READ:
	case OP_MREAD:
	case OP_DREAD:
		content(want, f->slot, s, (uintptr_t)(f - files), f->gen[s]);
		if (op == OP_MREAD)
			memcpy(buf, f->map + at, f->slot);
		else
			xpread(op == OP_DREAD ? f->dfd : f->fd, buf, f->slot, at, f->path);
		ret = mismatch(op_names[op], f->path, at, buf, want, f->slot);
		break;
	case OP_TRUNC:
		/* never below the last slot; sometimes blocks out there too */
		at = end + below(TAIL);
		if (ftruncate(f->fd, at))
			err(3, "truncate %s", f->path);
		if (below(2)) {
			memset(buf, 0x5a, f->slot);
			xpwrite(f->fd, buf, f->slot, end + below(TAIL), f->path);
		}
		break;
	case OP_FSYNC:
		if (below(2) ? fsync(f->fd) : fdatasync(f->fd))
			err(3, "fsync %s", f->path);
		break;
	default:
		break;
	}
	return ret;
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static int worker(unsigned int proc, double deadline)
{
	unsigned int total = 0, i;
	char *buf, *want;

	rng = mix64(seed + proc);
	if (posix_memalign((void **)&buf, page_size, page_size) ||
	    posix_memalign((void **)&want, page_size, page_size))
		errx(3, "out of memory");
	for (i = 0; i < NFILES; i++) {
		struct data_file *f = &files[i];

		f->fd = open(f->path, O_RDWR);
		f->dfd = f->slot % page_size ? -1 : open(f->path, O_RDWR | O_DIRECT);
		f->map = mmap(NULL, f->nslots * f->slot, PROT_READ | PROT_WRITE,
			      MAP_SHARED, f->fd, 0);
		if (f->fd < 0 || (!(f->slot % page_size) && f->dfd < 0) ||
		    f->map == MAP_FAILED)
			err(3, "open %s", f->path);
	}
	for (i = 0; i < NOPS; i++)
		total += op_weight[i];
	while (now() < deadline) {
		unsigned int pick = below(total);
		enum op op = 0;

		while (pick >= op_weight[op])
			pick -= op_weight[op++];
		models[proc].ops[op]++;
		if (op >= OP_CREATE ? name_op(proc, op) : data_op(proc, op, buf, want))
			return 1;
	}
	return 0;
}

/* after CMD: every slot, then every directory entry */
static int verify(void)
{
	char *buf, *want, path[4200];
	unsigned int i, d, proc, id, found = 0, live = 0;
	int bad = 0;
	uint64_t s;

	if (posix_memalign((void **)&buf, page_size, page_size) ||
	    posix_memalign((void **)&want, page_size, page_size))
		errx(3, "out of memory");
	for (i = 0; i < NFILES; i++) {
		struct data_file *f = &files[i];
		int fd = open(f->path, O_RDONLY);

		if (fd < 0)
			err(3, "open %s", f->path);
		for (s = 0; s < f->nslots && bad < 10; s++) {
			content(want, f->slot, s, i, f->gen[s]);
			xpread(fd, buf, f->slot, s * f->slot, f->path);
			bad += mismatch("final read", f->path, s * f->slot, buf, want, f->slot);
		}
		close(fd);
	}
	for (d = 0; d < NDIRS; d++) {
		struct dirent *e;
		DIR *h;

		snprintf(path, sizeof(path), "%s/d%u", dir, d);
		h = opendir(path);
		if (!h)
			err(3, "opendir %s", path);
		while ((e = readdir(h))) {
			struct name *n = NULL;

			if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
				continue;
			if (sscanf(e->d_name, "p%u-%u", &proc, &id) == 2 && proc < nprocs)
				for (i = 0; i < NAMES && !n; i++)
					if (models[proc].names[i].used &&
					    models[proc].names[i].id == id &&
					    models[proc].names[i].dir == d)
						n = &models[proc].names[i];
			if (!n) {
				fprintf(stderr, "stress: d%u/%s: not in the model\n", d, e->d_name);
				bad++;
				continue;
			}
			found++;
			bad += name_check(proc, n);
		}
		closedir(h);
	}
	for (proc = 0; proc < nprocs; proc++)
		for (i = 0; i < NAMES; i++)
			live += models[proc].names[i].used;
	if (found != live) {
		fprintf(stderr, "stress: %u names found, the model has %u\n", found, live);
		bad++;
	}
	if (bad)
		printf("stress: %d mismatches\n", bad);
	else
		printf("stress: verified %u names and every slot of %d files\n", live, NFILES);
	return bad ? 1 : 0;
}

static void *shared(size_t len)
{
	void *p = mmap(NULL, len, PROT_READ | PROT_WRITE,
		       MAP_SHARED | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED)
		err(3, "mmap %zu", len);
	return p;
}

static uint64_t parse_size(const char *s)
{
	char *end;
	uint64_t v = strtoull(s, &end, 0);

	switch (*end) {
	case 'k': return v << 10;
	case 'm': return v << 20;
	case 'g': return v << 30;
	case 0: return v;
	}
	errx(2, "bad size %s", s);
}

static void file_geometry(unsigned int i, uint64_t size)
{
	struct data_file *f = &files[i];

	snprintf(f->path, sizeof(f->path), "%s/%s%u", dir, i < 2 ? "mix" : "page", i % 2);
	f->slot = i < 2 ? 1536 : page_size;
	if (!size)
		return;
	/* mix files: a quarter of the size, an odd number of rows so that
	 * the last slot ends inside a page for most PROCS */
	f->nslots = (i < 2 ? size / 4 : size) / f->slot / nprocs;
	if (i < 2)
		f->nslots |= 1;
	f->nslots = (f->nslots ? f->nslots : 1) * nprocs;
}

static void setup(uint64_t size)
{
	char path[4200];
	unsigned int i;

	if (mkdir(dir, 0755) && errno != EEXIST)
		err(3, "mkdir %s", dir);
	for (i = 0; i < NFILES; i++) {
		struct data_file *f = &files[i];
		int fd;

		file_geometry(i, size);
		f->gen = shared(f->nslots * sizeof(*f->gen));
		fd = open(f->path, O_RDWR | O_CREAT | O_TRUNC, 0644);
		if (fd < 0 || ftruncate(fd, f->nslots * f->slot))
			err(3, "create %s", f->path);
		close(fd);
	}
	for (i = 0; i < NDIRS; i++) {
		snprintf(path, sizeof(path), "%s/d%u", dir, i);
		if (mkdir(path, 0755) && errno != EEXIST)
			err(3, "mkdir %s", path);
	}
	models = shared(nprocs * sizeof(*models));
}

struct model_header {
	char magic[8];
	uint64_t seed, nprocs, nslots[NFILES];
};

static size_t xfer(int save, void *p, size_t size, size_t n, FILE *m)
{
	return save ? fwrite(p, size, n, m) : fread(p, size, n, m);
}

/* the model file: header, each file's generations, each process's names */
static void model_io(const char *path, int save)
{
	struct model_header h = { .magic = "stress1", .seed = seed, .nprocs = nprocs };
	FILE *m = fopen(path, save ? "w" : "r");
	unsigned int i;
	int ok;

	if (!m)
		err(3, "%s", path);
	for (i = 0; i < NFILES; i++)
		h.nslots[i] = files[i].nslots;
	ok = xfer(save, &h, sizeof(h), 1, m);
	if (!save) {
		if (!ok || strcmp(h.magic, "stress1") || !h.nprocs || h.nprocs > MAXPROCS)
			errx(3, "%s: not a model file", path);
		seed = h.seed;
		nprocs = h.nprocs;
		for (i = 0; i < NFILES; i++) {
			file_geometry(i, 0);
			files[i].nslots = h.nslots[i];
			files[i].gen = calloc(h.nslots[i], sizeof(uint32_t));
		}
		models = calloc(nprocs, sizeof(*models));
		if (!models)
			errx(3, "out of memory");
	}
	for (i = 0; i < NFILES && ok; i++) {
		if (!files[i].gen)
			errx(3, "out of memory");
		ok = xfer(save, files[i].gen, sizeof(uint32_t), files[i].nslots, m) ==
		     files[i].nslots;
	}
	if (ok)
		ok = xfer(save, models, sizeof(*models), nprocs, m) == nprocs;
	if (!ok || fclose(m))
		errx(3, "%s: cannot %s the model", path, save ? "save" : "read");
}

static int run(const char *model, unsigned int secs, uint64_t size)
{
	uint64_t ops[NOPS] = { 0 }, total = 0;
	unsigned int i, failed = 0;
	double deadline;
	int status;

	setup(size);
	deadline = now() + secs;
	for (i = 0; i < nprocs; i++) {
		pid_t pid = fork();

		if (pid < 0)
			err(3, "fork");
		if (!pid)
			_exit(worker(i, deadline));
	}
	while (wait(&status) > 0) {
		if (WIFSIGNALED(status))
			fprintf(stderr, "stress: a process was killed by signal %d\n",
				WTERMSIG(status));
		if (!WIFEXITED(status) || WEXITSTATUS(status))
			failed = WIFEXITED(status) ? WEXITSTATUS(status) : 3;
	}
	for (i = 0; i < nprocs * NOPS; i++)
		ops[i % NOPS] += models[i / NOPS].ops[i % NOPS];
	printf("stress: %u processes, %u s:", nprocs, secs);
	for (i = 0; i < NOPS; i++) {
		printf(" %s %" PRIu64, op_names[i], ops[i]);
		total += ops[i];
	}
	printf(" (%" PRIu64 " ops)\n", total);
	model_io(model, 1);
	return failed;
}

int main(int argc, char **argv)
{
	const char *mode, *model = NULL;
	unsigned int secs = 60;
	uint64_t size = 32 << 20;
	int opt;

	if (argc < 2)
		goto usage;
	mode = argv[1];
	optind = 2;
	while ((opt = getopt(argc, argv, "p:t:S:s:m:")) != -1) {
		switch (opt) {
		case 'p': nprocs = atoi(optarg); break;
		case 't': secs = atoi(optarg); break;
		case 'S': seed = strtoull(optarg, NULL, 0); break;
		case 's': size = parse_size(optarg); break;
		case 'm': model = optarg; break;
		default: goto usage;
		}
	}
	if (argc - optind != 1 || !model || !nprocs || nprocs > MAXPROCS || !secs)
		goto usage;
	dir = argv[optind];
	page_size = sysconf(_SC_PAGESIZE);
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (!strcmp(mode, "run"))
		return run(model, secs, size);
	if (!strcmp(mode, "verify")) {
		model_io(model, 0);
		return verify();
	}
usage:
	fprintf(stderr, "usage: stress run [-p PROCS] [-t SECS] [-S SEED] [-s SIZE] -m MODEL DIR\n"
			"       stress verify -m MODEL DIR\n");
	return 2;
}
