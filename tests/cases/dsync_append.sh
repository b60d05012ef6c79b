# An O_DSYNC|O_DIRECT write that moves EOF inside an allocated block is on
# the disk with its new i_size when pwrite returns, also on a device that
# takes FUA writes (where iomap would otherwise skip the sync of the inode):
# the inode is read from the disk (debugfs with O_DIRECT) right after it,
# with periodic writeback off, as a power cut would find it.
# setup: none
# fs-size: 32M
fs_mkfs
modprobe sd_mod && modprobe scsi_debug dev_size_mb=32 || skip "no scsi_debug"
trap 'cd /; umount "$MNT" 2> /dev/null || true; rmmod scsi_debug 2> /dev/null || true' EXIT
for ((i = 0; i < 60; i++)); do
	sd=$(ls /sys/bus/pseudo/drivers/scsi_debug/adapter*/host*/target*/*/block 2> /dev/null | head -1)
	[ -n "$sd" ] && [ -b "/dev/$sd" ] && break
	sleep 0.5
done
[ -n "$sd" ] && [ -b "/dev/$sd" ] || fail "no block device from scsi_debug"
expect_eq "$(cat "/sys/block/$sd/queue/fua")" 1 "FUA on /dev/$sd"
sddev=/dev/$sd
mkfs.ext2 -q -F -b "$FS_BS" "$sddev" > /dev/null || fail "mkfs on $sddev"
DEV=$sddev fs_mount
sysctl -q vm.dirty_writeback_centisecs=0
xfs_io -f -c "pwrite -q 0 100" "$MNT/f"
sync
disk_size() {
	DEV=$sddev fs_debugfs "stat /f" | sed -n 's/.*Size: \([0-9]*\).*/\1/p' | head -1
}
expect_eq "$(disk_size)" 100 "i_size on the disk after sync"
expect_eq "$("$TOOLS/shortwrite" -d -s "$MNT/f" 0 512 512)" 512 "O_DSYNC direct write"
expect_eq "$(disk_size)" 512 "i_size on the disk after the O_DSYNC write"
# the same past the allocated block: a new block
expect_eq "$("$TOOLS/shortwrite" -d -s "$MNT/f" 4096 512 512)" 512 "O_DSYNC direct append"
expect_eq "$(disk_size)" 4608 "i_size on the disk after the O_DSYNC append"
cd /
umount "$MNT" || fail "umount"
out=$(e2fsck -fn "$sddev" 2>&1) || fail "e2fsck -fn $sddev: $out"
