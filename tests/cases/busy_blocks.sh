# A block a truncate freed is not given to another file while the disk still
# names it in the old one. File A (with indirect blocks) is on disk and the
# filesystem is full; A is cut to nothing, its inode not written, and B, as
# large, is written and fsynced into the blocks A gave up (B's inode in
# another block of the inode table, or B's fsync would write A's too). The
# disk as it is then (a power cut) must be repaired by e2fsck -fy without a
# block claimed twice, or pass fsck.minix, and B must read back from it.
# The freed blocks count as free in statfs at once, and B's allocation,
# finding nothing else free, commits them.
# fs: ext2 minix
# fs-size: 16M
# block-sizes: 1024 4096
# metadata stays in memory unless something writes it
sysctl -q vm.dirty_writeback_centisecs=0 vm.dirty_expire_centisecs=360000
len=$((2 * 1024 * 1024))
xfs_io -f -c "pwrite -q -S 0xaa 0 $len" A
# at most 32 inodes to a block (minix v1)
for i in $(seq 40); do : > "s$i"; done
touch B
dd if=/dev/zero of=fill bs=64k status=none 2> /dev/null || true
sync
free0=$(stat -f -c %f .)
truncate -s 0 A
free1=$(stat -f -c %f .)
[ "$free1" -ge $((free0 + len / FS_BS)) ] ||
	fail "statfs: $free0 free blocks before the truncate, $free1 after, $((len / FS_BS)) freed"
xfs_io -c "pwrite -q -S 0x5c 0 $len" -c fsync B || fail "B: no space in what A freed"

# the disk as a power cut now would leave it
size=$(($(numfmt --from=iec "$FS_SIZE") >> 20))
dd if="$DEV" of=/tmp/cut iflag=direct bs=1M count=$size status=none || fail "copy of the disk"
if [ "$FS_TYPE" = minix ]; then
	out=$(DEV=/tmp/cut fs_check_disk) ||
		fail "B holds zones the disk still gives A: $(grep -v '^Forcing' <<< "$out" | head -3)"
else
	rc=0
	out=$(e2fsck -fy /tmp/cut 2>&1) || rc=$?
	[ "$rc" -lt 4 ] || fail "e2fsck -fy could not repair the cut image: $out"
	dups=$(grep -c "^Multiply-claimed block" <<< "$out" || true)
	[ "$dups" = 0 ] || fail "B holds blocks the disk still gives A: $(grep -m3 "^Multiply-claimed block" <<< "$out")"
fi
fs_umount
dd if=/tmp/cut of="$DEV" oflag=direct bs=1M status=none || fail "the copy back to the disk"
rm -f /tmp/cut
fs_mount
[ "$(stat -c %s "$MNT/B")" = "$len" ] || fail "B after the power cut: size $(stat -c %s "$MNT/B"), want $len"
want=$(head -c "$len" /dev/zero | tr '\0' '\134' | md5sum)
[ "$(md5sum < "$MNT/B")" = "$want" ] || fail "B after the power cut differs"
