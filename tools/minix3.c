// SPDX-License-Identifier: GPL-2.0
/*
 * minix3: make and check minix v3 filesystems with blocks of any size.
 * util-linux mkfs.minix and fsck.minix know 1 KiB blocks only, while MINIX 3
 * itself makes 4 KiB ones.
 *
 *   minix3 mkfs -b BLOCKSIZE DEV [KIB [INODES]]
 *        a new filesystem over the first KIB KiB of DEV (default: all of it,
 *        a file or a block device), with INODES inodes (default: one for
 *        every four blocks)
 *   minix3 check DEV
 *        read-only: exit 0 if it is consistent, else 1 with a line for each
 *        problem (bitmaps against use, zones used twice or outside the data
 *        zones, directory entries, link counts)
 *
 * The layout is the one Linux reads: the boot block, the superblock at byte
 * 1024, then from block 2 the inode bitmap, the zone bitmap, the inode table
 * of 64-byte inodes and the data zones, block numbers in units of the block
 * size. Bit N of the inode bitmap is inode N; bit N of the zone bitmap is
 * block firstdatazone + N - 1; bit 0 of both is never used.
 */
#include <endian.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define MAGIC		0x4d5a
#define INODE_SIZE	64
#define DIRENT_SIZE	64
#define ROOT_INO	1

struct super {
	uint32_t ninodes;
	uint16_t imap_blocks, zmap_blocks, firstdatazone;
	uint32_t max_size, zones;
	uint16_t blocksize;
};

struct inode {
	uint16_t mode, nlinks;
	uint32_t size;
	uint32_t zone[10];
};

static int fd;
static struct super sb;
static unsigned char *imap, *zmap, *itable;
static unsigned long problems;

static void die(const char *what)
{
	fprintf(stderr, "minix3: %s: %s\n", what, strerror(errno));
	exit(2);
}

static void problem(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void problem(const char *fmt, ...)
{
	va_list ap;

	if (++problems > 50)
		return;
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
}

static void io(int write, void *buf, uint64_t block, size_t nblocks)
{
	size_t len = nblocks * sb.blocksize;
	off_t off = (off_t)block * sb.blocksize;
	ssize_t n = write ? pwrite(fd, buf, len, off) : pread(fd, buf, len, off);

	if (n != (ssize_t)len) {
		if (n >= 0)
			errno = EIO;
		die(write ? "write" : "read");
	}
}

static int test_bit(const unsigned char *map, uint64_t nr)
{
	return map[nr / 8] >> (nr % 8) & 1;
}

static void set_bit(unsigned char *map, uint64_t nr)
{
	map[nr / 8] |= 1 << (nr % 8);
}

static uint32_t get32(const unsigned char *p)
{
	uint32_t v;

	memcpy(&v, p, 4);
	return le32toh(v);
}

static uint16_t get16(const unsigned char *p)
{
	uint16_t v;

	memcpy(&v, p, 2);
	return le16toh(v);
}

static void put32(unsigned char *p, uint32_t v)
{
	v = htole32(v);
	memcpy(p, &v, 4);
}

static void put16(unsigned char *p, uint16_t v)
{
	v = htole16(v);
	memcpy(p, &v, 2);
}

static uint64_t itable_blocks(void)
{
	uint64_t ipb = sb.blocksize / INODE_SIZE;

	return (sb.ninodes + ipb - 1) / ipb;
}

static void write_super(void)
{
	unsigned char raw[1024] = { 0 };

	put32(raw + 0, sb.ninodes);
	put16(raw + 6, sb.imap_blocks);
	put16(raw + 8, sb.zmap_blocks);
	put16(raw + 10, sb.firstdatazone);
	put32(raw + 16, sb.max_size);
	put32(raw + 20, sb.zones);
	put16(raw + 24, MAGIC);
	put16(raw + 28, sb.blocksize);
	if (pwrite(fd, raw, sizeof(raw), 1024) != sizeof(raw))
		die("write superblock");
}

static void read_super(void)
{
	unsigned char raw[1024];

	if (pread(fd, raw, sizeof(raw), 1024) != sizeof(raw))
		die("read superblock");
	if (get16(raw + 24) != MAGIC) {
		fprintf(stderr, "minix3: not a minix v3 filesystem\n");
		exit(2);
	}
	sb.ninodes = get32(raw + 0);
	sb.imap_blocks = get16(raw + 6);
	sb.zmap_blocks = get16(raw + 8);
	sb.firstdatazone = get16(raw + 10);
	sb.max_size = get32(raw + 16);
	sb.zones = get32(raw + 20);
	sb.blocksize = get16(raw + 28);
	if (get16(raw + 12)) {
		fprintf(stderr, "minix3: zones of more than one block\n");
		exit(2);
	}
	if (sb.blocksize < 1024 || sb.blocksize & (sb.blocksize - 1) ||
	    !sb.ninodes || (uint64_t)sb.imap_blocks * sb.blocksize * 8 <= sb.ninodes ||
	    sb.firstdatazone < 2 + sb.imap_blocks + sb.zmap_blocks + itable_blocks() ||
	    sb.firstdatazone >= sb.zones ||
	    (uint64_t)sb.zmap_blocks * sb.blocksize * 8 <= sb.zones - sb.firstdatazone) {
		fprintf(stderr, "minix3: the superblock does not add up\n");
		exit(2);
	}
}

static void mkfs(const char *dev, unsigned int bs, uint64_t kib,
		 uint64_t ninodes)
{
	uint64_t nblocks, need, bits, b, first, z;
	unsigned char *buf;

	fd = open(dev, O_RDWR);
	if (fd < 0)
		die(dev);
	sb.blocksize = bs;
	nblocks = kib ? kib * 1024 / bs : (uint64_t)lseek(fd, 0, SEEK_END) / bs;
	if (nblocks > UINT32_MAX)
		nblocks = UINT32_MAX;
	sb.zones = nblocks;
	if (!ninodes)
		ninodes = nblocks / 4;
	/* the inode bitmap's size has 16 bits */
	if (ninodes < 16 || (ninodes + 1 + bs * 8 - 1) / (bs * 8) > UINT16_MAX) {
		fprintf(stderr, "minix3: cannot have %llu inodes\n",
			(unsigned long long)ninodes);
		exit(2);
	}
	sb.ninodes = ninodes;
	sb.imap_blocks = (ninodes + 1 + bs * 8 - 1) / (bs * 8);
	for (z = 1;; z = need) {
		first = 2 + sb.imap_blocks + z + itable_blocks();
		need = (nblocks - first + 1 + bs * 8 - 1) / (bs * 8);
		if (need <= z)
			break;
	}
	sb.zmap_blocks = z;
	sb.firstdatazone = first;
	/* the superblock has 16 bits for the first data zone */
	if (first + 16 > nblocks || first > UINT16_MAX) {
		fprintf(stderr, "minix3: %llu blocks cannot hold %u inodes\n",
			(unsigned long long)nblocks, sb.ninodes);
		exit(2);
	}
	sb.max_size = 0x7fffffff;

	/* everything up to the root directory's block, zeroed */
	buf = calloc(sb.firstdatazone + 1, bs);
	if (!buf)
		die("calloc");
	imap = buf + 2 * bs;
	zmap = imap + sb.imap_blocks * bs;
	itable = zmap + sb.zmap_blocks * bs;
	/* bit 0 and the bits past the end are in use */
	bits = (uint64_t)sb.imap_blocks * bs * 8;
	for (b = 0; b < bits; b++)
		if (b == 0 || b == ROOT_INO || b > sb.ninodes)
			set_bit(imap, b);
	bits = (uint64_t)sb.zmap_blocks * bs * 8;
	for (b = 0; b < bits; b++)
		if (b <= 1 || b > sb.zones - sb.firstdatazone)
			set_bit(zmap, b);
	/* the root directory: "." and ".." in the first data zone */
	put16(itable + 0, 040755);
	put16(itable + 2, 2);
	put32(itable + 8, 2 * DIRENT_SIZE);
	put32(itable + 24, sb.firstdatazone);
	put32(buf + (uint64_t)sb.firstdatazone * bs, ROOT_INO);
	strcpy((char *)buf + (uint64_t)sb.firstdatazone * bs + 4, ".");
	put32(buf + (uint64_t)sb.firstdatazone * bs + DIRENT_SIZE, ROOT_INO);
	strcpy((char *)buf + (uint64_t)sb.firstdatazone * bs + DIRENT_SIZE + 4, "..");
	io(1, buf, 0, sb.firstdatazone + 1);
	write_super();
	if (fsync(fd))
		die("fsync");
	free(buf);
}

static void get_inode(uint32_t ino, struct inode *in)
{
	const unsigned char *p = itable + (uint64_t)(ino - 1) * INODE_SIZE;
	int i;

	in->mode = get16(p);
	in->nlinks = get16(p + 2);
	in->size = get32(p + 8);
	for (i = 0; i < 10; i++)
		in->zone[i] = get32(p + 24 + 4 * i);
}

static unsigned char *zone_refs;

/* Count the zone @z of inode @ino, and below it @level levels of pointers. */
static void walk(uint32_t ino, uint32_t z, int level)
{
	uint32_t ppb = sb.blocksize / 4, i;
	unsigned char *blk;

	if (!z)
		return;
	if (z < sb.firstdatazone || z >= sb.zones) {
		problem("inode %u: zone %u outside the data zones", ino, z);
		return;
	}
	if (zone_refs[z]) {
		problem("inode %u: zone %u used twice", ino, z);
		return;
	}
	zone_refs[z] = 1;
	if (!level)
		return;
	blk = malloc(sb.blocksize);
	if (!blk)
		die("malloc");
	io(0, blk, z, 1);
	for (i = 0; i < ppb; i++)
		walk(ino, get32(blk + 4 * i), level - 1);
	free(blk);
}

/* The zone holding block @n of a file, 0 for a hole or a bad zone. */
static uint32_t bmap(const struct inode *in, uint64_t n)
{
	uint64_t ppb = sb.blocksize / 4, span = 1;
	unsigned char *blk;
	uint32_t z;
	int level;

	if (n < 7) {
		z = in->zone[n];
		goto out;
	}
	n -= 7;
	for (level = 1; level <= 3; level++) {
		span *= ppb;
		if (n < span)
			break;
		n -= span;
	}
	if (level > 3)
		return 0;
	z = in->zone[6 + level];
	blk = malloc(sb.blocksize);
	if (!blk)
		die("malloc");
	while (z && level--) {
		span /= ppb;
		if (z < sb.firstdatazone || z >= sb.zones)
			break;
		io(0, blk, z, 1);
		z = get32(blk + 4 * (n / span));
		n %= span;
	}
	free(blk);
out:
	/* walk() reported a zone outside the data zones */
	return z >= sb.firstdatazone && z < sb.zones ? z : 0;
}

static int check(const char *dev)
{
	uint64_t bits, b, off;
	uint32_t ino, *links;
	unsigned char *blk;
	struct inode in, t;

	fd = open(dev, O_RDONLY);
	if (fd < 0)
		die(dev);
	read_super();
	imap = malloc((uint64_t)(sb.imap_blocks + sb.zmap_blocks) * sb.blocksize +
		      itable_blocks() * sb.blocksize);
	zone_refs = calloc(sb.zones, 1);
	links = calloc(sb.ninodes + 1, sizeof(*links));
	blk = malloc(sb.blocksize);
	if (!imap || !zone_refs || !links || !blk)
		die("malloc");
	zmap = imap + sb.imap_blocks * sb.blocksize;
	itable = zmap + sb.zmap_blocks * sb.blocksize;
	io(0, imap, 2, sb.imap_blocks + sb.zmap_blocks + itable_blocks());

	get_inode(ROOT_INO, &in);
	if ((in.mode & 0170000) != 040000)
		problem("the root inode is not a directory");
	for (ino = 1; ino - 1 < sb.ninodes; ino++) {
		get_inode(ino, &in);
		if (!in.mode != !test_bit(imap, ino))
			problem("inode %u: mode 0%o but %s in the bitmap", ino,
				in.mode, test_bit(imap, ino) ? "set" : "clear");
		if (!in.mode)
			continue;
		switch (in.mode & 0170000) {
		case 0100000: case 040000: case 0120000:
			break;
		default:
			continue;	/* devices keep their number in zone 0 */
		}
		for (b = 0; b < 10; b++)
			walk(ino, in.zone[b], b < 7 ? 0 : b - 6);
		if ((in.mode & 0170000) != 040000)
			continue;
		if (in.size % DIRENT_SIZE || in.size < 2 * DIRENT_SIZE)
			problem("directory %u: size %u", ino, in.size);
		for (off = 0; off + DIRENT_SIZE <= in.size; off += DIRENT_SIZE) {
			uint32_t z = bmap(&in, off / sb.blocksize), target;
			const char *name;

			if (off % sb.blocksize == 0) {
				/* a hole holds no entries, but "." and ".." */
				if (!z) {
					if (!off)
						problem("directory %u: no first block", ino);
					off += sb.blocksize - DIRENT_SIZE;
					continue;
				}
				io(0, blk, z, 1);
			}
			target = get32(blk + off % sb.blocksize);
			name = (const char *)blk + off % sb.blocksize + 4;
			if (off == 0 && (target != ino || strcmp(name, ".")))
				problem("directory %u: no '.' first", ino);
			if (off == DIRENT_SIZE && strcmp(name, ".."))
				problem("directory %u: no '..' second", ino);
			if (!target)
				continue;
			if (target > sb.ninodes) {
				problem("directory %u: entry '%.60s' names inode %u of %u",
					ino, name, target, sb.ninodes);
				continue;
			}
			get_inode(target, &t);
			if (!t.mode)
				problem("directory %u: entry '%.60s' names free inode %u",
					ino, name, target);
			if (off == DIRENT_SIZE && (t.mode & 0170000) != 040000)
				problem("directory %u: '..' is not a directory", ino);
			links[target]++;
		}
	}
	for (ino = 1; ino - 1 < sb.ninodes; ino++) {
		get_inode(ino, &in);
		if (in.mode && (in.nlinks != links[ino] || !links[ino]))
			problem("inode %u: %u links, %u entries", ino, in.nlinks,
				links[ino]);
	}
	bits = sb.zones - sb.firstdatazone;
	for (b = 1; b <= bits; b++) {
		uint32_t z = sb.firstdatazone + b - 1;

		if (!zone_refs[z] != !test_bit(zmap, b))
			problem("zone %u: %s but %s in the bitmap", z,
				zone_refs[z] ? "used" : "unused",
				test_bit(zmap, b) ? "set" : "clear");
	}
	/* the bits past the end are set, or statfs counts them free */
	for (b = (uint64_t)sb.ninodes + 1; b < (uint64_t)sb.imap_blocks * sb.blocksize * 8; b++)
		if (!test_bit(imap, b)) {
			problem("inode bitmap: bit %llu past the end is clear",
				(unsigned long long)b);
			break;
		}
	for (b = bits + 1; b < (uint64_t)sb.zmap_blocks * sb.blocksize * 8; b++)
		if (!test_bit(zmap, b)) {
			problem("zone bitmap: bit %llu past the end is clear",
				(unsigned long long)b);
			break;
		}
	if (problems)
		printf("minix3 check: %lu problem%s\n", problems,
		       problems > 1 ? "s" : "");
	return problems ? 1 : 0;
}

static void usage(void)
{
	fprintf(stderr, "usage: minix3 mkfs -b BLOCKSIZE DEV [KIB [INODES]] | minix3 check DEV\n");
	exit(2);
}

int main(int argc, char **argv)
{
	unsigned long bs;

	if (argc == 3 && !strcmp(argv[1], "check"))
		return check(argv[2]);
	if (argc < 5 || argc > 7 || strcmp(argv[1], "mkfs") ||
	    strcmp(argv[2], "-b"))
		usage();
	bs = strtoul(argv[3], NULL, 0);
	if (bs < 1024 || bs > 32768 || bs & (bs - 1))
		usage();
	mkfs(argv[4], bs, argc >= 6 ? strtoull(argv[5], NULL, 0) : 0,
	     argc == 7 ? strtoull(argv[6], NULL, 0) : 0);
	return 0;
}
