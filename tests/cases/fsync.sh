# fsync and fdatasync put data and block map (and fsync of a directory its
# entries) on the disk. With periodic writeback off, the disk (read with
# O_DIRECT by debugfs -D) must not have the data before the call and must
# have it after.
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
# fsync of a directory puts its new entries on the disk: its blocks (one of
# them new) are dirtied on its behalf in fs_buf.
mkdir dsync
sync
perl -e 'for (1 .. 150) { open(my $f, ">", "dsync/entry-with-a-longer-name-$_") or die "create: $!" }' ||
	fail "create entries"
fs_debugfs "ls /dsync" | grep -q "entry-with-a-longer-name-150" && fail "the entries are on disk before fsync"
xfs_io -r -c fsync dsync
expect_eq "$(fs_debugfs "ls /dsync" | grep -o "entry-with-a-longer-name-[0-9]*" | sort -u | wc -l)" 150 \
	"entries on disk after fsync of the directory"
# An overwrite of synced data, then fdatasync.
xfs_io -c "pwrite -q -S 0x3c 100000 5000" fdatasync.dat
check_on_disk fdatasync.dat no
xfs_io -c fdatasync fdatasync.dat
check_on_disk fdatasync.dat yes
# Writeback copied the inode into its table block but left the block dirty in
# fs_buf (its own expiry made long here): fsync of the now clean inode must
# still put the block on the disk.
expire=/sys/module/fs_buf/parameters/expire_centisecs
echo 360000 > "$expire"
sysctl -q vm.dirty_writeback_centisecs=50 vm.dirty_expire_centisecs=50
xfs_io -f -c "pwrite -q -S 0x5a 0 64k" wb.dat
sector=$(xfs_io -c fiemap wb.dat | sed -n '2s/.*: \([0-9]*\)\.\..*/\1/p')
[ -n "$sector" ] || fail "no extent for wb.dat"
for i in $(seq 100); do
	[ "$(dd if="$DEV" iflag=direct bs=512 skip="$sector" count=1 status=none | od -An -tx1 | head -1 | awk '{ print $1 }')" = 5a ] && break
	sleep 0.2
done
[ "$i" -lt 100 ] || fail "writeback did not write wb.dat's data"
check_on_disk wb.dat no
xfs_io -c fsync wb.dat
echo 3000 > "$expire"
check_on_disk wb.dat yes
