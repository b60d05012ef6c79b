# Fast (in-inode) and slow (block) symlinks survive a remount. A slow
# symlink's block is read through fs_buf; the longest target is one byte
# short of a block.
short=target-short
long=$(printf 'very-long-target-%0200d' 7)
longest=$(printf 'z%.0s' $(seq 1 $((FS_BS - 1))))
via=$(printf './%.0s' $(seq 1 40))$short	# a slow symlink that resolves
ln -s "$short" fast
ln -s "$long" slow
ln -s "$longest" longest
ln -s "$via" slow-to-target
expect_fail "File name too long" ln -s "${longest}z" too-long
ln -s "$(printf 'x%.0s' $(seq 1 59))" edge59
ln -s "$(printf 'y%.0s' $(seq 1 60))" edge60
echo data > target-short
fs_cycle
reads0=$(fs_buf_stat "$DEV" reads)
expect_eq "$(readlink slow)" "$long" "slow symlink"
[ "$(fs_buf_stat "$DEV" reads)" -gt "$reads0" ] || fail "the slow symlink was not read through fs_buf"
expect_eq "$(readlink fast)" "$short" "fast symlink"
expect_eq "$(readlink longest)" "$longest" "symlink of $((FS_BS - 1)) bytes"
expect_eq "$(readlink edge59 | wc -c)" 60 "59-byte symlink"
expect_eq "$(readlink edge60 | wc -c)" 61 "60-byte symlink"
expect_eq "$(cat fast)" data "follow fast symlink"
expect_eq "$(cat slow-to-target)" data "follow slow symlink"
expect_eq "$(stat -c %b fast)" 0 "fast symlink uses no blocks"
[ "$(stat -c %b slow)" -gt 0 ] || fail "slow symlink has no block"
rm slow longest
