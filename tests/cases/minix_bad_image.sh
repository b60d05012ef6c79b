# Crafted minix images get a clear error, never a crash, a WARN or a hang:
# superblocks whose counts cannot be right are refused at mount, and an
# indirect block pointing outside the data zones and a symlink whose size
# cannot fit its block fail the one operation that meets them (a read with
# EIO, following the symlink with EUCLEAN, "Structure needs cleaning"), and
# an inode whose zones point outside them fails its lookup with EUCLEAN.
# fs: minix
# fs-size: 16M
# setup: none

sb=1024
if [ "$MINIX_VERSION" = 3 ]; then
	ninodes="0 4" imap="6 2" zmap="8 2" first="10 2" logzone="12 2"
else
	ninodes="0 2" imap="4 2" zmap="6 2" first="8 2" logzone="10 2"
fi
refused() { # FIELD-OFFSET BYTES VALUE WHAT
	fs_mkfs
	dev_le $((sb + $1)) "$2" "$3"
	if mount -t minix "$DEV" "$MNT" 2> /dev/null; then
		umount "$MNT"
		fail "mounted an image with $4"
	fi
}
refused $ninodes 0 "no inodes"
refused $imap 0 "no inode bitmap"
refused $zmap 0 "no zone bitmap"
refused $first 1 "data zones over the superblock"
refused $first 5 "data zones over the inode table"
refused $logzone 1 "zones of two blocks"
if [ "$MINIX_VERSION" = 3 ]; then
	refused 28 2 3000 "blocks of 3000 bytes"
	refused 28 2 65535 "blocks of 65535 bytes"
fi

# A file with an indirect block, and a symlink.
fs_mkfs
fs_mount
head -c 20000 /dev/urandom > "$MNT/f"
ln -s target "$MNT/link"
fino=$(stat -c %i "$MNT/f") lino=$(stat -c %i "$MNT/link")
fs_umount
minix_layout
ind=$(dev_le $(($(minix_ino_off "$fino") + MINIX_ZONES + 7 * MINIX_ZSIZE)) "$MINIX_ZSIZE")
[ "$ind" -gt 0 ] || fail "the file has no indirect block"
dev_le $((ind * 1024)) "$MINIX_ZSIZE" 65535
dev_le $(($(minix_ino_off "$lino") + MINIX_SIZE)) 4 0
fs_mount
# the page cache reports any failed read as EIO
expect_fail "Input/output error" cat "$MNT/f"
# the first folio has only direct blocks
expect_eq "$(head -c 4096 "$MNT/f" | wc -c)" 4096 "the direct blocks of the file"
expect_fail "Structure needs cleaning" cat "$MNT/link"
fs_umount
dev_le $(($(minix_ino_off "$lino") + MINIX_SIZE)) 4 5000
fs_mount
expect_fail "Structure needs cleaning" cat "$MNT/link"
fs_umount
# A file whose first zone points at the inode table is refused when it is
# looked up (before, reading it showed the inode table and writing it wrote
# there); a device node keeps its number in that zone. So is an inode of no
# known type whose first zone points there (before, the lookup gave EIO and
# unlinking it would have freed its zones).
# The same for a directory whose last zone (double indirect on v1, triple
# on v2 and v3) lies past the end of the filesystem; a root directory
# like that fails the mount.
fs_mkfs
fs_mount
echo data > "$MNT/g"
echo data > "$MNT/h"
mkdir "$MNT/d"
mknod "$MNT/null" c 1 3
gino=$(stat -c %i "$MNT/g") dino=$(stat -c %i "$MNT/d") hino=$(stat -c %i "$MNT/h")
fs_umount
if [ "$MINIX_VERSION" = 1 ]; then
	nzones=$(dev_le $((sb + 2)) 2) last=8
else
	nzones=$(dev_le $((sb + 20)) 4) last=9
fi
dev_le $(($(minix_ino_off "$gino") + MINIX_ZONES)) "$MINIX_ZSIZE" "$MINIX_ITABLE"
dev_le $(($(minix_ino_off "$hino") + MINIX_ZONES)) "$MINIX_ZSIZE" "$MINIX_ITABLE"
dev_le "$(minix_ino_off "$hino")" 2 $((8#030644))
dev_le $(($(minix_ino_off "$dino") + MINIX_ZONES + last * MINIX_ZSIZE)) "$MINIX_ZSIZE" $((nzones + 5))
fs_mount
expect_fail "Structure needs cleaning" cat "$MNT/g"
expect_fail "Structure needs cleaning" ls "$MNT/d"
expect_fail "Structure needs cleaning" rm "$MNT/h"
expect_eq "$(stat -c %t,%T "$MNT/null")" "1,3" "the device number of the node"
fs_umount
dev_le $(($(minix_ino_off 1) + MINIX_ZONES)) "$MINIX_ZSIZE" "$MINIX_ITABLE"
if mount -t minix "$DEV" "$MNT" 2> /dev/null; then
	umount "$MNT"
	fail "mounted an image whose root directory points at the inode table"
fi
# leave a clean filesystem for the runner's fsck
fs_mkfs
