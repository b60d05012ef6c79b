# busy_blocks on minix: a zone a truncate freed is not given to another file
# while the disk still names it in the old one. File A (with indirect zones)
# is on disk and the filesystem is full; A is cut to nothing, its inode not
# written, and B, as large, is written and fsynced into the zones A gave up
# (its inode in another table block).
# The disk as it is then (a power cut) must pass fsck.minix, and B must read
# back from it. The freed zones count as free in statfs at once.
# fs: minix
# fs-size: 16M
# metadata stays in memory unless something writes it
sysctl -q vm.dirty_writeback_centisecs=0 vm.dirty_expire_centisecs=360000
len=$((2 * 1024 * 1024))
xfs_io -f -c "pwrite -q -S 0xaa 0 $len" A
# B's inode in another block of the inode table than A's (at most 32 to a
# block), or B's fsync would write A's cut inode too
for i in $(seq 40); do : > "s$i"; done
touch B
dd if=/dev/zero of=fill bs=64k status=none 2> /dev/null || true
sync
free0=$(stat -f -c %f .)
truncate -s 0 A
free1=$(stat -f -c %f .)
[ "$free1" -ge $((free0 + len / 1024)) ] ||
	fail "statfs: $free0 free zones before the truncate, $free1 after, $((len / 1024)) freed"
xfs_io -c "pwrite -q -S 0x5c 0 $len" -c fsync B || fail "B: no space in what A freed"

# the disk as a power cut now would leave it
size=$(($(numfmt --from=iec "$FS_SIZE") >> 20))
dd if="$DEV" of=/tmp/cut iflag=direct bs=1M count=$size status=none || fail "copy of the disk"
out=$(DEV=/tmp/cut fs_check_disk) ||
	fail "the disk after B's fsync (a power cut then) does not pass fsck.minix: $(grep -v '^Forcing' <<< "$out" | head -3)"
fs_umount
dd if=/tmp/cut of="$DEV" oflag=direct bs=1M status=none || fail "the copy back to the disk"
rm -f /tmp/cut
fs_mount
[ "$(stat -c %s "$MNT/B")" = "$len" ] || fail "B after the power cut: size $(stat -c %s "$MNT/B"), want $len"
want=$(head -c "$len" /dev/zero | tr '\0' '\134' | md5sum)
[ "$(md5sum < "$MNT/B")" = "$want" ] || fail "B after the power cut differs"
