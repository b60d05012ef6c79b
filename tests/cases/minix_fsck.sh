# The fsck.minix -f check after every minix case catches a damaged
# filesystem: clear the bitmap bit of a file's inode behind the driver's
# back and fsck.minix -f must fail.
# fs: minix
# setup: none
fs_mkfs
fs_mount
echo data > "$MNT/f"
ino=$(stat -c %i "$MNT/f")
fs_umount
fsck.minix -f "$DEV" > /dev/null || fail "fsck.minix -f fails on a clean filesystem"
# The inode bitmap follows the boot block and the superblock, bit N for
# inode N, least significant bit first.
off=$((2 * 1024 + ino / 8))
byte=$(od -An -tu1 -j "$off" -N1 "$DEV" | tr -d ' ')
printf "\\x$(printf %02x $((byte & ~(1 << (ino % 8)) & 255)))" |
	dd of="$DEV" bs=1 seek="$off" conv=notrunc status=none
if fsck.minix -f "$DEV" > /dev/null 2>&1; then
	fail "fsck.minix -f passed a filesystem with an in-use inode marked free"
fi
# Put the bit back: the runner's own check must see a clean filesystem.
printf "\\x$(printf %02x "$byte")" | dd of="$DEV" bs=1 seek="$off" conv=notrunc status=none
fsck.minix -f "$DEV" > /dev/null || fail "fsck.minix -f fails after the bit is back"
