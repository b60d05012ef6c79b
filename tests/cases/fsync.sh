# fsync and fdatasync put data and block map on the disk. With periodic
# writeback off, the disk (read with O_DIRECT by debugfs -D) must not have the
# data before the call and must have it after.
sysctl -q vm.dirty_writeback_centisecs=0 vm.dirty_expire_centisecs=360000
sync
check_on_disk() { # FILE WANT(yes|no)
	local ino
	ino=$(stat -c %i "$1")
	fs_debugfs "dump <$ino> /tmp/ondisk" > /dev/null
	if cmp -s "$1" /tmp/ondisk; then
		[ "$2" = yes ] || fail "$1 on disk before its sync call"
	else
		[ "$2" = no ] || fail "$1 not on disk after its sync call"
	fi
}
# 2 MiB needs indirect and (at 1 KiB blocks) double-indirect blocks.
for call in fsync fdatasync; do
	xfs_io -f -c "pwrite -q -S 0x7e 0 2m" "$call.dat"
	check_on_disk "$call.dat" no
	xfs_io -c "$call" "$call.dat"
	check_on_disk "$call.dat" yes
done
# An overwrite of synced data, then fdatasync.
xfs_io -c "pwrite -q -S 0x3c 100000 5000" fdatasync.dat
check_on_disk fdatasync.dat no
xfs_io -c fdatasync fdatasync.dat
check_on_disk fdatasync.dat yes
