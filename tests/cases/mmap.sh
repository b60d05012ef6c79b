# mmap reads and writes, msync, and mapped holes.
# fs: ext2 minix
xfs_io -f -c "truncate 1m" -c "pwrite -q -S 0x01 0 64k" f
xfs_io -c "mmap -rw 0 1m" -c "mwrite -S 0x02 4096 8192" -c "mwrite -S 0x03 524288 100" \
	-c "msync -s 0 1m" -c "munmap" f
# Reading a mapped hole gives zeros.
expect_eq "$(xfs_io -c 'mmap -r 0 1m' -c 'mread -v 700000 8' f | head -1 | awk '{print $2$3}')" 0000 "mapped hole"
fs_cycle
expect_eq "$(byte_at f 4096)" 02 "mmap write"
expect_eq "$(byte_at f 524288)" 03 "mmap write into hole"
expect_eq "$(byte_at f 0)" 01 "untouched data"
# A write fault without msync reaches the disk at umount.
xfs_io -c "mmap -rw 0 1m" -c "mwrite -S 0x04 900000 5000" f
fs_cycle
expect_eq "$(byte_at f 900000)" 04 "unsynced mmap write"
