# Filling the filesystem: ENOSPC, nothing already written is lost, and space
# comes back after unlink.
# fs: ext2 minix
# fs-size: 48M
head -c 1000000 /dev/urandom > keep
md5_keep=$(md5 keep)
truncate -s 1m sparse
sync
expect_fail "No space left on device" dd if=/dev/zero of=fill bs=1M status=none
expect_fail "No space left on device" xfs_io -f -d -c "pwrite -q -b 1m 0 64m" fill-dio
expect_fail "No space left on device" xfs_io -f -c "pwrite -q 0 1m" -c fsync small
# A write fault into a hole needs a block: SIGBUS now, not data lost later.
set +e
xfs_io -c "mmap -rw 0 1m" -c "mwrite -S 0x61 0 4096" sparse 2> /dev/null
rc=$?
set -e
expect_eq "$rc" 135 "exit status of a write fault on a full filesystem (SIGBUS)"
expect_eq "$(tr -d '\0' < sparse | wc -c)" 0 "data of the failed write fault"
sync
expect_eq "$(md5 keep)" "$md5_keep" "file written before ENOSPC"
fs_cycle
expect_eq "$(md5 keep)" "$md5_keep" "file written before ENOSPC, from disk"
rm -f fill fill-dio small
xfs_io -f -c "pwrite -q 0 8m" -c fsync after || fail "write after freeing space"
