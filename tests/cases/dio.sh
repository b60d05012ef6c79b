# O_DIRECT: aligned I/O works; unaligned I/O fails with EINVAL, as in stock ext2.
xfs_io -f -d -c "pwrite -q -S 0x5a -b 65536 0 1m" f || fail "aligned DIO write"
xfs_io -d -c "pwrite -q -S 0x5b 4096 4096" f || fail "aligned DIO overwrite"
expect_eq "$(byte_at f 4096 -d)" 5b "DIO read"
expect_fail "Invalid argument" xfs_io -d -c "pwrite -q 1 4096" f
expect_fail "Invalid argument" xfs_io -d -c "pread -q 0 100" f
# DIO extending the file and writing into a hole
xfs_io -d -c "pwrite -q -S 0x5c 4m 64k" f || fail "DIO write past EOF"
expect_eq "$(stat -c %s f)" $((4 * 1048576 + 65536)) "size after extending DIO write"
fs_cycle
expect_eq "$(byte_at f 2m)" 00 "hole before DIO extension"
expect_eq "$(byte_at f 4m)" 5c "DIO extension content"
expect_eq "$(byte_at f 8192)" 5a "first DIO write"
