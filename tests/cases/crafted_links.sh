# Crafted directory link counts. An empty directory counts its entry and
# its "." (2): one whose count says 1 is removed by rmdir, another is
# replaced by renaming a directory over it, and a parent whose count says 2
# though it holds a subdirectory loses that subdirectory. No count may go
# below zero (drop_nlink()'s WARNING) and no directory still named may lose
# its last link; afterwards the parent works and e2fsck finds nothing: the
# counts that were wrong left with their directories, or are now right.
# setup: none
# timeout: 300
fs_mkfs
fs_mount
mkdir "$MNT/e" "$MNT/f" "$MNT/g" "$MNT/p" "$MNT/p/c"
fs_umount
for d in e f; do
	debugfs -w -R "sif /$d links_count 1" "$DEV" 2> /dev/null
done
debugfs -w -R "sif /p links_count 2" "$DEV" 2> /dev/null
expect_eq "$(fs_debugfs "stat /e" | grep -o "Links: [0-9]*")" "Links: 1" "e's crafted count"
blockdev --flushbufs "$DEV"

fs_mount
rmdir "$MNT/e" || fail "rmdir of an empty directory whose count says 1"
mv -T "$MNT/g" "$MNT/f" || fail "rename over an empty directory whose count says 1"
rmdir "$MNT/p/c" || fail "rmdir in a directory whose count says 2"
echo new > "$MNT/p/new" || fail "create in p"
expect_eq "$(ls "$MNT" | tr '\n' ' ')" "f lost+found p " "listing of the root"
fs_umount
fs_fsck
