# With -o dirsync, directory changes are on the disk when the call returns,
# even with writeback off. Without it they are not (so the check can fail).
# setup: none
fs_mkfs
sysctl -q vm.dirty_writeback_centisecs=0 vm.dirty_expire_centisecs=360000
on_disk() { # NAME: is NAME in the root directory on the disk?
	fs_debugfs "ls -l /" | grep -qw "$1"
}
fs_mount
sync
mkdir "$MNT/plain-dir"
on_disk plain-dir && fail "without dirsync the entry is on disk already: the check proves nothing"
fs_umount
fs_mount dirsync
mkdir "$MNT/sync-dir"
on_disk sync-dir || fail "mkdir not on disk with dirsync"
: > "$MNT/sync-file"
on_disk sync-file || fail "create not on disk with dirsync"
mv "$MNT/sync-file" "$MNT/sync-renamed"
on_disk sync-renamed || fail "rename not on disk with dirsync"
rm "$MNT/sync-renamed"
on_disk sync-renamed && fail "unlink not on disk with dirsync"
fs_umount
