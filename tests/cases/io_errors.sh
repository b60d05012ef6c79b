# I/O errors under a file (tools/ioerr): the disk fails from the file's
# first block to its end (dm-error), then works again. A failed buffered
# writeback is reported by fsync once to each description open before it and
# by syncfs; O_DIRECT reads and writes report EIO and a failed O_DIRECT append
# leaves the size alone; fsync reports a failed buffered append, and keeps
# reporting it until the range is written again. The free space was filled
# with 'S' first: the blocks of the failed append, allocated at write() time,
# must not show it (stock ext2 does; the figure is in $RUN_DIR/io_errors.txt).
# Afterwards umount works, the file whose append was lost ends where its
# data on disk ends, the files read, and e2fsck is clean.
# setup: none
# fs-size: 64M
fs_mkfs
size=$(blockdev --getsz "$DEV")
good="0 $size linear $DEV 0"
dmsetup create ioerr --table "$good" || fail "dmsetup create"
dmsetup mknodes
trap 'cd /; umount "$MNT" 2> /dev/null || true; dmsetup remove ioerr 2> /dev/null || true' EXIT
cat > /tmp/ioerr-switch <<EOF
#!/bin/sh
# ioerr-switch [BLOCK COUNT]: the disk fails from BLOCK on; no arguments: it works
if [ \$# -eq 0 ]; then
	table="$good"
else
	at=\$((\$1 * $FS_BS / 512))
	table="0 \$at linear $DEV 0
\$at \$(($size - at)) error"
fi
dmsetup load ioerr --table "\$table" && dmsetup suspend --nolockfs ioerr && dmsetup resume ioerr
EOF
chmod +x /tmp/ioerr-switch

DEV=/dev/mapper/ioerr fs_mount
# Old contents in the free space that a failed write must not reveal.
xfs_io -f -c "pwrite -q -S 0x53 -b 1m 0 64m" "$MNT/secret" 2> /dev/null || true
sync
rm "$MNT/secret"
sync
rc=0
for t in errseq dio append; do
	"$TOOLS/ioerr" $t -b /tmp/ioerr-switch -g /tmp/ioerr-switch "$MNT/$t" > /tmp/ioerr.out || rc=1
	cat /tmp/ioerr.out
	grep "^stale " /tmp/ioerr.out | sed "s/^/$FS_TYPE bs=$FS_BS append: /" >> "$RUN_DIR/io_errors.txt"
done
cd /
umount "$MNT" || fail "umount after the I/O errors"
[ "$rc" = 0 ] || fail "a call did not report the I/O error as it must (see above)"
DEV=/dev/mapper/ioerr fs_mount
for t in errseq dio append; do
	cat "$MNT/$t" > /dev/null || fail "$t does not read back"
done
# what the tool left acknowledged: errseq's last overwrite, dio's first data
# (the overwrite failed), append's data and its range written again
span() { # FILE FROM LEN: the bytes
	tail -c +$(($2 + 1)) "$MNT/$1" | head -c "$3"
}
expect_eq "$(stat -c %s "$MNT/errseq") $(span errseq 0 65536 | tr -d c | wc -c)" "65536 0" \
	"errseq after a remount: size and bytes other than its last overwrite"
expect_eq "$(span dio 0 65536 | tr -d a | wc -c)" 0 "dio after a remount: bytes other than its data"
expect_eq "$(stat -c %s "$MNT/append") $(span append 0 65536 | tr -d a | wc -c) $(span append 65536 65536 | tr -d c | wc -c)" \
	"131072 0 0" "append after a remount: size, bytes other than its data and its rewrite"
cut=$(stat -c %s "$MNT/append.cut")
[ "$cut" = 65536 ] || fail "the file whose append was lost is $cut bytes after a remount, want 65536"
[ "$(tr -d a < "$MNT/append.cut" | wc -c)" = 0 ] || fail "the file whose append was lost holds more than its data"
cd /
umount "$MNT"
dmsetup remove ioerr
fs_fsck
