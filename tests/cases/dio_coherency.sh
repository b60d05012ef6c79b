# Buffered and direct I/O see each other's writes.
# fs: ext2 minix
xfs_io -f -c "pwrite -q -S 0x11 0 256k" f
# Dirty page cache, then a DIO read must see it.
xfs_io -c "pwrite -q -S 0x22 8192 4096" f
expect_eq "$(byte_at f 8192 -d)" 22 "DIO read after buffered write"
# Cached pages, then a DIO write: buffered reads must not see stale cache.
xfs_io -c "pread -q 0 256k" f
xfs_io -d -c "pwrite -q -S 0x33 16384 8192" f
expect_eq "$(byte_at f 20480)" 33 "buffered read after DIO write"
# mmap'd pages and DIO
xfs_io -c "mmap -rw 0 256k" -c "mwrite -S 0x44 32768 4096" -c "msync -s 0 256k" f
expect_eq "$(byte_at f 32768 -d)" 44 "DIO read after mmap write"
fs_cycle
expect_eq "$(byte_at f 8192)" 22 "on disk: buffered"
expect_eq "$(byte_at f 16384)" 33 "on disk: DIO"
expect_eq "$(byte_at f 32768)" 44 "on disk: mmap"
