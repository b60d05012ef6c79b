# ext2 uses no buffer heads: a workload that touches every kind of ext2
# metadata (bitmaps, inode table, indirect blocks, directories, slow
# symlinks, extended attribute blocks shared through mbcache, superblock
# and group descriptors) and a sync leave the kernel's buffer heads and the
# block device's page cache ("Buffers", where buffer heads keep metadata)
# where they were after the mount; the data reads back after a remount.
n=150
sync
usage0=$(bh_usage)
perl -e 'my $n = shift;
	for my $d (1 .. $n) {
		mkdir "d$d" or die "mkdir d$d: $!";
		for my $f (1 .. 8) { open(my $h, ">", "d$d/f$f") or die "create: $!"; print $h "$d.$f\n" }
		symlink(sprintf("../d%d/%0100d", $d, 0), "d$d/slow-link") or die "symlink: $!";
	}' "$n" || fail "create the tree"
for d in $(seq 1 "$n"); do
	setfattr -n user.own -v "value $d" "d$d/f2"
done
for d in 1 2 3 4 5; do
	setfattr -n user.shared -v "the same value in every directory" "d$d/f1"
done
head -c 3000000 /dev/urandom > big	# indirect and double indirect blocks
sum=$(md5 big)
sync
expect_no_bh "$usage0"
fs_cycle
expect_eq "$(md5 big)" "$sum" "big file after remount"
expect_eq "$(cat d$n/f8)" "$n.8" "a small file after remount"
expect_eq "$(getfattr --only-values -n user.shared d3/f1)" "the same value in every directory" "shared xattr"
expect_eq "$(getfattr --only-values -n user.own d7/f2)" "value 7" "own xattr"
expect_eq "$(readlink d3/slow-link)" "$(printf '../d%d/%0100d' 3 0)" "slow symlink"
