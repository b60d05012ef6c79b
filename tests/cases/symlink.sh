# Fast (in-inode) and slow (block) symlinks survive a remount.
short=target-short
long=$(printf 'very-long-target-%0200d' 7)
ln -s "$short" fast
ln -s "$long" slow
ln -s "$(printf 'x%.0s' $(seq 1 59))" edge59
ln -s "$(printf 'y%.0s' $(seq 1 60))" edge60
echo data > target-short
fs_cycle
expect_eq "$(readlink fast)" "$short" "fast symlink"
expect_eq "$(readlink slow)" "$long" "slow symlink"
expect_eq "$(readlink edge59 | wc -c)" 60 "59-byte symlink"
expect_eq "$(readlink edge60 | wc -c)" 61 "60-byte symlink"
expect_eq "$(cat fast)" data "follow fast symlink"
expect_eq "$(stat -c %b fast)" 0 "fast symlink uses no blocks"
[ "$(stat -c %b slow)" -gt 0 ] || fail "slow symlink has no block"
