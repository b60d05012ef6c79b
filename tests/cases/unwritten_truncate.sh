# A truncate down into the block that holds an append still in flight
# (dm-delay holds every write for three seconds): the bytes past the new
# end must be zeroes on disk once the write lands, so that growing the file
# again after the page cache was dropped does not bring them back. The
# block is unwritten while its write is in flight, and iomap does not zero
# an unwritten block; ext2 lets the write land first.
# setup: none
# fs-size: 64M
fs_mkfs
dm_delay trunc-slow 3000
fs_mount
cd "$MNT"
xfs_io -f -c "pwrite -q -S 0x78 0 $((2 * FS_BS))" -c "sync_range -w 0 $((2 * FS_BS))" \
	-c "truncate 100" f || fail "append, writeback, truncate"
sync
echo 3 > /proc/sys/vm/drop_caches
truncate -s $((2 * FS_BS)) f
n=$(tail -c +101 f | tr -d '\0' | wc -c)
expect_eq "$n" 0 "bytes past the truncation point after growing the file again"
cd /
umount "$MNT" || fail "umount"
dmsetup remove trunc-slow || fail "dmsetup remove"
