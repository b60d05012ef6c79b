# A block bitmap that does not mark its group's own metadata as used is
# refused when it is read (ext2's fs_buf verifier): the allocation that
# needs it fails with "Structure needs cleaning", the kernel log names the
# group, files already written still read, nothing crashes, and no block of
# the inode table is handed out.
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
expect_fail "Structure needs cleaning" dd if=/dev/zero of="$MNT/new" bs=64k count=1 conv=fsync
dmesg | grep -q "Invalid block bitmap - block_group = 0" || fail "no kernel message naming the bad bitmap"
fs_umount
# Only the planted damage: e2fsck repairs the bitmap and nothing else.
out=$(e2fsck -fy "$DEV" 2>&1) && fail "e2fsck found nothing to repair"
grep -q "Block bitmap differences" <<< "$out" || fail "e2fsck: $out"
grep -q "Multiply-claimed\|Inode table .* conflicts" <<< "$out" && fail "a metadata block was allocated: $out"
fs_fsck
