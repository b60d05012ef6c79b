# The write-error policy (fs_buf max_retries and retry_secs, ext2 errors=):
# a block bitmap that can never be written (dm-error under it) is retried
# max_retries times (2 here, retry_secs 0), each failure a rate-limited
# message, while fsfreeze and syncfs report the error; then the block is given up: one ext2 error, the
# filesystem goes read-only (errors=remount-ro), nothing stays dirty, umount
# does not hang, and the superblock says the filesystem has errors, which
# e2fsck finds and repairs.
# setup: none
fs_mkfs
bitmap=$(group_field 0 "Block bitmap")
[ -n "$bitmap" ] || fail "no group 0 block bitmap from dumpe2fs"
dm_block_error meta-lost "$bitmap"
trap 'cd /; umount "$MNT" 2> /dev/null || true; dmsetup remove meta-lost 2> /dev/null || true' EXIT
dm=$DM_DEV name=$DM_NAME
knob=/sys/kernel/debug/fs_buf/$name/max_retries
secs=/sys/kernel/debug/fs_buf/$name/retry_secs

DEV=$dm fs_mount errors=remount-ro
head -c 100000 /dev/urandom > "$MNT/a"
sync
[ -w "$knob" ] && [ -w "$secs" ] || fail "no max_retries and retry_secs knobs in debugfs ($knob)"
echo 2 > "$knob"
echo 0 > "$secs"
dm_swap_table meta-lost "$DM_BAD"
dmesg -c > /dev/null
head -c 100000 /dev/urandom > "$MNT/b"
expect_fail "Input/output error" fsfreeze -f "$MNT"
expect_fail "Input/output error" xfs_io -c syncfs "$MNT"
expect_eq "$(fs_buf_stat "$name" lost)" 0 "blocks given up after 2 failed writes"
grep -q " rw[ ,]" <<< "$(grep " $MNT " /proc/mounts)" || fail "read-only before the block was given up"
xfs_io -c syncfs "$MNT" > /dev/null 2>&1 || true
expect_eq "$(fs_buf_stat "$name" lost)" 1 "blocks given up after 3 failed writes"
expect_eq "$(fs_buf_stat "$name" dirty)" 0 "dirty buffers after the block was given up"
expect_eq "$(dmesg | grep -c "EXT2-fs ($name): error: ext2_metadata_write_error: writing metadata block $bitmap failed: -5, given up")" 1 \
	"ext2 errors for the lost block"
expect_eq "$(dmesg | grep -c "writing metadata block $bitmap failed: -5, will retry")" 2 "messages for the retried failures"
grep -q " ro[ ,]" <<< "$(grep " $MNT " /proc/mounts)" || fail "not read-only after the lost block (errors=remount-ro)"
expect_fail "Read-only file system" touch "$MNT/c"
cd /
umount "$MNT" || fail "umount"
dmsetup remove meta-lost
dumpe2fs -h "$DEV" 2> /dev/null | grep -q "^Filesystem state:.*with errors" ||
	fail "the superblock does not say the filesystem has errors"
e2fsck -fn "$DEV" > /dev/null 2>&1 && fail "e2fsck -fn finds nothing after a lost bitmap block"
e2fsck -fy "$DEV" > /dev/null 2>&1 || [ $? -le 1 ] || fail "e2fsck -fy could not repair"
