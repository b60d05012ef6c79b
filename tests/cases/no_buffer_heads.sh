# ext2 uses no buffer heads: a workload that touches every kind of ext2
# metadata (bitmaps, inode table, indirect blocks, directories, slow
# symlinks, extended attribute blocks shared through mbcache, superblock
# and group descriptors) and a sync leave the kernel's buffer heads and the
# block device's page cache ("Buffers", where buffer heads keep metadata)
# where they were after the mount; the data reads back after a remount.
bh_count() { awk '$1 == "buffer_head" { print $2 }' /proc/slabinfo; }
bdev_kib() { awk '$1 == "Buffers:" { print $2 }' /proc/meminfo; }
n=150
sync
bh0=$(bh_count) buf0=$(bdev_kib)
[ -n "$bh0" ] && [ -n "$buf0" ] || fail "no buffer_head count or Buffers in /proc"
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
bh1=$(bh_count) buf1=$(bdev_kib)
echo "buffer heads $bh0 -> $bh1, Buffers $buf0 -> $buf1 KiB"
[ $((bh1 - bh0)) -lt 64 ] || fail "$((bh1 - bh0)) buffer heads appeared during the workload"
[ $((buf1 - buf0)) -le 8 ] || fail "the block device's page cache grew by $((buf1 - buf0)) KiB"
fs_cycle
expect_eq "$(md5 big)" "$sum" "big file after remount"
expect_eq "$(cat d$n/f8)" "$n.8" "a small file after remount"
expect_eq "$(getfattr --only-values -n user.shared d3/f1)" "the same value in every directory" "shared xattr"
expect_eq "$(getfattr --only-values -n user.own d7/f2)" "value 7" "own xattr"
expect_eq "$(readlink d3/slow-link)" "$(printf '../d%d/%0100d' 3 0)" "slow symlink"
