# A store through a shared mapping into the page that held EOF, after a
# direct write moved EOF past that page, is kept. The blocks of that page
# past the old EOF are holes, and the page was writable from a fault taken
# before: unless the extension write-protects it, the store dirties the page
# without a fault, writeback skips the holes, and the bytes are lost (seen
# at 1 KiB blocks, where a page holds four).
# fs: ext2 minix
# fs-size: 64M
fs_cycle
xfs_io -f -d -c "pwrite -q -S 0x11 0 1024" \
	-c "mmap -w 0 4096" -c "mwrite -S 0x22 0 1024" \
	-c "pwrite -q -S 0x33 8192 4096" \
	-c "mwrite -S 0x44 2048 1024" -c "msync -s 0 4096" -c "munmap" \
	"$MNT/f" || fail "xfs_io"
fs_cycle
expect_eq "$(stat -c %s "$MNT/f")" 12288 "size after the direct write"
expect_eq "$(byte_at "$MNT/f" 0)" 22 "the first store"
expect_eq "$(byte_at "$MNT/f" 2048)" 44 "a store past the old EOF, after the direct write"
expect_eq "$(byte_at "$MNT/f" 1024)" 00 "the hole between"
expect_eq "$(byte_at "$MNT/f" 8192)" 33 "the direct write"
