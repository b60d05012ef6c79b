# A file that grows reads as zeroes between its old end and the new data,
# even where a store through mmap wrote past the old end (the mapping
# reaches to the end of the page, and writeback clears that part only while
# it is past EOF): after an extending truncate, a buffered write and a
# direct write that start past EOF, and a truncate that grows the file
# within its last block. Checked in the page cache, after drop_caches and
# after a remount. A write past EOF that fails (its user buffer faults)
# leaves the size as it was.
# fs: ext2 minix
# fs-size: 64M

# zeroes FILE START END WHAT: bytes START..END-1 of FILE are all zero
zeroes() {
	local n
	n=$(tail -c +$(($2 + 1)) "$1" | head -c $(($3 - $2)) | tr -d '\0' | wc -c)
	[ "$n" = 0 ] || fail "$1: $n non-zero bytes in $2..$3 ($4)"
}

# polluted FILE: 100 bytes of data, then 0xaa stored through mmap to the
# end of the page (past EOF).
polluted() {
	xfs_io -f -c "pwrite -q -S 0x11 0 100" -c fsync "$1"
	xfs_io -c "mmap -rw 0 4096" -c "mwrite -S 0xaa 100 3996" -c munmap "$1"
	expect_eq "$(stat -c %s "$1")" 100 "$1: size after the store past EOF"
}

polluted t
truncate -s 8192 t
polluted w
xfs_io -c "pwrite -q -S 0x22 6000 100" w
polluted d
xfs_io -d -c "pwrite -q -S 0x33 8192 4096" d
polluted s
truncate -s 200 s
# the zeroing before a write past EOF must not grow the file by itself
polluted f
expect_eq "$("$TOOLS/shortwrite" f 6000 4096 0)" -14 "write past EOF from an unmapped buffer"
expect_eq "$(stat -c %s f)" 100 "size after the failed write past EOF"

check() {
	zeroes t 100 8192 "$1, extending truncate"
	zeroes w 100 6000 "$1, write past EOF"
	zeroes d 100 8192 "$1, direct write past EOF"
	zeroes s 100 200 "$1, truncate within the last block"
	expect_eq "$(tail -c +6001 w | head -c 100 | tr -d '"' | wc -c)" 0 "$1: the data written past EOF"
	expect_eq "$(stat -c %s d)" 12288 "$1: size after the direct write"
	expect_eq "$(stat -c %s f)" 100 "$1: size after the failed write"
}
check "page cache"
sync
echo 3 > /proc/sys/vm/drop_caches
check "after drop_caches"
fs_umount
fs_mount "$FS_MOUNT"
cd "$MNT"
check "after a remount"
