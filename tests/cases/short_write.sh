# A buffered write that copies less than it mapped (its user buffer ends in
# unmapped memory) into a hole below EOF leaves no stale disk contents in
# the blocks it allocated: free space is filled with 0xab first, and every
# byte of the file it did not write reads as zero, from the page cache,
# after drop_caches and after a remount. Also a partial first block, the
# O_DIRECT fallback to buffered writes, and a hole cached as zeroes first.
# fs: ext2 minix
# fs-size: 64M
xfs_io -f -c "pwrite -q -S 0xab -b 1m 0 64m" fill 2> /dev/null || true
sync
rm fill
sync

# other FILE START END CHAR: how many bytes of START..END-1 are not CHAR
# (a tr set); the range must read whole.
other() {
	local n
	n=$(set -o pipefail; tail -c +$(($2 + 1)) "$1" | head -c $(($3 - $2)) | wc -c)
	[ "$n" = $(($3 - $2)) ] || fail "$1: $2..$3 reads $n bytes"
	tail -c +$(($2 + 1)) "$1" | head -c $(($3 - $2)) | tr -d "$4" | wc -c
}
# zeroes FILE START END: bytes START..END-1 of FILE are all zero
zeroes() {
	local n
	n=$(other "$1" "$2" "$3" '\0')
	[ "$n" = 0 ] || fail "$1: $n non-zero bytes in $2..$3 ($4)"
}
# written FILE START END: bytes START..END-1 are the tool's 0x5a
written() {
	local n
	n=$(other "$1" "$2" "$3" Z)
	[ "$n" = 0 ] || fail "$1: $n bytes in $2..$3 not written ($4)"
}

for f in a b c d; do truncate -s 1M $f; done
cat d > /dev/null
expect_eq "$("$TOOLS/shortwrite" a 0 65536 4096)" 4096 "short write into a hole"
expect_eq "$("$TOOLS/shortwrite" b 100 3000 1000)" 1000 "short write inside one block"
expect_eq "$("$TOOLS/shortwrite" -d c 0 65536 4096)" 4096 "short O_DIRECT write into a hole"
expect_eq "$("$TOOLS/shortwrite" d 0 65536 4096)" 4096 "short write into a cached hole"

check() {
	for f in a b c d; do expect_eq "$(stat -c %s $f)" 1048576 "size of $f ($1)"; done
	written a 0 4096 "$1"; zeroes a 4096 1048576 "$1"
	zeroes b 0 100 "$1"; written b 100 1100 "$1"; zeroes b 1100 1048576 "$1"
	written c 0 4096 "$1"; zeroes c 4096 1048576 "$1"
	written d 0 4096 "$1"; zeroes d 4096 1048576 "$1"
}
check cached
drop_caches
check "after drop_caches"
fs_cycle
check "after a remount"
