# FIEMAP reports exactly the blocks debugfs finds in the inode.
xfs_io -f -c "pwrite -q 0 20k" -c "pwrite -q 300k 40k" -c "pwrite -q 5m 4k" f
sync
ino=$(stat -c %i f)
# Physical blocks from FIEMAP, one per line.
xfs_io -c "fiemap" f | awk -F'[][.:[:space:]]+' -v bs="$FS_BS" 'NF >= 6 {
	for (b = $5 * 512 / bs; b < ($6 + 1) * 512 / bs; b++) print b }' | sort -n > /tmp/fiemap
[ -s /tmp/fiemap ] || fail "FIEMAP reported nothing"
fs_debugfs "blocks <$ino>" | tr ' ' '\n' | sed '/^$/d' | sort -n > /tmp/debugfs
# debugfs also lists indirect blocks; FIEMAP lists data only.
comm -23 /tmp/fiemap /tmp/debugfs > /tmp/extra
[ ! -s /tmp/extra ] || fail "FIEMAP blocks not in the inode: $(head -3 /tmp/extra | tr '\n' ' ')"
expect_eq "$(wc -l < /tmp/fiemap)" $(((20 + 40 + 4) * 1024 / FS_BS)) "number of data blocks"
