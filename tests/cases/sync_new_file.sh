# sync(2) of a new file puts its size on the disk even when the data lands
# while the inode is being written: the inode table is behind a dm-delay
# segment that holds its writes for half a second, the rest of the disk is not,
# so the data write completes while ->write_inode waits for the inode block.
# The size it took then stops at the unwritten block; the completion must
# put the new size into the inode block for sync_fs to write, not leave it
# in a dirty inode that nothing writes (periodic writeback is off).
# sync runs real-time on one CPU so that the flusher, woken by it, starts
# only once sync waits for its data-integrity pass: that pass, not the one
# that writes the inode without waiting, is the first to write the inode.
# setup: none
# fs-size: 32M
fs_mkfs
itable=$(dumpe2fs "$DEV" 2> /dev/null | sed -n 's/.*Inode table at \([0-9]*\)-\([0-9]*\).*/\1 \2/p' | head -1)
[ -n "$itable" ] || fail "no inode table in dumpe2fs"
read -r first last <<< "$itable"
spb=$((FS_BS / 512))
dm_delay itable-slow 500 $((first * spb)) $(((last + 1 - first) * spb))
cpu1=/sys/devices/system/cpu/cpu1/online
fs_mount
sysctl -q vm.dirty_writeback_centisecs=0
for i in 1 2 3; do
	echo "file $i, 27 bytes long here" > "$MNT/f$i"
	echo 0 > $cpu1 || fail "offline CPU 1"
	rc=0
	chrt -f 10 sync || rc=$?
	echo 1 > $cpu1 || fail "online CPU 1"
	[ $rc = 0 ] || fail "sync: exit $rc"
	got=$(fs_debugfs "stat /f$i" | sed -n 's/.*Size: \([0-9]*\).*/\1/p' | head -1)
	expect_eq "$got" 27 "i_size of new file f$i on the disk after sync"
done
cd /
umount "$MNT" || fail "umount"
fs_fsck
dmsetup remove itable-slow || fail "dmsetup remove"
