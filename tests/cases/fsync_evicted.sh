# fsync writes the indirect block a file's writes dirtied even when the
# inode was evicted since and read in again: eviction loses which inode
# dirtied which fs_buf buffer, and an fsync that missed the block would
# return with the file's block map only in memory, for a power cut to lose.
# Writeback writes the data and the inode first (fs_buf's own writeback is
# held off), so the inode can be evicted; the disk is read with O_DIRECT.
# It is zeroed first: allocation is the same each run, and an indirect block
# an earlier run left there would point at this run's data.
# fs: ext2 minix
# fs-size: 64M
# setup: none
dd if=/dev/zero of="$DEV" bs=1M count=64 oflag=direct status=none
fs_mkfs
fs_mount
expire=/sys/module/fs_buf/parameters/expire_centisecs
trap 'echo 3000 > "$expire"' EXIT
echo 360000 > "$expire"
sysctl -q vm.dirty_writeback_centisecs=0 vm.dirty_expire_centisecs=360000
xfs_io -f -c "pwrite -q -S 0x5a 0 1M" "$MNT/f" || fail "xfs_io"
sysctl -q vm.dirty_writeback_centisecs=10 vm.dirty_expire_centisecs=1
sleep 3
sysctl -q vm.dirty_writeback_centisecs=0 vm.dirty_expire_centisecs=360000
for i in 1 2 3; do echo 3 > /proc/sys/vm/drop_caches; done
xfs_io -c fsync "$MNT/f" || fail "fsync"

# the file's indirect block on the disk, and the first block it points to
if [ "$FS_TYPE" = minix ]; then
	minix_layout
	bs=1024 n=$MINIX_ZSIZE
	ind=$(dev_le $(($(minix_ino_off "$(stat -c %i "$MNT/f")") + MINIX_ZONES + 7 * n)) "$n")
else
	bs=$FS_BS n=4
	ind=$(fs_debugfs "stat <$(stat -c %i "$MNT/f")>" | grep -o "(IND):[0-9]*" | head -1 | cut -d: -f2)
fi
[ -n "$ind" ] && [ "$ind" != 0 ] || fail "the inode on the disk has no indirect block after fsync: $(fs_debugfs "stat <$(stat -c %i "$MNT/f")>" | tr "\n" " " | cut -c1-600)"
blk=$(dev_le $((ind * bs)) "$n")
[ "$blk" != 0 ] || fail "indirect block $ind is empty on the disk after fsync of the evicted file"
expect_eq "$(dev_le $((blk * bs)) 1)" $((0x5a)) "the first byte of the block indirect block $ind points to"
