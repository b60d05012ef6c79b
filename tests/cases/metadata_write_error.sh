# A metadata write that fails (a block bitmap written through fs_buf, made to
# fail with dm-error) is reported by syncfs and the kernel log and the block
# stays dirty; once the device works again the next syncfs writes it, and
# the filesystem is whole: the files read back and e2fsck is clean.
# setup: none
fs_mkfs
bitmap=$(group_field 0 "Block bitmap")
[ -n "$bitmap" ] || fail "no group 0 block bitmap from dumpe2fs"
dm_block_error meta-err "$bitmap"
# set -e applies in the trap too: a failing umount there would skip the remove.
trap 'cd /; umount "$MNT" 2> /dev/null || true; dmsetup remove meta-err 2> /dev/null || true' EXIT
dm=$DM_DEV name=$DM_NAME

DEV=$dm fs_mount
head -c 1000000 /dev/urandom > "$MNT/a"
sync
[ "$(fs_buf_stat "$name" reads)" -ge 1 ] || fail "the bitmap was not read through fs_buf"

dm_swap_table meta-err "$DM_BAD"
dmesg -c > /dev/null
head -c 1000000 /dev/urandom > "$MNT/b"
xfs_io -c fsync "$MNT/b"
out=$(xfs_io -c syncfs "$MNT" 2>&1) || true
grep -q "Input/output error" <<< "$out" || fail "syncfs did not report the failed write: '$out'"
dmesg | grep -q "writing metadata block $bitmap failed" || fail "no kernel message for block $bitmap"
[ "$(fs_buf_stat "$name" write_errors)" -ge 1 ] || fail "no write error counted"
[ "$(fs_buf_stat "$name" dirty)" -ge 1 ] || fail "the failed block is no longer dirty"

dm_swap_table meta-err "$DM_GOOD"
out=$(xfs_io -c syncfs "$MNT" 2>&1) || true
[ -z "$out" ] || fail "syncfs after the device recovered: $out"
expect_eq "$(fs_buf_stat "$name" dirty)" 0 "dirty buffers after the retry"
sum_a=$(md5 "$MNT/a") sum_b=$(md5 "$MNT/b")
cd /
umount "$MNT" || fail "umount"
DEV=$dm fs_mount
expect_eq "$(md5 "$MNT/a")" "$sum_a" "a after remount"
expect_eq "$(md5 "$MNT/b")" "$sum_b" "b after remount"
cd /
umount "$MNT"
dmsetup remove meta-err
fs_fsck
