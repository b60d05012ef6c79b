# minix uses no buffer heads: a workload over every kind of minix metadata
# (bitmaps, inode table, indirect and double indirect blocks, directories,
# symlinks up to a block less one byte, superblock) and a sync leave the
# kernel's buffer heads and the block device's page cache where they were
# after the mount, its metadata goes through fs_buf, and all of it reads
# back after a remount.
# fs: minix
n=100
sync
usage0=$(bh_usage) reads0=$(fs_buf_stat "$DEV" reads || true)
longest=$(head -c $((FS_BS - 1)) /dev/zero | tr '\0' z)
perl -e 'my $n = shift;
	for my $d (1 .. $n) {
		mkdir "d$d" or die "mkdir d$d: $!";
		for my $f (1 .. 8) { open(my $h, ">", "d$d/f$f") or die "create: $!"; print $h "$d.$f\n" }
		symlink("../d$d/f1", "d$d/link") or die "symlink: $!";
	}' "$n" || fail "create the tree"
ln -s "$longest" longest
expect_fail "File name too long" ln -s "${longest}z" too-long
head -c 3000000 /dev/urandom > big	# indirect and double indirect blocks
sum=$(md5 big)
sync
expect_no_bh "$usage0"
[ -n "$reads0" ] || fail "no fs_buf cache for $DEV"
[ "$(fs_buf_stat "$DEV" writes)" -gt 0 ] || fail "no metadata written through fs_buf"
fs_cycle
reads1=$(fs_buf_stat "$DEV" reads)
expect_eq "$(md5 big)" "$sum" "big file after remount"
expect_eq "$(cat d$n/f8)" "$n.8" "a small file after remount"
expect_eq "$(cat d7/link)" "7.1" "a symlink followed after remount"
expect_eq "$(readlink longest)" "$longest" "a symlink of $((FS_BS - 1)) bytes"
expect_eq "$(ls d5 | wc -l)" 9 "entries of a directory"
[ "$(fs_buf_stat "$DEV" reads)" -gt "$reads1" ] || fail "nothing was read through fs_buf"
rm -rf d*
expect_eq "$(ls | wc -l)" 2 "entries left after rm -rf"
