# Crafted directories are refused with a clean error, never a hang or a
# write past a block: directory x's first block is the inode table's first
# block (cached as an inode-table block, never walked as a directory), and
# directory y's "." entry spans its whole first block, so it has no ".."
# for a rename to rewrite. Listing and lookup in x and renaming y fail
# with "Structure needs cleaning", the kernel log names both, the rest of
# the filesystem works, and e2fsck repairs the damage.
# setup: none
# timeout: 300
fs_mkfs
fs_mount
cd "$MNT"
mkdir a b a/x a/y
touch a/x/f
fs_umount
itable=$(group_field 0 "Inode table")
[ -n "$itable" ] || fail "no inode table block from dumpe2fs"
debugfs -w -R "sif /a/x block[0] $itable" "$DEV" 2> /dev/null
yblk=$(fs_debugfs "blocks /a/y" | awk '{ print $1 }')
[ -n "$yblk" ] || fail "no block of a/y from debugfs"
printf "\\x$(printf %02x $((FS_BS & 255)))\\x$(printf %02x $((FS_BS >> 8)))" |
	dd of="$DEV" bs=1 seek=$((yblk * FS_BS + 4)) conv=notrunc status=none
blockdev --flushbufs "$DEV"

fs_mount
dmesg -c > /dev/null
expect_fail "Structure needs cleaning" ls "$MNT/a/x"
expect_fail "Structure needs cleaning" stat "$MNT/a/x/f"
dmesg | grep -q "block $itable is cached as ext2 inode table, asked for as ext2 directory" ||
	fail "no kernel message naming block $itable"
expect_fail "Structure needs cleaning" mv "$MNT/a/y" "$MNT/b/"
dmesg | grep -q "directory #[0-9]* has no '..' entry" || fail "no kernel message about y's '..'"
expect_eq "$(ls "$MNT/a" | tr '\n' ' ')" "x y " "listing of a"
echo new > "$MNT/b/new" || fail "create outside the damage"
fs_umount
e2fsck -fy "$DEV" > /dev/null 2>&1 && fail "e2fsck found nothing to repair"
e2fsck -fy "$DEV" > /dev/null 2>&1 || true
fs_fsck
