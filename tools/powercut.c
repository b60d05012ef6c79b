/*
 * powercut - power cuts at every flush: a workload whose acknowledged state
 * is known at each step, and a checker that replays a dm-log-writes log of
 * it to many crash points and checks what each point must have kept.
 *
 *   powercut run    -w WORKLOAD [-S SEED] [-n OPS] [-m DMNAME] DIR
 *   powercut verify -w WORKLOAD [-S SEED] [-n OPS] DIR
 *   powercut check  -w WORKLOAD [-S SEED] [-n OPS] -b BASE -l LOG -t DEV -d MNT
 *                   [-T FSTYPE] [-p POINTS] [-r RANDOM] [-o SAVEDIR]
 *
 * run: operations drawn from the workload's mix by a PRNG seeded with -S, on
 * a few files under DIR. Each operation ends with the sync its kind promises
 * (fsync, fdatasync, O_DSYNC, O_SYNC, O_DIRECT|O_DSYNC, an fsync of the
 * directory or a DIRSYNC directory); when it has returned, "ack N" is sent
 * as a mark to the dm-log-writes target DMNAME, so the log says where each
 * acknowledgement stands among the writes.
 *
 * verify: the tree a run left in DIR against the model (no crash).
 *
 * check: BASE is the device's image before the run, LOG the log device. The
 * crash points are every flush, every FUA write, every mark and -r random
 * entries (-p keeps at most POINTS of them: the random ones, then marks,
 * then flush and FUA points, evenly spread from an offset the seed picks).
 * For each point the log is applied up to it on a copy of BASE held in
 * memory, which is written to DEV; then "e2fsck -fy" must repair it,
 * "e2fsck -fn" must find it clean (one more -fy is allowed, and counted,
 * where e2fsck cloned a block two inodes claimed: e2fsck 1.47.0 leaks the
 * original of a cloned xattr block), and it must mount read-only on MNT.
 * Replaying the same seed gives the model: everything operation N
 * acknowledged must be there (names, sizes, contents, xattrs); only
 * operation N+1, which may have been in flight, may be half done, and even
 * then its bytes are its own, the old ones, or zeros; a file a DIRSYNC
 * rename in flight moves keeps one of its two names. A name must hold the
 * inode its file was created with (the run puts each new file's inode
 * number in its mark); only where that is unknown (verify) are files told
 * apart by their contents, and two empty ones are the same file.
 * Other bytes there (old disk contents) are counted as "stale" and reported,
 * not failed: ext2 has no journal to order data before the inode that owns it.
 *
 * Data bytes are a hash of (seed, operation, offset), never zero, so a wrong
 * byte names the operation that wrote it. Exit codes: 0 every point kept what
 * it acknowledged, 1 a point failed, 2 usage, 3 system call error.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <linux/dm-ioctl.h>
#include <linux/fs.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <sys/xattr.h>
#include <unistd.h>

#define NNAMES	24		/* name slots, spread over NDIRS directories */
#define NDIRS	3
#define NFILES	(2 * NNAMES)	/* file identities, reused once freed */
#define MAXLEN	(320 * 1024)	/* double indirect blocks at 1 KiB */
#define XATTR	"user.powercut"

enum kind { K_CREATE, K_APPEND, K_WRITE, K_TRUNC, K_UNLINK, K_RENAME,
	    K_LINK, K_XATTR, NKINDS };
static const char *const kind_names[NKINDS] = {
	"create", "append", "write", "trunc", "unlink", "rename", "link", "xattr",
};

/* how a data operation is made durable */
enum sync { S_FSYNC, S_FDATASYNC, S_DSYNC, S_SYNC, S_DIO, NSYNCS };
static const char *const sync_names[NSYNCS] = {
	"fsync", "fdatasync", "O_DSYNC", "O_SYNC", "O_DIRECT|O_DSYNC",
};

static const struct workload {
	const char *name;
	int weight[NKINDS];
	unsigned int syncs;	/* bit per enum sync */
	bool dirsync;		/* directories carry FS_DIRSYNC_FL */
	bool large;		/* files with indirect blocks */
} workloads[] = {
	/*                create app wri tru unl ren lnk xat */
	{ "smallfiles", { 6,   1,  1,  0,  3,  0,  0,  0 }, 1 << S_FSYNC, false, false },
	{ "applog",     { 1,  10,  0,  0,  0,  0,  0,  0 }, 1 << S_FDATASYNC, false, false },
	{ "dsync",      { 1,   6,  3,  0,  0,  0,  0,  0 },
	  1 << S_DSYNC | 1 << S_SYNC | 1 << S_DIO, false, false },
	{ "dirsync",    { 4,   0,  0,  0,  3,  4,  2,  0 }, 1 << S_FSYNC, true, false },
	{ "xattr",      { 1,   0,  1,  0,  0,  0,  0,  5 }, 1 << S_FSYNC, false, false },
	{ "truncate",   { 1,   2,  1,  5,  0,  0,  0,  0 },
	  1 << S_FSYNC | 1 << S_FDATASYNC, false, false },
	/*
	 * unlinked files' blocks (indirect ones among them) taken at once by
	 * new files that fsync, while the old inodes are still on disk
	 */
	{ "reuse",      { 5,   1,  0,  0,  4,  0,  0,  0 }, 1 << S_FSYNC, false, true },
	{ "mixed",      { 3,   3,  2,  2,  2,  2,  1,  1 }, (1 << NSYNCS) - 1, false, false },
};

struct op {
	enum kind kind;
	enum sync sync;
	int name, name2, file;
	uint32_t off, len;	/* data range; len is the new size for trunc */
};

struct mfile {
	bool used;
	uint32_t size, xattr;	/* xattr: 0 none, else the op that set it */
	uint64_t ino;		/* 0: not known */
	uint8_t *data;		/* MAXLEN bytes, zero past size */
};

struct model {
	int name[NNAMES];	/* file or -1 */
	struct mfile f[NFILES];
};

static const struct workload *wl;
static uint64_t seed = 1, rng;
static int nops = 100;
static uint64_t *op_ino;	/* check: the inode operation N created */

static void __attribute__((noreturn, format(printf, 2, 3)))
die(int code, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "powercut: ");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	if (code == 3)
		fprintf(stderr, ": %s", strerror(errno));
	fputc('\n', stderr);
	exit(code);
}

static uint64_t mix64(uint64_t z)
{
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static uint64_t rnd(uint64_t n)
{
	rng += 0x9e3779b97f4a7c15ULL;
	return n ? mix64(rng) % n : 0;
}

/* the byte operation @opno wrote at @off: never zero */
static uint8_t pattern(int opno, uint32_t off)
{
	uint64_t h = mix64(seed ^ ((uint64_t)opno << 40) ^ (off >> 3));

	return (uint8_t)(h >> ((off & 7) * 8)) | 1;
}

static void name_path(int n, char *buf, size_t len)
{
	snprintf(buf, len, "d%d/n%02d", n % NDIRS, n);
}

static void dir_path(int n, char *buf, size_t len)
{
	snprintf(buf, len, "d%d", n % NDIRS);
}

static void model_init(struct model *m)
{
	memset(m, 0, sizeof(*m));
	for (int i = 0; i < NNAMES; i++)
		m->name[i] = -1;
	for (int i = 0; i < NFILES; i++) {
		m->f[i].data = calloc(1, MAXLEN);
		if (!m->f[i].data)
			die(3, "calloc");
	}
}

static int pick_name(const struct model *m, bool used)
{
	int n = 0, slots[NNAMES];

	for (int i = 0; i < NNAMES; i++)
		if ((m->name[i] >= 0) == used)
			slots[n++] = i;
	return n ? slots[rnd(n)] : -1;
}

static int free_file(const struct model *m)
{
	for (int i = 0; i < NFILES; i++)
		if (!m->f[i].used)
			return i;
	return -1;
}

static uint32_t pick_len(void)
{
	if (wl->large)
		return 16 * 1024 + rnd(MAXLEN / 2);
	/* mostly small, sometimes past the direct blocks, rarely large */
	switch (rnd(8)) {
	case 0: return rnd(64 * 1024);
	case 1: return rnd(MAXLEN / 2);
	default: return rnd(6000);
	}
}

/*
 * The next operation for model @m, drawn from the workload's mix; kinds that
 * do not fit the model's state (no file to append to, no free name) are
 * drawn again.
 */
static struct op next_op(const struct model *m)
{
	int total = 0, r;
	struct op op = { .name = -1, .name2 = -1, .file = -1 };

	for (int k = 0; k < NKINDS; k++)
		total += wl->weight[k];
	for (;;) {
		/* nothing of a rejected draw may stay */
		op = (struct op){ .name = -1, .name2 = -1, .file = -1 };
		r = rnd(total);
		for (op.kind = 0; r >= wl->weight[op.kind]; op.kind++)
			r -= wl->weight[op.kind];
		do
			op.sync = rnd(NSYNCS);
		while (!(wl->syncs & 1u << op.sync));
		switch (op.kind) {
		case K_CREATE:
			op.name = pick_name(m, false);
			op.file = free_file(m);
			if (op.name < 0 || op.file < 0)
				continue;
			/* DIRSYNC alone makes an empty new file durable */
			op.len = wl->dirsync && rnd(2) ? 0 : pick_len();
			break;
		case K_LINK:
			op.name2 = pick_name(m, false);
			/* fall through */
		case K_APPEND: case K_WRITE: case K_TRUNC: case K_UNLINK:
		case K_XATTR: case K_RENAME:
			op.name = pick_name(m, true);
			if (op.name < 0 || (op.kind == K_LINK && op.name2 < 0))
				continue;
			op.file = m->name[op.name];
			break;
		default:
			continue;
		}
		const struct mfile *f = &m->f[op.file];

		switch (op.kind) {
		case K_APPEND:
			op.off = f->size;
			op.len = pick_len();
			break;
		case K_WRITE:
			op.off = rnd(f->size + 1);
			op.len = pick_len();
			break;
		case K_TRUNC:
			op.len = rnd(2) ? rnd(f->size + 1) : rnd(MAXLEN / 2);
			break;
		case K_RENAME:
			/* to any other name, replacing what it holds, but not
			 * a link of the same file (rename would do nothing) */
			op.name2 = rnd(NNAMES);
			if (m->name[op.name2] == op.file)
				continue;
			break;
		default:
			break;
		}
		if (op.kind == K_CREATE || op.kind == K_APPEND || op.kind == K_WRITE) {
			if (op.sync == S_DIO) {
				/* aligned, or O_DSYNC through the page cache */
				if (op.off % 4096)
					op.sync = S_DSYNC;
				else
					op.len = (op.len + 4095) & ~4095u;
			}
			if (op.off + op.len > MAXLEN)
				op.len = MAXLEN - op.off;
			if (op.sync == S_DIO && op.len % 4096)
				op.sync = S_DSYNC;
		}
		return op;
	}
}

static void put_name(struct model *m, int name, int file)
{
	int old = m->name[name];

	m->name[name] = file;
	if (old < 0 || old == file)
		return;
	for (int i = 0; i < NNAMES; i++)
		if (m->name[i] == old)
			return;
	/* the last name of a file: it is freed */
	m->f[old].used = false;
	m->f[old].size = 0;
	m->f[old].xattr = 0;
	m->f[old].ino = 0;
	memset(m->f[old].data, 0, MAXLEN);
}

static void apply(struct model *m, const struct op *op, int opno)
{
	struct mfile *f = op->file >= 0 ? &m->f[op->file] : NULL;

	switch (op->kind) {
	case K_CREATE:
		f->used = true;
		f->ino = op_ino ? op_ino[opno] : 0;
		put_name(m, op->name, op->file);
		/* fall through */
	case K_APPEND: case K_WRITE:
		for (uint32_t i = 0; i < op->len; i++)
			f->data[op->off + i] = pattern(opno, op->off + i);
		if (op->off + op->len > f->size)
			f->size = op->off + op->len;
		break;
	case K_TRUNC:
		if (op->len < f->size)
			memset(f->data + op->len, 0, f->size - op->len);
		f->size = op->len;
		break;
	case K_UNLINK:
		put_name(m, op->name, -1);
		break;
	case K_RENAME:
		put_name(m, op->name2, op->file);
		put_name(m, op->name, -1);
		break;
	case K_LINK:
		put_name(m, op->name2, op->file);
		break;
	case K_XATTR:
		f->xattr = opno;
		break;
	default:
		break;
	}
}

static void xattr_value(int opno, char *buf, size_t len)
{
	/* lengths vary so the xattr block's layout changes */
	snprintf(buf, len, "op%d-%.*s", opno, (int)(opno * 7 % 90),
		 "0123456789abcdefghijklmnopqrstuvwxyz0123456789abcdefghijklmno"
		 "pqrstuvwxyz0123456789abcdefghijklmnopqrstuvwxyz");
}

/* ---- run ---------------------------------------------------------------- */

static int control = -1;
static const char *dmname;

/*
 * A dm-log-writes mark, so the log shows where operation @opno was acked,
 * and which inode it created (@ino, or 0). The target takes one word.
 */
static void mark(int opno, uint64_t ino)
{
	union {
		struct dm_ioctl io;
		char buf[sizeof(struct dm_ioctl) + sizeof(struct dm_target_msg) + 64];
	} u;
	struct dm_target_msg *msg;

	if (!dmname)
		return;
	memset(&u, 0, sizeof(u));
	u.io.version[0] = DM_VERSION_MAJOR;
	u.io.data_size = sizeof(u);
	u.io.data_start = sizeof(struct dm_ioctl);
	snprintf(u.io.name, sizeof(u.io.name), "%s", dmname);
	msg = (struct dm_target_msg *)(u.buf + u.io.data_start);
	snprintf(msg->message, 64, "mark ack%d,ino%" PRIu64, opno, ino);
	if (ioctl(control, DM_TARGET_MSG, &u) < 0)
		die(3, "mark ack%d on %s", opno, dmname);
}

static void sync_dir(int name)
{
	char path[32];
	int fd;

	if (wl->dirsync)
		return;
	dir_path(name, path, sizeof(path));
	fd = open(path, O_RDONLY | O_DIRECTORY);
	if (fd < 0 || fsync(fd) < 0)
		die(3, "fsync %s", path);
	close(fd);
}

static void write_all(int fd, const uint8_t *buf, uint32_t len, uint32_t off,
		      const char *path)
{
	while (len) {
		ssize_t n = pwrite(fd, buf, len, off);

		if (n <= 0)
			die(3, "pwrite %s at %u", path, off);
		buf += n, off += n, len -= n;
	}
}

/* returns the inode a create made, else 0 */
static uint64_t do_op(const struct op *op, int opno, uint8_t *buf)
{
	static const int sync_flags[NSYNCS] = {
		0, 0, O_DSYNC, O_SYNC, O_DIRECT | O_DSYNC,
	};
	char path[32], path2[32], val[128];
	int fd = -1, flags = O_WRONLY | sync_flags[op->sync];
	uint64_t ino = 0;
	struct stat st;

	name_path(op->name, path, sizeof(path));
	if (op->name2 >= 0)
		name_path(op->name2, path2, sizeof(path2));
	switch (op->kind) {
	case K_CREATE:
		flags |= O_CREAT | O_EXCL;
		/* fall through */
	case K_APPEND: case K_WRITE: case K_TRUNC: case K_XATTR:
		fd = open(path, flags, 0644);
		if (fd < 0 || fstat(fd, &st) < 0)
			die(3, "open %s", path);
		if (op->kind == K_CREATE)
			ino = st.st_ino;
		break;
	default:
		break;
	}
	switch (op->kind) {
	case K_CREATE: case K_APPEND: case K_WRITE:
		for (uint32_t i = 0; i < op->len; i++)
			buf[i] = pattern(opno, op->off + i);
		write_all(fd, buf, op->len, op->off, path);
		break;
	case K_TRUNC:
		if (ftruncate(fd, op->len) < 0)
			die(3, "ftruncate %s to %u", path, op->len);
		break;
	case K_UNLINK:
		if (unlink(path) < 0)
			die(3, "unlink %s", path);
		break;
	case K_RENAME:
		if (rename(path, path2) < 0)
			die(3, "rename %s %s", path, path2);
		break;
	case K_LINK:
		if (link(path, path2) < 0)
			die(3, "link %s %s", path, path2);
		break;
	case K_XATTR:
		xattr_value(opno, val, sizeof(val));
		if (fsetxattr(fd, XATTR, val, strlen(val), 0) < 0)
			die(3, "setxattr %s", path);
		break;
	default:
		break;
	}
	if (fd >= 0) {
		/* O_DSYNC and O_SYNC writes are durable when they return,
		 * but not an xattr (fdatasync skips it too), a truncate or
		 * a new file that nothing was written to; in a DIRSYNC
		 * directory that one needs nothing more */
		bool empty = op->kind == K_CREATE && !op->len;
		bool full = op->kind == K_XATTR || (empty && !wl->dirsync) ||
			    (op->kind == K_TRUNC && op->sync != S_FDATASYNC);

		if (empty && wl->dirsync) {
			/* durable when creat() returned */
		} else if (full || op->sync == S_FSYNC) {
			if (fsync(fd) < 0)
				die(3, "fsync %s", path);
		} else if (op->sync == S_FDATASYNC || op->kind == K_TRUNC) {
			if (fdatasync(fd) < 0)
				die(3, "fdatasync %s", path);
		}
		close(fd);
	}
	switch (op->kind) {
	case K_CREATE: case K_UNLINK: case K_LINK:
		sync_dir(op->name2 >= 0 ? op->name2 : op->name);
		break;
	case K_RENAME:
		sync_dir(op->name2);
		if (op->name % NDIRS != op->name2 % NDIRS)
			sync_dir(op->name);
		break;
	default:
		break;
	}
	return ino;
}

static int run(const char *dir)
{
	struct model m;
	uint8_t *buf;
	char path[32];

	if (dmname) {
		control = open("/dev/mapper/control", O_RDWR);
		if (control < 0)
			die(3, "open /dev/mapper/control");
	}
	if (chdir(dir) < 0)
		die(3, "chdir %s", dir);
	if (posix_memalign((void **)&buf, 4096, MAXLEN))
		die(3, "posix_memalign");
	model_init(&m);
	/* the directories, durable before operation 1 */
	for (int d = 0; d < NDIRS; d++) {
		int fd, fl = FS_DIRSYNC_FL;

		dir_path(d, path, sizeof(path));
		if (mkdir(path, 0755) < 0)
			die(3, "mkdir %s", path);
		fd = open(path, O_RDONLY | O_DIRECTORY);
		if (fd < 0)
			die(3, "open %s", path);
		if (wl->dirsync && ioctl(fd, FS_IOC_SETFLAGS, &fl) < 0)
			die(3, "chattr +D %s", path);
		if (fsync(fd) < 0)
			die(3, "fsync %s", path);
		close(fd);
	}
	int fd = open(".", O_RDONLY | O_DIRECTORY);

	if (fd < 0 || fsync(fd) < 0)
		die(3, "fsync %s", dir);
	close(fd);
	mark(0, 0);
	rng = seed;
	for (int i = 1; i <= nops; i++) {
		struct op op = next_op(&m);
		uint64_t ino = do_op(&op, i, buf);

		apply(&m, &op, i);
		mark(i, ino);
	}
	printf("powercut: %s seed %" PRIu64 ": %d operations acknowledged\n",
	       wl->name, seed, nops);
	return 0;
}

/* ---- check -------------------------------------------------------------- */

/* dm-log-writes' on-disk format (drivers/md/dm-log-writes.c) */
#define LOG_MAGIC	0x6a736677736872ULL
#define LOG_FLUSH	(1 << 0)
#define LOG_FUA		(1 << 1)
#define LOG_DISCARD	(1 << 2)
#define LOG_MARK	(1 << 3)

struct log_super {
	uint64_t magic, version, nr_entries;
	uint32_t sectorsize;
} __attribute__((packed));

struct log_entry_disk {
	uint64_t sector, nr_sectors, flags, data_len;
};

struct entry {
	uint64_t sector, nr_sectors, flags, data;	/* data: offset in log */
	int ack;					/* for a mark, else -1 */
};

static struct entry *entries;
static uint64_t nentries, sectorsize;
static int logfd;

static void read_log(const char *path)
{
	struct log_super super;
	struct log_entry_disk e;
	char buf[4096];
	uint64_t pos;

	logfd = open(path, O_RDONLY);
	if (logfd < 0)
		die(3, "open %s", path);
	if (pread(logfd, &super, sizeof(super), 0) != sizeof(super))
		die(3, "read the log's super block");
	if (super.magic != LOG_MAGIC || super.version != 1)
		die(2, "%s: not a dm-log-writes log", path);
	sectorsize = super.sectorsize;
	nentries = super.nr_entries;
	if (sectorsize < 512 || sectorsize > sizeof(buf))
		die(2, "%s: sector size %" PRIu64, path, sectorsize);
	entries = calloc(nentries, sizeof(*entries));
	op_ino = calloc(nops + 1, sizeof(*op_ino));
	if (!entries || !op_ino)
		die(3, "calloc");
	pos = sectorsize;
	for (uint64_t i = 0; i < nentries; i++) {
		struct entry *en = &entries[i];

		if (pread(logfd, buf, sectorsize, pos) != (ssize_t)sectorsize)
			die(3, "read log entry %" PRIu64, i);
		memcpy(&e, buf, sizeof(e));
		en->sector = e.sector;
		en->nr_sectors = e.nr_sectors;
		en->flags = e.flags;
		en->data = pos + sectorsize;
		en->ack = -1;
		pos += sectorsize;
		if (en->flags & LOG_MARK) {
			buf[sizeof(buf) - 1] = 0;
			if (e.data_len < sectorsize - sizeof(e))
				buf[sizeof(e) + e.data_len] = 0;
			const char *text = buf + sizeof(e);
			uint64_t ino = 0;

			/* the target marks its own end; every other mark is ours */
			if (strcmp(text, "dm-log-writes-end") &&
			    sscanf(text, "ack%d,ino%" SCNu64, &en->ack, &ino) != 2)
				die(2, "log entry %" PRIu64 ": mark '%s' is not ackN,inoN",
				    i, text);
			if (en->ack >= 0 && en->ack <= nops)
				op_ino[en->ack] = ino;
		} else if (e.data_len) {
			die(2, "log entry %" PRIu64 ": inline data", i);
		} else if (!(en->flags & LOG_DISCARD)) {
			pos += en->nr_sectors * sectorsize;
		}
	}
}

static uint8_t *image;
static uint64_t image_size;

/* apply log entry @i to the image */
static void replay(uint64_t i)
{
	const struct entry *en = &entries[i];
	uint64_t off = en->sector * sectorsize, len = en->nr_sectors * sectorsize;

	if (en->flags & LOG_MARK || !len)
		return;
	if (off + len > image_size)
		die(2, "log entry %" PRIu64 " writes past the image", i);
	if (en->flags & LOG_DISCARD)
		memset(image + off, 0, len);
	else if (pread(logfd, image + off, len, en->data) != (ssize_t)len)
		die(3, "read log entry %" PRIu64 "'s data", i);
}

static const char *fstype = "ext2", *dev, *mnt, *savedir;
static long stale;

static int sh(const char *const argv[], const char *log)
{
	int status;
	pid_t pid = fork();

	if (pid < 0)
		die(3, "fork");
	if (!pid) {
		int fd = open(log, O_WRONLY | O_CREAT | O_APPEND, 0644);

		if (fd >= 0) {
			dup2(fd, 1);
			dup2(fd, 2);
		}
		execvp(argv[0], (char *const *)argv);
		_exit(127);
	}
	if (waitpid(pid, &status, 0) < 0)
		die(3, "waitpid");
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128;
}

static char why[512];

static bool failf(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why, sizeof(why), fmt, ap);
	va_end(ap);
	return false;
}

/*
 * Does the open file @fd hold file @fi as @cur (acknowledged) has it, or as
 * @nxt (the operation in flight, @op) may have left it?
 */
static bool check_file(int fd, const char *path, const struct model *cur,
		       const struct model *nxt, int fi, const struct op *op)
{
	const struct mfile *a = &cur->f[fi], *b = &nxt->f[fi];
	/* only these change a file's bytes or size */
	bool inflight = op && op->file == fi &&
			(op->kind == K_CREATE || op->kind == K_APPEND ||
			 op->kind == K_WRITE || op->kind == K_TRUNC);
	uint32_t lo = 0, hi = 0;

	/* a file the operation in flight frees is whole or gone, never empty */
	if (!b->used)
		b = a;
	static uint8_t buf[MAXLEN + 1];
	char val[128], want[128];
	struct stat st;
	ssize_t n;

	if (fstat(fd, &st) < 0)
		die(3, "fstat %s", path);
	if (!S_ISREG(st.st_mode))
		return failf("%s is not a regular file", path);
	/* e2fsck -fy extends i_size over blocks the operation in flight
	 * had allocated (up to a 4 KiB block) */
	if (st.st_size != a->size && st.st_size != b->size &&
	    !(inflight && st.st_size >= (a->size < b->size ? a->size : b->size) &&
	      st.st_size <= (((a->size > b->size ? a->size : b->size) + 4095) & ~4095u)))
		return failf("%s: size %lld, acknowledged %u%s", path,
			     (long long)st.st_size, a->size,
			     a->size != b->size ? " (in flight: other)" : "");
	/* what the operation in flight may have half done */
	if (inflight && op->kind == K_TRUNC)
		lo = a->size < b->size ? a->size : b->size, hi = MAXLEN;
	else if (inflight)
		lo = op->off, hi = op->off + op->len;
	n = pread(fd, buf, sizeof(buf), 0);
	if (n != st.st_size)
		return failf("%s: read %zd of %lld bytes", path, n,
			     (long long)st.st_size);
	for (uint32_t p = 0; p < n; p++) {
		if ((p < a->size && buf[p] == a->data[p]) ||
		    (p < b->size && buf[p] == b->data[p]))
			continue;
		/* bytes the operation in flight was writing, or past the
		 * acknowledged size: new, old, unwritten (zero) or stale */
		if (inflight && (p >= a->size || (p >= lo && p < hi))) {
			if (buf[p])
				stale++;
			continue;
		}
		if (!buf[p] && p >= a->size && p >= b->size)
			continue;
		return failf("%s: byte %u is %#x, acknowledged %#x", path, p,
			     buf[p], p < a->size ? a->data[p] : 0);
	}
	n = fgetxattr(fd, XATTR, val, sizeof(val) - 1);
	if (n < 0 && errno != ENODATA)
		return failf("%s: getxattr: %s", path, strerror(errno));
	val[n < 0 ? 0 : n] = 0;
	for (const struct mfile *m = a;; m = b) {
		want[0] = 0;
		if (m->xattr)
			xattr_value(m->xattr, want, sizeof(want));
		if ((n < 0 && !m->xattr) || (n >= 0 && !strcmp(val, want)))
			return true;
		if (m == b)
			break;
	}
	return failf("%s: xattr \"%s\", acknowledged op%u", path, val, a->xattr);
}

/* the mounted image against the model: @cur acked, @nxt with @op in flight */
static bool check_tree(const struct model *cur, const struct model *nxt,
		       const struct op *op)
{
	bool seen[NFILES] = { false };
	char path[32];
	struct stat st;

	for (int i = 0; i < NNAMES; i++) {
		int a = cur->name[i], b = nxt->name[i], fd;
		bool ok = false;

		name_path(i, path, sizeof(path));
		fd = open(path, O_RDONLY | O_NOFOLLOW);
		if (fd < 0) {
			if (errno != ENOENT)
				return failf("open %s: %s", path, strerror(errno));
			if (a >= 0 && b >= 0)
				return failf("%s is missing (acknowledged)", path);
			continue;
		}
		if (a < 0 && b < 0) {
			close(fd);
			return failf("%s exists (its removal was acknowledged)", path);
		}
		if (b == a)
			b = -1;
		/* the name holds one of the files it may hold: which one, its
		 * inode number says */
		uint64_t ia = a >= 0 ? cur->f[a].ino : 0;
		uint64_t ib = b >= 0 ? nxt->f[b].ino : 0;

		if (fstat(fd, &st) < 0)
			die(3, "fstat %s", path);
		if (ia && st.st_ino == ia)
			b = -1;
		else if (ib && st.st_ino == ib)
			a = -1;
		else if ((a < 0 || ia) && (b < 0 || ib)) {
			close(fd);
			if (b < 0)
				return failf("%s is inode %" PRIu64 ", acknowledged %" PRIu64,
					     path, (uint64_t)st.st_ino, ia);
			if (a < 0)
				return failf("%s is inode %" PRIu64 ", created in flight as %"
					     PRIu64, path, (uint64_t)st.st_ino, ib);
			return failf("%s is inode %" PRIu64 ", not %" PRIu64
				     " (acknowledged) or %" PRIu64 " (in flight)",
				     path, (uint64_t)st.st_ino, ia, ib);
		}
		/*
		 * Where inode numbers are not known, files with the same
		 * contents (two empty ones) cannot be told apart: a name that
		 * matches both counts for both, or a rename in flight onto an
		 * identical file would seem to lose the file it moved.
		 */
		if (a >= 0)
			ok = seen[a] = check_file(fd, path, cur, nxt, a, op);
		if (b >= 0) {
			long stale0 = stale;
			bool okb = check_file(fd, path, cur, nxt, b, op);

			if (ok)		/* counted once, by a's check */
				stale = stale0;
			if (okb)	/* another name may have seen it */
				seen[b] = true;
			ok = ok || okb;
		}
		/* a name created in flight may point at an inode not yet
		 * written: whatever was there before, counted as stale */
		if (!ok && a < 0 && op && op->kind == K_CREATE && op->name == i) {
			stale++;
			ok = true;
		}
		close(fd);
		if (!ok)
			return false;
	}
	/*
	 * A DIRSYNC rename writes the new entry before it removes the old
	 * one: the file it moves has one of its names at any point.
	 */
	if (wl->dirsync && op && op->kind == K_RENAME && !seen[op->file])
		return failf("file %d, renamed in flight from n%d to n%d, has neither name",
			     op->file, op->name, op->name2);
	for (int d = 0; d < NDIRS; d++) {
		struct dirent *de;
		DIR *dir;

		dir_path(d, path, sizeof(path));
		dir = opendir(path);
		if (!dir)
			return failf("opendir %s: %s", path, strerror(errno));
		while ((de = readdir(dir))) {
			int n;

			if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
				continue;
			if (sscanf(de->d_name, "n%d", &n) != 1 || n < 0 ||
			    n >= NNAMES || n % NDIRS != d) {
				closedir(dir);
				return failf("%s/%s: a name never created", path,
					     de->d_name);
			}
		}
		closedir(dir);
	}
	return true;
}

static void save_image(uint64_t point)
{
	char path[512];
	int fd;

	if (!savedir)
		return;
	snprintf(path, sizeof(path), "%s/powercut-%s-%" PRIu64 "-%" PRIu64 ".img",
		 savedir, wl->name, seed, point);
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (fd < 0 || pwrite(fd, image, image_size, 0) != (ssize_t)image_size)
		die(3, "save %s", path);
	close(fd);
	printf("    image saved: %s\n", path);
}

static const char *fsck_log = "/tmp/powercut-e2fsck.log";

/* e2fsck's output for the first failing point, next to its image */
static void save_fsck_log(void)
{
	char cmd[1024];

	if (!savedir)
		return;
	snprintf(cmd, sizeof(cmd), "cp %s %s/powercut-%s-%" PRIu64 "-e2fsck.log",
		 fsck_log, savedir, wl->name, seed);
	if (system(cmd))
		fprintf(stderr, "powercut: could not keep %s\n", fsck_log);
}

static long fsck_twice;

/* did e2fsck -fy clone blocks that two inodes claimed (pass 1D)? */
static bool fsck_cloned(const char *log)
{
	char line[256];
	bool found = false;
	FILE *f = fopen(log, "r");

	if (!f)
		return false;
	/* -fn answers "no": only a repair says "yes" */
	while (!found && fgets(line, sizeof(line), f))
		found = strstr(line, "Clone multiply-claimed blocks? yes") != NULL;
	fclose(f);
	return found;
}

/* the image of a crash point: @acked operations were acknowledged */
static bool check_point(int acked, const struct model *cur,
			const struct model *nxt, const struct op *op)
{
	const char *fsck_y[] = { "e2fsck", "-fy", dev, NULL };
	const char *fsck_n[] = { "e2fsck", "-fn", dev, NULL };
	const char *log = fsck_log;
	int fd, rc;
	bool ok;

	fd = open(dev, O_WRONLY);
	if (fd < 0 || pwrite(fd, image, image_size, 0) != (ssize_t)image_size ||
	    fsync(fd) < 0)
		die(3, "write the image to %s", dev);
	close(fd);
	unlink(log);
	rc = sh(fsck_y, log);
	if (rc & ~3)
		return failf("e2fsck -fy exited %d (see %s)", rc, log);
	/* exit 0: it changed nothing, so a second look finds what it found */
	if (rc)
		rc = sh(fsck_n, log);
	/*
	 * e2fsck 1.47.0 leaves the original of a block it cloned for an
	 * xattr block marked in use (a clean image, two inodes claiming one
	 * block, reproduces it without a kernel). One more -fy frees it; the
	 * point is counted, and -fn must then be clean.
	 */
	if (rc == 4 && fsck_cloned(log)) {
		fsck_twice++;
		rc = sh(fsck_y, log);
		if (!(rc & ~3))
			rc = sh(fsck_n, log);
	}
	if (rc)
		return failf("e2fsck -fn after -fy exited %d (see %s)", rc, log);
	if (mount(dev, mnt, fstype, MS_RDONLY, NULL) < 0)
		return failf("mount: %s", strerror(errno));
	if (chdir(mnt) < 0)
		die(3, "chdir %s", mnt);
	/* before the directories were acknowledged there is only e2fsck */
	ok = acked < 0 || check_tree(cur, nxt, op);
	if (chdir("/") < 0 || umount(mnt) < 0)
		die(3, "umount %s", mnt);
	return ok;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* Copy up to @room of the @n points in @src to @dst, evenly spread. */
static uint64_t spread(uint64_t *dst, const uint64_t *src, uint64_t n,
		       uint64_t room)
{
	uint64_t off;

	if (room >= n) {
		memcpy(dst, src, n * sizeof(*src));
		return n;
	}
	off = rnd(n);
	for (uint64_t j = 0; j < room; j++)
		dst[j] = src[(j * n + off) / room];
	return room;
}

static int check(const char *base, const char *logdev, long maxpoints,
		 long nrandom, uint64_t pseed)
{
	struct model cur, nxt;
	struct op op = { 0 };
	uint64_t *points, npoints = 0, applied = 0, failures = 0, flushes = 0;
	uint64_t stale_points = 0;
	int acked = -1, fd;
	struct stat st;

	read_log(logdev);
	fd = open(base, O_RDONLY);
	if (fd < 0 || fstat(fd, &st) < 0)
		die(3, "open %s", base);
	image_size = st.st_size;
	image = malloc(image_size);
	if (!image || pread(fd, image, image_size, 0) != (ssize_t)image_size)
		die(3, "read %s", base);
	close(fd);

	/* a log that stopped early (log device full, write error) would
	 * leave the rest of the run unchecked */
	int last_ack = -1;

	for (uint64_t i = 0; i < nentries; i++)
		if (entries[i].ack > last_ack)
			last_ack = entries[i].ack;
	if (last_ack != nops)
		die(2, "%s: the log ends at ack%d of %d operations", logdev,
		    last_ack, nops);

	/*
	 * The crash points: after each mark (all it acknowledged must be
	 * there; a write its sync did not flush is logged only with the next
	 * flush, so only this point misses it), before each flush and after
	 * each FUA write, random ones (mostly inside a flush's group of
	 * writes: half-written states), and the end.
	 */
	uint64_t *marks, *flushpts, nmarks = 0, nflushpts = 0;

	points = calloc(nentries * 2 + nrandom + 1, sizeof(*points));
	marks = calloc(nentries + 1, sizeof(*marks));
	flushpts = calloc(nentries * 2 + 1, sizeof(*flushpts));
	if (!points || !marks || !flushpts)
		die(3, "calloc");
	for (uint64_t i = 0; i < nentries; i++) {
		if (entries[i].flags & LOG_FLUSH)
			flushpts[nflushpts++] = i, flushes++;
		if (entries[i].flags & LOG_FUA)
			flushpts[nflushpts++] = i + 1;
		if (entries[i].flags & LOG_MARK)
			marks[nmarks++] = i + 1;
	}
	rng = pseed;
	for (long i = 0; i < nrandom; i++)
		points[npoints++] = rnd(nentries + 1);
	points[npoints++] = nentries;
	/*
	 * -p keeps at most @maxpoints: the random ones and the end, then
	 * marks, then flush and FUA points, each kind evenly spread from an
	 * offset the seed picks, so runs with other seeds check other ones.
	 */
	uint64_t room = maxpoints > 0 ? (uint64_t)maxpoints : UINT64_MAX;

	room = room > npoints ? room - npoints : 0;
	npoints += spread(points + npoints, marks, nmarks, room);
	room = room > nmarks ? room - nmarks : 0;
	npoints += spread(points + npoints, flushpts, nflushpts, room);
	free(marks);
	free(flushpts);
	qsort(points, npoints, sizeof(*points), cmp_u64);
	uint64_t n = 0;

	for (uint64_t i = 0; i < npoints; i++)
		if (!n || points[i] != points[n - 1])
			points[n++] = points[i];
	printf("powercut: %s seed %" PRIu64 ": %" PRIu64 " log entries, %" PRIu64
	       " flushes, checking %" PRIu64 " crash points\n",
	       wl->name, seed, nentries, flushes, n);

	model_init(&cur);
	model_init(&nxt);
	rng = seed;
	for (uint64_t i = 0; i < n; i++) {
		uint64_t p = points[i];

		for (; applied < p; applied++) {
			replay(applied);
			if (entries[applied].ack <= acked)
				continue;
			/* operations up to this mark were acknowledged:
			 * @cur is the state after @acked of them, @nxt one
			 * more, @op the one that may be in flight */
			while (acked < entries[applied].ack) {
				acked++;
				if (acked >= 1)
					apply(&cur, &op, acked);
				if (acked < nops) {
					op = next_op(&nxt);
					apply(&nxt, &op, acked + 1);
				}
			}
		}
		long stale0 = stale;
		bool ok = check_point(acked, &cur, &nxt,
				      acked >= 0 && acked < nops ? &op : NULL);

		if (stale > stale0)
			stale_points++;
		if (!ok) {
			failures++;
			bool busy = acked >= 0 && acked < nops;

			printf("  FAIL point %" PRIu64 " of %" PRIu64 " log entries, "
			       "op%d acknowledged, op%d %s%s%s in flight: %s\n",
			       p, nentries, acked, acked + 1,
			       busy ? kind_names[op.kind] : "-",
			       busy ? " with " : "", busy ? sync_names[op.sync] : "",
			       why);
			if (failures == 1) {
				save_image(p);
				save_fsck_log();
			}
		}
	}
	printf("powercut: %s seed %" PRIu64 ": %" PRIu64 " points, %" PRIu64
	       " failed, %" PRIu64 " with stale bytes in flight (%ld bytes),"
	       " %ld needed e2fsck -fy twice\n",
	       wl->name, seed, n, failures, stale_points, stale, fsck_twice);
	return failures ? 1 : 0;
}

/* the tree a finished run left in @dir against the model */
static int verify(const char *dir)
{
	struct model m;

	model_init(&m);
	rng = seed;
	for (int i = 1; i <= nops; i++) {
		struct op op = next_op(&m);

		apply(&m, &op, i);
	}
	if (chdir(dir) < 0)
		die(3, "chdir %s", dir);
	if (!check_tree(&m, &m, NULL)) {
		printf("powercut: %s seed %" PRIu64 ": %s\n", wl->name, seed, why);
		return 1;
	}
	return 0;
}

static void usage(void)
{
	fprintf(stderr,
		"usage: powercut run    -w WORKLOAD [-S SEED] [-n OPS] [-m DMNAME] DIR\n"
		"       powercut verify -w WORKLOAD [-S SEED] [-n OPS] DIR\n"
		"       powercut check -w WORKLOAD [-S SEED] [-n OPS] -b BASE -l LOG -t DEV -d MNT\n"
		"                      [-T FSTYPE] [-p POINTS] [-r RANDOM] [-o SAVEDIR]\n"
		"workloads:");
	for (size_t i = 0; i < sizeof(workloads) / sizeof(workloads[0]); i++)
		fprintf(stderr, " %s", workloads[i].name);
	fputc('\n', stderr);
	exit(2);
}

int main(int argc, char **argv)
{
	const char *base = NULL, *logdev = NULL;
	long maxpoints = 0, nrandom = 0;
	int c;

	if (argc < 2)
		usage();
	optind = 2;
	while ((c = getopt(argc, argv, "w:S:n:m:b:l:t:d:T:p:r:o:")) != -1) {
		switch (c) {
		case 'w':
			for (size_t i = 0; i < sizeof(workloads) / sizeof(workloads[0]); i++)
				if (!strcmp(optarg, workloads[i].name))
					wl = &workloads[i];
			if (!wl)
				usage();
			break;
		case 'S': seed = strtoull(optarg, NULL, 0); break;
		case 'n': nops = atoi(optarg); break;
		case 'm': dmname = optarg; break;
		case 'b': base = optarg; break;
		case 'l': logdev = optarg; break;
		case 't': dev = optarg; break;
		case 'd': mnt = optarg; break;
		case 'T': fstype = optarg; break;
		case 'p': maxpoints = atol(optarg); break;
		case 'r': nrandom = atol(optarg); break;
		case 'o': savedir = optarg; break;
		default: usage();
		}
	}
	if (!wl || nops < 1 || maxpoints < 0 || nrandom < 0)
		usage();
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (!strcmp(argv[1], "run") && optind == argc - 1)
		return run(argv[optind]);
	if (!strcmp(argv[1], "verify") && optind == argc - 1)
		return verify(argv[optind]);
	if (!strcmp(argv[1], "check") && optind == argc && base && logdev &&
	    dev && mnt)
		return check(base, logdev, maxpoints, nrandom, seed ^ 0x5eed);
	usage();
}
