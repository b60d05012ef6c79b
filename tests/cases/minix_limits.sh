# minix's limits per layout: names up to the length mkfs.minix gives (30
# bytes for v1 and v2, 60 for v3), files up to the superblock's maximum size
# (v1: 7 direct, 512 indirect and 512 * 512 double indirect blocks; v2, v3:
# 2 GiB - 1 as mkfs.minix writes it), and for v1, 16-bit zone numbers: 64 MiB
# of a bigger device at most.
# fs: minix
case $MINIX_VERSION in
1) namelen=30 max=268966912 ;;
2) namelen=30 max=2147483647 ;;
3) namelen=60 max=2147483647 ;;
esac
name=$(head -c "$namelen" /dev/zero | tr '\0' n)
touch "$name" || fail "a name of $namelen bytes"
expect_fail "File name too long" touch "${name}x"
xfs_io -f -c "pwrite -q -S 0x6d $((max - 1)) 1" big || fail "writing the last byte a file can have"
expect_eq "$(stat -c %s big)" "$max" "size at the limit"
expect_fail "File too large" xfs_io -c "pwrite -q $max 1" big
expect_fail "File too large" truncate -s $((max + 1)) big
expect_fail "File too large" xfs_io -d -c "pwrite -q $(((max + 511) / 512 * 512)) 512" big
if [ "$MINIX_VERSION" = 1 ]; then
	blocks=$(stat -f -c %b .)
	[ "$blocks" -le 65535 ] || fail "a v1 filesystem of $blocks blocks"
fi
fs_cycle
expect_eq "$(byte_at big $((max - 1)))" 6d "the last byte, from the disk"
[ -e "$name" ] || fail "the longest name, from the disk"
rm big
