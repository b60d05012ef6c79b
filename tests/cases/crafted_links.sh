# Crafted directory link counts. An empty directory counts its entry and
# its "." (2): one whose count says 1 is removed by rmdir, another is
# replaced by renaming a directory over it, and a parent whose count says 2
# though it holds a subdirectory loses that subdirectory. No count may go
# below zero (drop_nlink()'s WARNING) and no directory still named may lose
# its last link; afterwards the parent works and the checker finds nothing:
# the counts that were wrong left with their directories, or are now right.
# fs: ext2 minix
# setup: none
# timeout: 300
fs_mkfs
fs_mount
mkdir "$MNT/e" "$MNT/f" "$MNT/g" "$MNT/p" "$MNT/p/c"
declare -A ino
for d in e f p; do
	ino[$d]=$(stat -c %i "$MNT/$d")
done
fs_umount
set_links() { # DIR COUNT
	if [ "$FS_TYPE" = ext2 ]; then
		debugfs -w -R "sif /$1 links_count $2" "$DEV" 2> /dev/null
	elif [ "$MINIX_VERSION" = 1 ]; then
		dev_le $(($(minix_ino_off "${ino[$1]}") + 13)) 1 "$2"
	else
		dev_le $(($(minix_ino_off "${ino[$1]}") + 2)) 2 "$2"
	fi
}
[ "$FS_TYPE" = ext2 ] || minix_layout
set_links e 1
set_links f 1
set_links p 2
blockdev --flushbufs "$DEV"

fs_mount
expect_eq "$(stat -c %h "$MNT/e")" 1 "e's crafted count"
rmdir "$MNT/e" || fail "rmdir of an empty directory whose count says 1"
mv -T "$MNT/g" "$MNT/f" || fail "rename over an empty directory whose count says 1"
rmdir "$MNT/p/c" || fail "rmdir in a directory whose count says 2"
echo new > "$MNT/p/new" || fail "create in p"
expect_eq "$(ls "$MNT" | grep -v lost+found | tr '\n' ' ')" "f p " "listing of the root"
fs_umount
fs_fsck
