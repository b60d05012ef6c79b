# The size an append's write completion puts into the inode block must come
# with the block map it covers. f's inode goes to the disk with size 0 (its
# three blocks still unwritten) and a map to them; a truncate frees them and
# g takes them. f is appended again into other blocks. When that write
# completes, f's size grows in its inode block, which goes to the disk with
# a neighbour's fsync. Had only the size gone in, f on the disk would be
# three blocks mapped to g's data: after a power cut there, f would show
# another file's contents.
# fs-size: 16M
# Writeback is off, so nothing else writes f's inode.
sysctl -q vm.dirty_writeback_centisecs=0 vm.dirty_expire_centisecs=360000
len=$((3 * FS_BS))
mkdir d
chattr +D d
# p, f, h: inodes in a row, so f and h share an inode table block
: > p
: > f
: > h
ipb=$((FS_BS / $(dumpe2fs -h "$DEV" 2> /dev/null | awk '/^Inode size:/ { print $3 }')))
fi=$(stat -c %i f) hi=$(stat -c %i h)
[ $(((fi - 1) / ipb)) = $(((hi - 1) / ipb)) ] || fail "f ($fi) and h ($hi) are in different inode blocks"
xfs_io -f -c "pwrite -q 0 $len" spare || fail "spare"
sync
xfs_io -c "pwrite -q -S 0x46 0 $len" f || fail "append to f"
# the link writes f's inode (DIRSYNC), its data stays in the page cache
ln f d/f || fail "link f into a DIRSYNC directory"
truncate -s 0 f
# g takes every free block, f's old ones among them
head -c 64M /dev/zero | tr '\0' G > g 2> /dev/null && fail "g did not fill the filesystem"
xfs_io -c fsync g || fail "fsync g"
rm spare
xfs_io -c "pwrite -q -S 0x46 0 $len" -c "sync_range -w 0 $len" \
	-c "sync_range -a 0 $len" f || fail "append to f again"
chmod 600 h
xfs_io -c fsync h || fail "fsync h"
size=$(fs_debugfs "stat /f" | sed -n '/Size: /{s/.*Size: \([0-9]*\).*/\1/p;q}')
map=$(fs_debugfs "blocks /f")
# g's entry is not on the disk (its directory was not synced); its inode is
gmap=$(fs_debugfs "blocks <$(stat -c %i g)>")
echo "on the disk: f size $size, blocks '$map'; g $(wc -w <<< "$gmap") blocks"
[ -n "$gmap" ] || fail "g has no blocks on the disk"
for b in $map; do
	grep -qw "$b" <<< "$gmap" && fail "f on the disk (size $size) maps block $b, which is g's"
done
content=$(fs_debugfs "cat /f" | od -An -tx1 -v | tr -s ' \n' '\n' | grep . | sort -u | paste -sd ' ')
[ "$size" = 0 ] || expect_eq "$content" "46" "f's bytes on the disk (size $size, blocks '$map')"
# and the check saw something: the completion grew f's size on the disk
expect_eq "$size" "$len" "f's size on the disk once its append completed"
