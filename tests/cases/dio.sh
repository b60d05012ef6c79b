# O_DIRECT: aligned I/O works; unaligned I/O fails with EINVAL, as in stock ext2.
# fs: ext2 minix
xfs_io -f -d -c "pwrite -q -S 0x5a -b 65536 0 1m" f || fail "aligned DIO write"
xfs_io -d -c "pwrite -q -S 0x5b 4096 4096" f || fail "aligned DIO overwrite"
expect_eq "$(byte_at f 4096 -d)" 5b "DIO read"
expect_fail "Invalid argument" xfs_io -d -c "pwrite -q 1 4096" f
expect_fail "Invalid argument" xfs_io -d -c "pread -q 0 100" f
# DIO extending the file and writing into a hole
xfs_io -d -c "pwrite -q -S 0x5c 4m 64k" f || fail "DIO write past EOF"
expect_eq "$(stat -c %s f)" $((4 * 1048576 + 65536)) "size after extending DIO write"
# DIO writes into a hole inside the file, and across a hole into data.
xfs_io -d -c "truncate 8m" -c "pwrite -q -S 0x5d 6m 64k" -c "pwrite -q -S 0x5e 4m 128k" f ||
	fail "DIO write into a hole"
fs_cycle
expect_eq "$(byte_at f 2m)" 00 "hole before DIO extension"
expect_eq "$(byte_at f 6m)" 5d "DIO write into a hole"
expect_eq "$(byte_at f $((4 * 1048576 + 98304)))" 5e "DIO write from data into a hole"
expect_eq "$(byte_at f $((7 * 1048576)))" 00 "hole after DIO writes"
expect_eq "$(byte_at f 8192)" 5a "first DIO write"
