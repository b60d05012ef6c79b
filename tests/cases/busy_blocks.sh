# A block a truncate freed is not given to another file while the disk still
# names it in the old one. File A (with indirect blocks) is on disk and the
# filesystem is full; A is cut to nothing, its inode not written, and B, as
# large, is written and fsynced into the blocks A gave up. The disk as it is
# then (a power cut) must repair with e2fsck -fy without a block claimed
# twice, and B must read back. The freed blocks count as free in statfs at
# once, and B's allocation, finding nothing else free, commits them.
# fs-size: 16M
# block-sizes: 1024 4096
# metadata stays in memory unless something writes it
sysctl -q vm.dirty_writeback_centisecs=0 vm.dirty_expire_centisecs=360000
len=$((2 * 1024 * 1024))
xfs_io -f -c "pwrite -q -S 0xaa 0 $len" A
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
dd if="$DEV" of=/tmp/cut iflag=direct bs=1M count=$(($(numfmt --from=iec "$FS_SIZE") >> 20)) \
	status=none || fail "copy of the disk"
rc=0
out=$(e2fsck -fy /tmp/cut 2>&1) || rc=$?
[ "$rc" -lt 4 ] || fail "e2fsck -fy could not repair the cut image: $out"
dups=$(grep -c "^Multiply-claimed block" <<< "$out" || true)
[ "$dups" = 0 ] || fail "B holds blocks the disk still gives A: $(grep -m3 "^Multiply-claimed block" <<< "$out")"
size=$(debugfs -R "stat /B" /tmp/cut 2> /dev/null | sed -n 's/.*Size: \([0-9]*\).*/\1/p' | head -1)
[ "$size" = "$len" ] || fail "B after the power cut and e2fsck -fy: size '$size', want $len"
debugfs -R "dump /B /tmp/B" /tmp/cut 2> /dev/null
want=$(head -c "$len" /dev/zero | tr '\0' '\134' | md5sum)
[ "$(md5sum < /tmp/B)" = "$want" ] || fail "B after the power cut and e2fsck -fy differs"
rm -f /tmp/cut /tmp/B
