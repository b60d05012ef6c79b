# With -o dirsync, directory changes are on the disk when the call returns,
# even with writeback off, and so is what a new entry names: the inode of a
# new file, directory or symlink, the directory's block and the symlink's, a
# file moved in or an O_TMPFILE linked in.
# Without dirsync they are not (so the check can fail).
# setup: none
fs_mkfs
sysctl -q vm.dirty_writeback_centisecs=0 vm.dirty_expire_centisecs=360000
on_disk() { # NAME: is NAME in the root directory on the disk?
	fs_debugfs "ls -l /" | grep -qw "$1"
}
disk_inode() { # PATH: "type links" of its inode on the disk
	fs_debugfs "stat $1" | sed -n -e 's/.*Type: \([a-z]*\).*/\1/p' -e 's/.*Links: \([0-9]*\).*/\1/p' | paste -sd ' '
}
fs_mount
sync
mkdir "$MNT/plain-dir"
on_disk plain-dir && fail "without dirsync the entry is on disk already: the check proves nothing"
fs_umount
fs_mount dirsync
mkdir "$MNT/sync-dir"
on_disk sync-dir || fail "mkdir not on disk with dirsync"
expect_eq "$(disk_inode /sync-dir)" "directory 2" "the new directory's inode on the disk"
fs_debugfs "ls /sync-dir" | grep -q '\.\.' || fail "the new directory's block is not on the disk"
: > "$MNT/sync-file"
on_disk sync-file || fail "create not on disk with dirsync"
expect_eq "$(disk_inode /sync-file)" "regular 1" "the new file's inode on the disk"
target=$(printf 'target-%.0s' {1..20})
ln -s "$target" "$MNT/sync-link"
expect_eq "$(disk_inode /sync-link)" "symlink 1" "the new symlink's inode on the disk"
expect_eq "$(fs_debugfs "cat /sync-link" | tr -d '\0')" "$target" "the slow symlink's target on the disk"
mv "$MNT/sync-file" "$MNT/sync-renamed"
on_disk sync-renamed || fail "rename not on disk with dirsync"
rm "$MNT/sync-renamed"
on_disk sync-renamed && fail "unlink not on disk with dirsync"
fs_umount
# chattr +D: an inode never written, moved or linked into such a directory
fs_mount
mkdir "$MNT/d" "$MNT/plain"
chattr +D "$MNT/d"
sync
: > "$MNT/plain/moved"
mv "$MNT/plain/moved" "$MNT/d/moved"
expect_eq "$(disk_inode /d/moved)" "regular 1" "a new file moved into a +D directory: its inode on the disk"
xfs_io -T -c "flink $MNT/d/tmp" "$MNT/d" || fail "O_TMPFILE and linkat"
expect_eq "$(disk_inode /d/tmp)" "regular 1" "an O_TMPFILE linked into a +D directory: its inode on the disk"
fs_umount
