# The first file past 2 GiB on a revision 0 filesystem (which has no
# large_file feature) makes it dynamic with large_file, on the disk after
# sync; e2fsck is clean. ->write_inode writes the superblock for it while it
# holds the inode table block.
# setup: none
fs_mkfs -r 0
features() {
	dumpe2fs -h "$DEV" 2> /dev/null | sed -n 's/^Filesystem features: *//p'
}
features | grep -qw large_file && fail "mkfs -r 0 has large_file: the check proves nothing"
fs_mount
truncate -s 3G "$MNT/big"
sync
features | grep -qw large_file || fail "no large_file feature on the disk after a 3 GiB file and sync: $(features)"
fs_umount
fs_fsck
fs_mount
expect_eq "$(stat -c %s "$MNT/big")" $((3 << 30)) "size after a remount"
fs_umount
