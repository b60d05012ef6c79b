# A block bitmap that does not mark its group's own metadata as used is
# refused when it is read (ext2's fs_buf verifier): the kernel log names the
# group once, allocations go to the other groups (new files are written
# whole, none of their blocks in the bad group), files already written
# still read, nothing crashes, and no block of the inode table is handed
# out.
# setup: none
fs_mkfs
fs_mount
head -c 100000 /dev/urandom > "$MNT/old"
sum=$(md5 "$MNT/old")
fs_umount

bitmap=$(group_field 0 "Block bitmap")
itable=$(group_field 0 "Inode table")
[ -n "$bitmap" ] && [ -n "$itable" ] || fail "no group 0 layout from dumpe2fs"
# Clear the bit of the inode table's first block (bit 0 is the group's first
# block: block 1 with 1 KiB blocks, 0 otherwise).
bit=$((itable - (FS_BS == 1024 ? 1 : 0)))
off=$((bitmap * FS_BS + bit / 8))
byte=$(od -An -tu1 -j "$off" -N1 "$DEV" | tr -d ' ')
printf "$(printf '\\%03o' $((byte & ~(1 << (bit % 8)))))" |
	dd of="$DEV" bs=1 seek="$off" conv=notrunc status=none
blockdev --flushbufs "$DEV"

fs_mount
dmesg -c > /dev/null
expect_eq "$(md5 "$MNT/old")" "$sum" "file written before the damage"
for i in 1 2 3; do
	dd if=/dev/zero of="$MNT/new$i" bs=64k count=4 conv=fsync status=none ||
		fail "a write with group 0's bitmap bad (file $i)"
done
expect_eq "$(dmesg | grep -c "Invalid block bitmap - block_group = 0")" 1 "reports of the bad bitmap"
# group 0 holds blocks up to the first block of group 1
g1=$(dumpe2fs "$DEV" 2> /dev/null | sed -n 's/^Group 1: (Blocks \([0-9]*\)-.*/\1/p')
[ -n "$g1" ] || fail "no group 1 from dumpe2fs"
for i in 1 2 3; do
	xfs_io -c fiemap "$MNT/new$i" | awk -v spb=$((FS_BS / 512)) -v g1="$g1" -v f="new$i" '
		/^ *[0-9]+:/ { split($3, r, "[.]+"); if (r[1] / spb < g1) { print f " has block " r[1] / spb " in group 0"; exit 1 } }' ||
		fail "a block was allocated in the group with the bad bitmap"
done
fs_umount
# Only the planted damage: e2fsck repairs the bitmap and nothing else.
out=$(e2fsck -fy "$DEV" 2>&1) && fail "e2fsck found nothing to repair"
grep -q "Block bitmap differences" <<< "$out" || fail "e2fsck: $out"
grep -q "Multiply-claimed\|Inode table .* conflicts" <<< "$out" && fail "a metadata block was allocated: $out"
fs_fsck
