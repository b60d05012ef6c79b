# The e2fsck -fn check after every case catches a damaged filesystem: mark a
# block of a file free behind the driver's back and e2fsck -fn must fail.
# setup: none
# block-sizes: 4096
fs_mkfs
fs_mount
head -c 100000 /dev/urandom > "$MNT/f"
ino=$(stat -c %i "$MNT/f")
fs_umount
e2fsck -fn "$DEV" > /dev/null || fail "e2fsck -fn fails on a clean filesystem"
blk=$(debugfs -R "bmap <$ino> 0" "$DEV" 2> /dev/null)
debugfs -w -R "freeb $blk" "$DEV" 2> /dev/null
if e2fsck -fn "$DEV" > /dev/null 2>&1; then
	fail "e2fsck -fn passed a filesystem with an in-use block marked free"
fi
# Repair it so the runner's own check sees a clean filesystem again.
e2fsck -fy "$DEV" > /dev/null 2>&1 || true
e2fsck -fn "$DEV" > /dev/null || fail "e2fsck could not repair the damage"
