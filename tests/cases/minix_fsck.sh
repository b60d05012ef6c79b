# The check after every minix case (fs_check_disk: fsck.minix -f and its
# output, tools/minix3 on v3) catches a damaged filesystem: behind the
# driver's back, clear the bitmap bit of a file's inode (fsck.minix -f
# fails), then of its first zone (fsck.minix -f says so but exits 0).
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

# A zone the file uses, marked free in the zone bitmap: fsck.minix prints
# "Zone N: not in use, counted=1" but exits 0, so fs_check_disk, which the
# runner uses, must fail on its output.
u() { od -An -tu"$1" -j "$2" -N"$1" "$DEV" | tr -d ' '; } # BYTES OFFSET
if [ "$MINIX_VERSION" = 3 ]; then
	imap=$(u 2 $((1024 + 6))) zmap=$(u 2 $((1024 + 8))) first=$(u 2 $((1024 + 10)))
else
	imap=$(u 2 $((1024 + 4))) zmap=$(u 2 $((1024 + 6))) first=$(u 2 $((1024 + 8)))
fi
if [ "$MINIX_VERSION" = 1 ]; then isize=32 zat=14 zbytes=2; else isize=64 zat=24 zbytes=4; fi
zone=$(u $zbytes $(((2 + imap + zmap) * 1024 + (ino - 1) * isize + zat)))
[ "$zone" -ge "$first" ] || fail "f's first zone $zone is not a data zone (first $first)"
off=$(((2 + imap) * 1024 + (zone - first + 1) / 8))
byte=$(u 1 "$off")
printf "\\x$(printf %02x $((byte & ~(1 << ((zone - first + 1) % 8)) & 255)))" |
	dd of="$DEV" bs=1 seek="$off" conv=notrunc status=none
fsck.minix -f "$DEV" > /dev/null 2>&1 && echo "fsck.minix -f exits 0 with f's zone $zone marked free"
if fs_check_disk > /dev/null; then
	fail "fs_check_disk passed a filesystem with a zone in use marked free"
fi
printf "\\x$(printf %02x "$byte")" | dd of="$DEV" bs=1 seek="$off" conv=notrunc status=none
fs_check_disk > /dev/null || fail "fs_check_disk fails after the zone's bit is back"
