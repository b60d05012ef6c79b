# Writeback writes the blocks that changed, not whole pages: one-block
# overwrites inside cached pages must cost about one block each on the device
# (buffer heads did that; plain 6.1 iomap writes every block of the page).
# The data must still all land: checked after the page cache is dropped.
n=256
head -c 1048576 /dev/zero | tr '\0' '\132' > /tmp/want
cp /tmp/want f
sync
cmds=()
for ((i = 0; i < n; i++)); do
	off=$((i * 4096 + (i % (4096 / FS_BS)) * FS_BS))
	cmds+=(-c "pwrite -q -S 0x$(printf %02x $((i % 200 + 33))) $off $FS_BS")
done
xfs_io "${cmds[@]}" /tmp/want
written=$(dev_written xfs_io "${cmds[@]}" f)
user=$((n * FS_BS))
echo "user bytes $user, device bytes $written"
# 1.5x leaves room for the inode and superblock; whole pages would be 4096/bs.
[ "$written" -ge "$user" ] || fail "only $written bytes reached the device for $user written"
[ "$written" -le $((user * 3 / 2 + 32768)) ] ||
	fail "write amplification: $written device bytes for $user user bytes"
drop_caches
cmp f /tmp/want || fail "f differs after its pages were dropped"
