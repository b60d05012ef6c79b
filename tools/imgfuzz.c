/*
 * imgfuzz - corrupt ext2 images with structure and run a workload on each.
 *
 *   imgfuzz corrupt -S SEED BASE OUT      write one corrupted image
 *   imgfuzz work DIR                      the workload, on a mounted tree
 *   imgfuzz run -b BASE -t DEV -d MNT [-T FSTYPE] [-M MODULE] [-s FIRST]
 *               [-n COUNT] [-K REGEX] [-o SAVEDIR] [-R] [-l SECS]
 *
 * corrupt: the seed picks one to three changes, each to a structure found by
 * parsing BASE: a superblock or group descriptor field, a bit in a bitmap,
 * a field of an inode in use (mode, size, links, block pointers, flags,
 * i_file_acl), a directory entry (inode, rec_len, name_len, file type), an
 * entry of an indirect block, an xattr block header or entry, bytes of a
 * metadata block, or bits anywhere in the used part of the image. The values
 * are the ones that break code: 0, 1, all ones, off by one, just past the
 * end, another metadata block, the structure itself.
 *
 * work: walk the tree (stat, read, seek, readlink, xattrs, a lookup that
 * misses in each directory), then write,
 * truncate, create, rename, link, symlink, mkdir, rmdir, unlink, setxattr,
 * mmap-write and O_DIRECT-write through it, and syncfs. Any call may fail;
 * the errno of each failure is counted.
 *
 * run: for each seed FIRST..FIRST+COUNT-1 (-R: BASE as it is, once), write
 * the corrupted image to DEV, mount it (errors=continue, so an error does
 * not panic or stop the workload), check that MODULE serves the mount, run
 * the workload in a child with a limit of SECS (default 60), unmount, and
 * read the kernel log since the image: a line matching REGEX fails the
 * image. A failed image is saved to SAVEDIR. A workload that does not die
 * when killed ends the run at once.
 *
 * Exit codes: 0 no image failed, 1 an image failed, 2 usage, 3 system call error.
 */
#include <dirent.h>
#include <err.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <linux/fs.h>
#include <regex.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <sys/xattr.h>
#include <time.h>
#include <unistd.h>

static void usage(void)
{
	fprintf(stderr, "usage: imgfuzz corrupt -S SEED BASE OUT\n"
		"       imgfuzz work DIR\n"
		"       imgfuzz run -b BASE -t DEV -d MNT [-T FSTYPE] [-M MODULE] [-s FIRST]\n"
		"                   [-n COUNT] [-K REGEX] [-o SAVEDIR] [-R] [-l SECS]\n");
	exit(2);
}

/* ---- the image ---- */

static uint8_t *img;
static size_t img_size;
static uint32_t bsize, nblocks, ninodes, ngroups, ipg, bpg, isize, first_data, first_ino;

static uint32_t get(size_t off, int width)
{
	uint32_t v = 0;

	if (off + width > img_size)
		return 0;
	memcpy(&v, img + off, width);	/* little-endian host */
	return v;
}

static void put(size_t off, int width, uint32_t v)
{
	if (off + width <= img_size)
		memcpy(img + off, &v, width);
}

static void load(const char *path)
{
	struct stat st;
	int fd = open(path, O_RDONLY);

	if (fd < 0 || fstat(fd, &st))
		err(3, "%s", path);
	img_size = st.st_size;
	if (posix_memalign((void **)&img, 4096, (img_size + 4095) & ~4095UL))
		err(3, "memory");
	if (pread(fd, img, img_size, 0) != (ssize_t)img_size)
		err(3, "read %s", path);
	close(fd);
}

/* the geometry of BASE, which is a valid image */
static void geometry(void)
{
	if (img_size < 2048 || get(1024 + 56, 2) != 0xef53) {
		fprintf(stderr, "imgfuzz: the base image is not ext2\n");
		exit(2);
	}
	if (get(1024 + 24, 4) > 6) {
		fprintf(stderr, "imgfuzz: the base image's block size is not valid\n");
		exit(2);
	}
	bsize = 1024U << get(1024 + 24, 4);
	ninodes = get(1024, 4);
	nblocks = get(1024 + 4, 4);
	first_data = get(1024 + 20, 4);
	bpg = get(1024 + 32, 4);
	ipg = get(1024 + 40, 4);
	isize = get(1024 + 76, 4) ? get(1024 + 88, 2) : 128;
	first_ino = get(1024 + 76, 4) ? get(1024 + 84, 4) : 11;
	if (!bpg || !ipg || first_data >= nblocks || isize < 128 || isize > bsize ||
	    (isize & (isize - 1))) {
		fprintf(stderr, "imgfuzz: the base image's geometry is not valid ext2\n");
		exit(2);
	}
	ngroups = (nblocks - first_data + bpg - 1) / bpg;
	if ((size_t)nblocks * bsize > img_size) {
		fprintf(stderr, "imgfuzz: the base image is shorter than its filesystem\n");
		exit(2);
	}
}

static size_t gd_off(uint32_t g)
{
	return (size_t)(first_data + 1) * bsize + g * 32;
}

static size_t inode_off(uint32_t ino)
{
	uint32_t g = (ino - 1) / ipg;

	return (size_t)get(gd_off(g) + 8, 4) * bsize + (size_t)((ino - 1) % ipg) * isize;
}

/* ---- what the image holds, found by walking it ---- */

enum { B_DIR, B_IND, B_XATTR, B_DATA };
#define MAXREC 4096
static struct { uint32_t blk; int kind; } blks[MAXREC];
static uint32_t inos[MAXREC];
static int nblks, ninos;

static void note_block(uint32_t blk, int kind)
{
	if (nblks < MAXREC && blk >= first_data && blk < nblocks)
		blks[nblks++] = (typeof(blks[0])){ blk, kind };
}

static void walk_ind(uint32_t blk, int depth, int kind)
{
	uint32_t i;

	if (!blk || blk >= nblocks)
		return;
	if (!depth) {
		note_block(blk, kind);
		return;
	}
	note_block(blk, B_IND);
	for (i = 0; i < bsize / 4; i++)
		walk_ind(get((size_t)blk * bsize + i * 4, 4), depth - 1, kind);
}

static void survey(void)
{
	uint32_t ino, i;

	for (ino = 1; ino <= ninodes && ninos < MAXREC; ino++) {
		size_t o = inode_off(ino);
		uint16_t mode = get(o, 2);
		int kind = S_ISDIR(mode) ? B_DIR : B_DATA;

		/* the kernel uses no reserved inode but the root */
		if ((ino < first_ino && ino != 2) || !get(o + 26, 2) || !mode)
			continue;
		inos[ninos++] = ino;
		if (get(o + 104, 4))
			note_block(get(o + 104, 4), B_XATTR);
		/* a fast symlink keeps its target in i_block */
		if (S_ISLNK(mode) && get(o + 4, 4) < 60)
			continue;
		for (i = 0; i < 12; i++)
			walk_ind(get(o + 40 + i * 4, 4), 0, kind);
		for (i = 0; i < 3; i++)
			walk_ind(get(o + 40 + (12 + i) * 4, 4), i + 1, kind);
	}
}

/* ---- corruption ---- */

static uint64_t rng;

static uint64_t rnd(uint64_t n)
{
	uint64_t z = (rng += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	z ^= z >> 31;
	return n ? z % n : z;
}

/* a value that breaks code that trusts the field */
static uint32_t bad_value(uint32_t cur, int width)
{
	uint32_t meta[] = { first_data, first_data + 1, get(gd_off(0), 4),
			    get(gd_off(0) + 4, 4), get(gd_off(0) + 8, 4) };
	uint32_t v;

	switch (rnd(13)) {
	case 0: v = 0; break;
	case 1: v = 1; break;
	case 2: v = cur + 1; break;
	case 3: v = cur - 1; break;
	case 4: v = 0xffffffff; break;
	case 5: v = 0x7fffffff + (uint32_t)rnd(2); break;
	case 6: v = nblocks - 1 + (uint32_t)rnd(3); break;
	case 7: v = ninodes + (uint32_t)rnd(2); break;
	case 8: v = meta[rnd(5)]; break;
	case 9: v = nblks ? blks[rnd(nblks)].blk : 2; break;
	case 10: v = cur ^ (1U << rnd(width * 8)); break;
	case 11: v = cur * 2 + 1; break;
	default: v = (uint32_t)rnd(0); break;
	}
	if (width < 4)
		v &= (1U << (width * 8)) - 1;
	return v;
}

static char what[4096];

static void change(size_t off, int width, uint32_t v, const char *fmt, ...)
{
	size_t n = strlen(what);
	va_list ap;

	va_start(ap, fmt);
	n += vsnprintf(what + n, sizeof(what) - n, fmt, ap);
	va_end(ap);
	snprintf(what + n, sizeof(what) - n, " %#x -> %#x; ", get(off, width), v);
	put(off, width, v);
}

static const struct field { const char *name; int off, width; } sb_fields[] = {
	{ "s_inodes_count", 0, 4 }, { "s_blocks_count", 4, 4 },
	{ "s_r_blocks_count", 8, 4 }, { "s_free_blocks_count", 12, 4 },
	{ "s_free_inodes_count", 16, 4 }, { "s_first_data_block", 20, 4 },
	{ "s_log_block_size", 24, 4 }, { "s_blocks_per_group", 32, 4 },
	{ "s_inodes_per_group", 40, 4 }, { "s_state", 58, 2 },
	{ "s_rev_level", 76, 4 }, { "s_first_ino", 84, 4 },
	{ "s_inode_size", 88, 2 }, { "s_feature_compat", 92, 4 },
	{ "s_feature_incompat", 96, 4 }, { "s_feature_ro_compat", 100, 4 },
	{ "s_prealloc_blocks", 204, 1 }, { "s_reserved_gdt_blocks", 206, 2 },
	{ "s_default_mount_opts", 256, 4 }, { "s_first_meta_bg", 260, 4 },
}, gd_fields[] = {
	{ "bg_block_bitmap", 0, 4 }, { "bg_inode_bitmap", 4, 4 },
	{ "bg_inode_table", 8, 4 }, { "bg_free_blocks_count", 12, 2 },
	{ "bg_free_inodes_count", 14, 2 }, { "bg_used_dirs_count", 16, 2 },
}, inode_fields[] = {
	{ "i_mode", 0, 2 }, { "i_size", 4, 4 }, { "i_dtime", 20, 4 },
	{ "i_links_count", 26, 2 }, { "i_blocks", 28, 4 }, { "i_flags", 32, 4 },
	{ "i_block[0]", 40, 4 }, { "i_block[1]", 44, 4 }, { "i_block[11]", 84, 4 },
	{ "i_block[12]", 88, 4 }, { "i_block[13]", 92, 4 }, { "i_block[14]", 96, 4 },
	{ "i_file_acl", 104, 4 }, { "i_size_high", 108, 4 },
};
#define NF(a) (int)(sizeof(a) / sizeof(a[0]))

static void corrupt_dirent(uint32_t blk)
{
	size_t base = (size_t)blk * bsize, o = 0, pick;
	int n = 0, i;

	/* the entries of the block, then one of them */
	for (o = 0; o < bsize && n < 1000; n++) {
		uint16_t rl = get(base + o + 4, 2);

		if (rl < 8)
			break;
		o += rl;
	}
	pick = n ? rnd(n) : 0;
	for (o = 0, i = 0; i < (int)pick; i++)
		o += get(base + o + 4, 2);
	switch (rnd(5)) {
	case 0: {
		static const uint32_t inos_bad[] = { 0, 1, 2, 7, 11 };
		uint32_t v = rnd(2) ? inos_bad[rnd(5)] : bad_value(get(base + o, 4), 4);

		change(base + o, 4, v, "dir block %u entry @%zu inode", blk, o);
		break;
	}
	case 1: case 2: {
		uint16_t rl = get(base + o + 4, 2);
		uint32_t vals[] = { 0, 4, 8, 12, rl - 4U, rl + 4U, rl + 1U, bsize, bsize + 4,
				    bsize - o, 0xfffc, bad_value(rl, 2) };

		change(base + o + 4, 2, vals[rnd(NF(vals))] & 0xffff,
		       "dir block %u entry @%zu rec_len", blk, o);
		break;
	}
	case 3: {
		uint32_t vals[] = { 0, 1, 255, get(base + o + 4, 2) - 7U, get(base + o + 6, 1) + 1U };

		change(base + o + 6, 1, vals[rnd(NF(vals))] & 0xff,
		       "dir block %u entry @%zu name_len", blk, o);
		break;
	}
	default:
		change(base + o + 7, 1, rnd(2) ? (uint32_t)rnd(9) : 0xff,
		       "dir block %u entry @%zu file_type", blk, o);
		break;
	}
}

static void corrupt_xattr(uint32_t blk)
{
	size_t base = (size_t)blk * bsize;
	static const struct field xf[] = {
		{ "h_magic", 0, 4 }, { "h_refcount", 4, 4 }, { "h_blocks", 8, 4 },
		{ "h_hash", 12, 4 }, { "e_name_len", 32, 1 }, { "e_name_index", 33, 1 },
		{ "e_value_offs", 34, 2 }, { "e_value_block", 36, 4 },
		{ "e_value_size", 40, 4 }, { "e_hash", 44, 4 },
	};
	const struct field *f = &xf[rnd(NF(xf))];

	change(base + f->off, f->width, bad_value(get(base + f->off, f->width), f->width),
	       "xattr block %u %s", blk, f->name);
}

static uint32_t pick_block(int kind)
{
	int i, n = 0;

	for (i = 0; i < nblks; i++)
		n += blks[i].kind == kind;
	if (!n)
		return 0;
	n = rnd(n);
	for (i = 0; i < nblks; i++)
		if (blks[i].kind == kind && !n--)
			return blks[i].blk;
	return 0;
}

static void corrupt_one(void)
{
	const struct field *f;
	uint32_t g, ino, blk, i;
	size_t o;

	switch (rnd(20)) {
	case 0: case 1:
		f = &sb_fields[rnd(NF(sb_fields))];
		o = 1024 + f->off;
		change(o, f->width, bad_value(get(o, f->width), f->width), "superblock %s", f->name);
		break;
	case 2: case 3:
		g = rnd(ngroups);
		f = &gd_fields[rnd(NF(gd_fields))];
		o = gd_off(g) + f->off;
		change(o, f->width, bad_value(get(o, f->width), f->width), "group %u %s", g, f->name);
		break;
	case 4: {
		/* the block or the inode bitmap, in the bits the kernel reads */
		int inode_map = rnd(2);
		uint32_t bits = inode_map ? ipg : bpg;

		g = rnd(ngroups);
		blk = get(gd_off(g) + 4 * inode_map, 4);
		if (bits > bsize * 8)
			bits = bsize * 8;
		i = rnd(rnd(2) && bits > 64 ? 64 : bits);	/* often the first, used, bits */
		o = (size_t)blk * bsize + i / 8;
		change(o, 1, get(o, 1) ^ (1U << (i % 8)), "bitmap block %u bit %u", blk, i);
		break;
	}
	case 5: case 6: case 7: case 8: case 9:
		ino = ninos ? inos[rnd(ninos)] : 2;
		f = &inode_fields[rnd(NF(inode_fields))];
		o = inode_off(ino) + f->off;
		if (f->off == 0 && rnd(2)) {
			/* another file type, same permissions */
			static const uint16_t types[] = { 0, 0x1000, 0x2000, 0x4000, 0x6000,
							  0x8000, 0xa000, 0xc000, 0xf000 };
			change(o, 2, (get(o, 2) & 0xfff) | types[rnd(NF(types))],
			       "inode %u i_mode type", ino);
		} else {
			change(o, f->width, bad_value(get(o, f->width), f->width),
			       "inode %u %s", ino, f->name);
		}
		break;
	case 10: case 11: case 12: case 13:
		blk = pick_block(B_DIR);
		if (blk)
			corrupt_dirent(blk);
		break;
	case 14: case 15:
		blk = pick_block(B_IND);
		if (!blk)
			break;
		i = rnd(2) ? rnd(4) : rnd(bsize / 4);
		o = (size_t)blk * bsize + i * 4;
		change(o, 4, bad_value(get(o, 4), 4), "indirect block %u entry %u", blk, i);
		break;
	case 16: case 17:
		blk = pick_block(B_XATTR);
		if (blk)
			corrupt_xattr(blk);
		break;
	case 18:
		/* bytes of a metadata block: a dir, indirect or xattr block, or
		 * the inode table block of an inode in use */
		blk = nblks && rnd(2) ? blks[rnd(nblks)].blk :
		      inode_off(ninos ? inos[rnd(ninos)] : 2) / bsize;
		for (i = 1 + rnd(8); i; i--) {
			o = (size_t)blk * bsize + rnd(bsize);
			change(o, 1, (uint32_t)rnd(256), "block %u byte %zu", blk, o % bsize);
		}
		break;
	default:
		/* bits of what the kernel reads: the superblock, a group
		 * descriptor, an inode in use, a dir, indirect or xattr block */
		for (i = 1 + rnd(4); i; i--) {
			switch (rnd(4)) {
			case 0:
				o = 1024 + rnd(1024);
				break;
			case 1:
				o = gd_off(rnd(ngroups)) + rnd(32);
				break;
			case 2:
				o = inode_off(ninos ? inos[rnd(ninos)] : 2) + rnd(128);
				break;
			default:
				o = nblks ? (size_t)blks[rnd(nblks)].blk * bsize + rnd(bsize) :
				    1024 + rnd(1024);
				break;
			}
			change(o, 1, get(o, 1) ^ (1U << rnd(8)), "byte %zu bit flip", o);
		}
		break;
	}
}

static void corrupt(uint64_t seed)
{
	int n;

	rng = seed * 0x2545f4914f6cdd1dULL + 1;
	what[0] = 0;
	/* one statement per draw: a seed must make the same image everywhere */
	n = 1 + (rnd(4) == 0);
	n += rnd(8) == 0;
	for (; n; n--)
		corrupt_one();
	if (!what[0])
		snprintf(what, sizeof(what), "nothing to corrupt of the kind drawn");
}

/* ---- the workload ---- */

/* failures by errno, in memory shared with the parent */
static unsigned int *errs;
#define NERR 160

static long chk(long r)
{
	if (r < 0 && errs)
		errs[errno < NERR ? errno : 0]++;
	return r;
}

#define MAXP 64
static char files[MAXP][512], dirs[MAXP][512];
static int nfiles, ndirs, nvisited;

static void visit(const char *path, int depth)
{
	char buf[65536], p[512], names[1024];
	struct dirent *de;
	struct stat st;
	DIR *d;
	int n = 0;

	if (depth > 8 || nvisited++ > 3000)
		return;
	d = opendir(path);
	if (!d) {
		chk(-1);
		return;
	}
	if (ndirs < MAXP)
		snprintf(dirs[ndirs++], 512, "%s", path);
	/* a lookup that misses walks every entry of every block */
	snprintf(p, sizeof(p), "%s/imgfuzz-no-such-name", path);
	chk(lstat(p, &st));
	while (n++ < 500 && (errno = 0, de = readdir(d))) {
		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, "..") ||
		    snprintf(p, sizeof(p), "%s/%s", path, de->d_name) >= (int)sizeof(p))
			continue;
		if (chk(lstat(p, &st)))
			continue;
		if (chk(llistxattr(p, names, sizeof(names))) > 0)
			chk(lgetxattr(p, names, buf, sizeof(buf)));
		if (S_ISDIR(st.st_mode)) {
			visit(p, depth + 1);
		} else if (S_ISLNK(st.st_mode)) {
			chk(readlink(p, buf, sizeof(buf)));
		} else if (S_ISREG(st.st_mode)) {
			int fd = chk(open(p, O_RDONLY));
			off_t total = 0;
			ssize_t r;

			if (nfiles < MAXP)
				snprintf(files[nfiles++], 512, "%s", p);
			if (fd < 0)
				continue;
			while (total < (4 << 20) && (r = chk(read(fd, buf, sizeof(buf)))) > 0)
				total += r;
			chk(lseek(fd, 0, SEEK_DATA));
			chk(lseek(fd, 0, SEEK_HOLE));
			chk(pread(fd, buf, 4096, st.st_size / 2));
			close(fd);
		}
	}
	if (errno)
		chk(-1);
	closedir(d);
}

static void write_file(const char *p, int flags, size_t len)
{
	static char buf[65536];
	int fd = chk(open(p, O_WRONLY | O_CREAT | flags, 0644));

	if (fd < 0)
		return;
	memset(buf, 'f', sizeof(buf));
	if (len > sizeof(buf))
		len = sizeof(buf);
	chk(pwrite(fd, buf, len, 0));
	chk(pwrite(fd, buf, 512, 300 * 1024));	/* an indirect block at 1 KiB */
	chk(fsync(fd));
	close(fd);
}

/* a fault on a page that cannot be read is SIGBUS, a clean error here */
static sigjmp_buf fault_jmp;

static void on_sigbus(int sig)
{
	(void)sig;
	siglongjmp(fault_jmp, 1);
}

static void change_file(const char *p)
{
	static char buf[8192] __attribute__((aligned(4096)));
	struct stat st;
	char *m;
	int fd = chk(open(p, O_RDWR));

	if (fd < 0)
		return;
	memset(buf, 'w', sizeof(buf));
	if (!chk(fstat(fd, &st))) {
		chk(pwrite(fd, buf, 5000, st.st_size / 2));
		chk(ftruncate(fd, st.st_size / 3));
		chk(ftruncate(fd, st.st_size + 10000));
	}
	chk(fsetxattr(fd, "user.fuzz", buf, 100, 0));
	m = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (m != MAP_FAILED) {
		signal(SIGBUS, on_sigbus);
		if (!sigsetjmp(fault_jmp, 1)) {
			m[1] = 'm';
			chk(msync(m, 4096, MS_SYNC));
		} else {
			errs[0]++;
		}
		signal(SIGBUS, SIG_DFL);
		munmap(m, 4096);
	} else {
		chk(-1);
	}
	chk(fdatasync(fd));
	close(fd);
	fd = chk(open(p, O_RDWR | O_DIRECT));
	if (fd >= 0) {
		chk(pwrite(fd, buf, 4096, 0));
		chk(pread(fd, buf, 4096, 8192));
		close(fd);
	}
}

static void work(const char *top)
{
	char a[600], b[600];
	int i, fd;

	visit(top, 0);
	for (i = 0; i < nfiles && i < 8; i++)
		change_file(files[(i * 7) % nfiles]);
	for (i = 0; i < ndirs && i < 4; i++) {
		const char *d = dirs[(i * 5) % ndirs];

		snprintf(a, sizeof(a), "%s/fz%d", d, i);
		write_file(a, O_TRUNC, 20000);
		snprintf(b, sizeof(b), "%s/fz%d.r", d, i);
		chk(rename(a, b));
		snprintf(a, sizeof(a), "%s/fz%d.l", d, i);
		chk(link(b, a));
		chk(unlink(a));
		snprintf(a, sizeof(a), "%s/fz%d.s", d, i);
		chk(symlink("a-target-longer-than-sixty-bytes-so-it-needs-a-block-of-its-own", a));
		snprintf(a, sizeof(a), "%s/fz%d.d", d, i);
		chk(mkdir(a, 0755));
		snprintf(b, sizeof(b), "%s/fz%d.d/x", d, i);
		write_file(b, O_DSYNC, 3000);
		chk(unlink(b));
		chk(rmdir(a));
	}
	if (nfiles >= 2) {
		chk(rename(files[0], files[nfiles - 1]));
		chk(unlink(files[1]));
	}
	if (ndirs >= 2)
		chk(rmdir(dirs[ndirs - 1]));
	fd = chk(open(top, O_RDONLY | O_DIRECTORY));
	if (fd >= 0) {
		chk(syncfs(fd));
		close(fd);
	}
}

/* ---- run ---- */

static int module_refs(const char *module)
{
	char p[256];
	FILE *f;
	int n = -1;

	snprintf(p, sizeof(p), "/sys/module/%s/refcnt", module);
	f = fopen(p, "r");
	if (f) {
		if (fscanf(f, "%d", &n) != 1)
			n = -1;
		fclose(f);
	}
	return n;
}

static void write_dev(const char *dev)
{
	int fd = open(dev, O_WRONLY | O_DIRECT);
	size_t len = (img_size + 4095) & ~4095UL;

	if (fd < 0 || pwrite(fd, img, len, 0) != (ssize_t)len || fsync(fd))
		err(3, "write %s", dev);
	ioctl(fd, BLKFLSBUF, 0);
	close(fd);
}

/* a WARN_ON_ONCE() an earlier image hit must show again for this one */
static void clear_warn_once(void)
{
	int fd = open("/sys/kernel/debug/clear_warn_once", O_WRONLY);

	if (fd >= 0) {
		if (write(fd, "1", 1) != 1)
			err(3, "clear_warn_once");
		close(fd);
	}
}

/* new kernel log lines matching the pattern, printed and counted */
static int kmsg_bad(int kfd, regex_t *re)
{
	char rec[8192], *msg;
	ssize_t n;
	int bad = 0;

	for (;;) {
		n = read(kfd, rec, sizeof(rec) - 1);
		/* records were overwritten before we read them: one may have
		 * been a warning */
		if (n < 0 && errno == EPIPE) {
			printf("    kernel: log records lost (ring buffer overrun)\n");
			bad++;
			continue;
		}
		if (n <= 0)
			break;
		rec[n] = 0;
		msg = strchr(rec, ';');
		msg = msg ? msg + 1 : rec;
		msg[strcspn(msg, "\n")] = 0;
		if (!regexec(re, msg, 0, NULL, 0)) {
			bad++;
			printf("    kernel: %s\n", msg);
		}
	}
	return bad;
}

static void save(const char *dir, uint32_t bs, uint64_t seed)
{
	char p[600];
	int fd;

	if (!dir)
		return;
	snprintf(p, sizeof(p), "%s/imgfuzz-bs%u-seed%" PRIu64 ".img", dir, bs, seed);
	fd = open(p, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (fd < 0 || write(fd, img, img_size) != (ssize_t)img_size)
		err(3, "save %s", p);
	close(fd);
	printf("    saved %s\n", p);
}

#define NFAILED 100

static int run(int argc, char **argv)
{
	const char *base = NULL, *dev = NULL, *mnt = NULL, *fstype = "ext2", *module = "ext2";
	const char *pattern = "BUG:|WARNING:|Oops|general protection|KASAN:|UBSAN:|soft lockup";
	const char *savedir = NULL;
	uint64_t first = 1, count = 100, s;
	int opt, limit = 60, as_is = 0, kfd, failed = 0, mounted = 0, stuck = 0, i;
	int unchanged = 0;
	uint64_t failed_seeds[NFAILED];
	unsigned int mount_errs[NERR] = { 0 };
	uint8_t *orig;
	regex_t re;

	while ((opt = getopt(argc, argv, "b:t:d:T:M:s:n:K:o:Rl:")) != -1) {
		switch (opt) {
		case 'b': base = optarg; break;
		case 't': dev = optarg; break;
		case 'd': mnt = optarg; break;
		case 'T': fstype = optarg; break;
		case 'M': module = optarg; break;
		case 's': first = strtoull(optarg, NULL, 0); break;
		case 'n': count = strtoull(optarg, NULL, 0); break;
		case 'K': pattern = optarg; break;
		case 'o': savedir = optarg; break;
		case 'R': as_is = 1; break;
		case 'l': limit = atoi(optarg); break;
		default: usage();
		}
	}
	if (!base || !dev || !mnt || limit <= 0)
		usage();
	if (regcomp(&re, pattern, REG_EXTENDED | REG_NOSUB)) {
		fprintf(stderr, "imgfuzz: bad -K pattern\n");
		return 2;
	}
	load(base);
	/* a saved image is corrupt: its geometry is not to be trusted */
	if (!as_is) {
		geometry();
		survey();
	}
	orig = malloc(img_size);
	if (!orig)
		err(3, "memory");
	memcpy(orig, img, img_size);
	errs = mmap(NULL, NERR * sizeof(*errs), PROT_READ | PROT_WRITE,
		    MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	kfd = open("/dev/kmsg", O_RDONLY | O_NONBLOCK);
	if (errs == MAP_FAILED || kfd < 0 || lseek(kfd, 0, SEEK_END) < 0)
		err(3, "setup");
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (as_is)
		count = 1;
	if (!as_is)
		printf("imgfuzz: base %s, %u-byte blocks, %d inodes and %d blocks found to corrupt\n",
		       base, bsize, ninos, nblks);
	for (s = first; s < first + count; s++) {
		int refs, st = 0, why = 0;
		pid_t pid;
		time_t t0;

		memcpy(img, orig, img_size);
		if (!as_is)
			corrupt(s);
		else
			snprintf(what, sizeof(what), "as saved");
		printf("seed %" PRIu64 ": %s\n", s, what);
		/* e.g. a value changed to itself: counted, to keep an eye on */
		if (!as_is && !memcmp(img, orig, img_size)) {
			printf("    the image is unchanged\n");
			unchanged++;
		}
		write_dev(dev);
		clear_warn_once();
		refs = module_refs(module);
		if (mount(dev, mnt, fstype, 0, "errors=continue")) {
			mount_errs[errno < NERR ? errno : 0]++;
		} else if (module_refs(module) <= refs) {
			printf("    mounted, but not by module %s\n", module);
			umount(mnt);
			return 1;
		} else {
			mounted++;
			pid = fork();
			if (pid < 0)
				err(3, "fork");
			if (!pid) {
				work(mnt);
				_exit(0);
			}
			for (t0 = time(NULL); waitpid(pid, &st, WNOHANG) == 0; usleep(20000)) {
				if (time(NULL) - t0 < limit)
					continue;
				printf("    the workload ran over %d s: killed\n", limit);
				kill(pid, SIGKILL);
				for (i = 0; i < 200 && waitpid(pid, &st, WNOHANG) == 0; i++)
					usleep(100000);
				if (i == 200) {
					printf("    the workload did not die: stuck in the kernel\n");
					stuck = 1;
				}
				why = 1;
				break;
			}
			if (!why && !(WIFEXITED(st) && WEXITSTATUS(st) == 0)) {
				printf("    the workload died (status %#x)\n", st);
				why = 1;
			}
			if (!stuck && umount(mnt)) {
				printf("    umount: %s\n", strerror(errno));
				why = 1;
			}
		}
		if (kmsg_bad(kfd, &re))
			why = 1;
		if (why || stuck) {
			if (failed < NFAILED)
				failed_seeds[failed] = s;
			failed++;
			if (!as_is)
				save(savedir, bsize, s);
		}
		if (stuck)
			break;
	}
	printf("imgfuzz: %" PRIu64 " images, %d mounted, %d failed%s\n", s - first + !!stuck,
	       mounted, failed, stuck ? ", stopped: a workload is stuck in the kernel" : "");
	printf("imgfuzz: %d images unchanged by their corruption\n", unchanged);
	printf("imgfuzz: failed seeds:");
	for (i = 0; i < failed && i < NFAILED; i++)
		printf(" %" PRIu64, failed_seeds[i]);
	printf("\nimgfuzz: mount refused:");
	for (i = 0; i < NERR; i++)
		if (mount_errs[i])
			printf(" %s %u;", i ? strerrorname_np(i) : "other", mount_errs[i]);
	printf("\nimgfuzz: calls failed:");
	for (i = 0; i < NERR; i++)
		if (errs[i])
			printf(" %s %u;", i ? strerrorname_np(i) : "other", errs[i]);
	printf("\n");
	return failed ? 1 : 0;
}

int main(int argc, char **argv)
{
	if (argc < 2)
		usage();
	if (!strcmp(argv[1], "corrupt")) {
		int opt;
		uint64_t seed = 1;

		optind = 2;
		while ((opt = getopt(argc, argv, "S:")) != -1) {
			if (opt != 'S')
				usage();
			seed = strtoull(optarg, NULL, 0);
		}
		if (argc - optind != 2)
			usage();
		load(argv[optind]);
		geometry();
		survey();
		corrupt(seed);
		printf("seed %" PRIu64 ": %s\n", seed, what);
		{
			int fd = open(argv[optind + 1], O_WRONLY | O_CREAT | O_TRUNC, 0644);

			if (fd < 0 || write(fd, img, img_size) != (ssize_t)img_size)
				err(3, "%s", argv[optind + 1]);
			close(fd);
		}
		return 0;
	}
	if (!strcmp(argv[1], "work")) {
		if (argc != 3)
			usage();
		errs = calloc(NERR, sizeof(*errs));
		work(argv[2]);
		return 0;
	}
	if (!strcmp(argv[1], "run")) {
		optind = 2;
		return run(argc, argv);
	}
	usage();
	return 2;
}
