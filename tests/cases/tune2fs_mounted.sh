# Tools that change a mounted ext2 through its device keep their changes, as
# with the stock driver: tune2fs tunables (written into the superblock through
# /dev), the label (tune2fs -L and e2label use FS_IOC_SETFSLABEL), and a boot
# sector written over the first 1024 bytes (inside the superblock's block at
# 2K and 4K blocks), half buffered and half with O_DIRECT. The filesystem writes its superblock after each change
# and at umount; every change must be on the disk afterwards. dumpe2fs on the
# mounted device must also see the filesystem's counters after a sync.
# fs-size: 64M
mkdir d
for i in 1 2 3; do head -c 100000 /dev/zero > d/f$i; done
sync
dumpe2fs -h "$DEV" > /dev/null 2>&1 # caches the superblock's page, as a tool would
tune2fs -c 37 -C 5 -i 3d -e remount-ro -E mount_opts=user_xattr "$DEV" > /dev/null ||
	fail "tune2fs on the mounted device"
tune2fs -L tlabel "$DEV" > /dev/null || fail "tune2fs -L"
expect_eq "$(e2label "$DEV")" tlabel "e2label while mounted"
e2label "$DEV" label2 || fail "e2label DEV label2"
expect_eq "$(e2label "$DEV")" label2 "e2label after e2label"
head -c 1024 /dev/urandom > /tmp/boot
dd if=/tmp/boot of="$DEV" bs=512 count=1 conv=notrunc,fsync status=none ||
	fail "writing the boot sector"
dd if=/tmp/boot of="$DEV" bs=512 skip=1 seek=1 count=1 oflag=direct conv=notrunc status=none ||
	fail "writing the boot sector with O_DIRECT"

# the filesystem writes its superblock again, with new counters
for i in 4 5 6; do head -c 300000 /dev/zero > d/f$i; done
rm d/f1
sync
free_fs=$(stat -f -c %f .)
free_dev=$(dumpe2fs -h "$DEV" 2> /dev/null | sed -n 's/^Free blocks: *//p')
expect_eq "$free_dev" "$free_fs" "free blocks in the mounted device's superblock after sync (dumpe2fs vs statfs)"

fs_umount
sb=$(dumpe2fs -h "$DEV" 2> /dev/null)
field() { sed -n "s/^$1: *//p" <<< "$sb"; }
expect_eq "$(field 'Filesystem volume name')" label2 "label after umount"
expect_eq "$(field 'Maximum mount count')" 37 "maximum mount count after umount"
expect_eq "$(field 'Mount count')" 5 "mount count after umount"
expect_eq "$(field 'Check interval')" "259200 (3 days)" "check interval after umount"
expect_eq "$(field 'Errors behavior')" "Remount read-only" "errors behaviour after umount"
expect_eq "$(field 'Mount options')" user_xattr "mount options after umount"
head -c 1024 "$DEV" | cmp -s - /tmp/boot || fail "the boot sector was overwritten"
fs_mount
expect_eq "$(e2label "$DEV")" label2 "label after a new mount"
