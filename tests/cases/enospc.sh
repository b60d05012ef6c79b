# Filling the filesystem: ENOSPC, nothing already written is lost, and space
# comes back after unlink.
# fs-size: 48M
head -c 1000000 /dev/urandom > keep
md5_keep=$(md5 keep)
sync
expect_fail "No space left on device" dd if=/dev/zero of=fill bs=1M status=none
expect_fail "No space left on device" xfs_io -f -d -c "pwrite -q -b 1m 0 64m" fill-dio
expect_fail "No space left on device" xfs_io -f -c "pwrite -q 0 1m" -c fsync small
sync
expect_eq "$(md5 keep)" "$md5_keep" "file written before ENOSPC"
fs_cycle
expect_eq "$(md5 keep)" "$md5_keep" "file written before ENOSPC, from disk"
rm -f fill fill-dio small
xfs_io -f -c "pwrite -q 0 8m" -c fsync after || fail "write after freeing space"
