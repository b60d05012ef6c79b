# Hard links share data and count; unlinking one keeps the other.
# fs: ext2 minix
echo content > a
ln a b
mkdir d
ln a d/c
expect_eq "$(stat -c %h a)" 3 "link count"
echo more >> b
fs_cycle
expect_eq "$(cat d/c)" "$(printf 'content\nmore')" "shared content"
rm a
expect_eq "$(stat -c %h b)" 2 "link count after unlink"
fs_cycle
expect_eq "$(stat -c %h d/c)" 2 "link count from disk"
expect_eq "$(stat -c %i b)" "$(stat -c %i d/c)" "same inode"
