# With -o dirsync a change to a minix directory is on the disk when the call
# returns, even with writeback off: the entry, the directory's size that
# covers it, and what it names (the inode of a new file, directory, symlink,
# hard link or linked O_TMPFILE; a new directory's block, a symlink's; the
# data of a file renamed over another; the link count of a directory's new
# parent).
# Without dirsync they are not (so the check can fail).
# fs: minix
# fs-size: 16M
# setup: none
fs_mkfs
sysctl -q vm.dirty_writeback_centisecs=0 vm.dirty_expire_centisecs=360000
minix_layout
disk_size() { dev_le $(($(minix_ino_off "$1") + MINIX_SIZE)) 4; }
disk_zone0() { dev_le $(($(minix_ino_off "$1") + MINIX_ZONES)) "$MINIX_ZSIZE"; }
# a new root directory holds "." and ".."
dirsize=$(($(disk_size 1) / 2))

# disk_inode INO: "type links" of the inode on the disk
disk_inode() {
	local off mode links
	off=$(minix_ino_off "$1")
	mode=$(dev_le "$off" 2)
	if [ "$MINIX_VERSION" = 1 ]; then
		links=$(dev_le $((off + 13)) 1)
	else
		links=$(dev_le $((off + 2)) 2)
	fi
	case $((mode >> 12)) in
	8) echo "regular $links" ;;
	4) echo "directory $links" ;;
	10) echo "symlink $links" ;;
	*) echo "mode $mode, $links links" ;;
	esac
}
disk_block() { dd if="$DEV" iflag=direct bs=1024 skip="$1" count=1 2> /dev/null; }
# names INO: the live entries of directory INO's first block on the disk,
# within the directory's size there, as "NAME INO" lines
names() {
	disk_block "$(disk_zone0 "$1")" | head -c "$(disk_size "$1")" |
		perl -e 'my ($ds, $v3) = @ARGV; local $/; my $b = <STDIN>;
			for (my $o = 0; $o + $ds <= length $b; $o += $ds) {
				my $ino = $v3 ? unpack("V", substr($b, $o, 4)) : unpack("v", substr($b, $o, 2));
				next unless $ino;
				(my $n = substr($b, $o + ($v3 ? 4 : 2), $ds - ($v3 ? 4 : 2))) =~ s/\0.*//s;
				print "$n $ino\n";
			}' "$dirsize" "$([ "$MINIX_VERSION" = 3 ] && echo 1 || echo 0)"
}
# on_disk NAME [DIR-INO]: is NAME a live entry of the directory (the root by
# default) on the disk?
entry_ino() { names "${2:-1}" | awk -v n="$1" '$1 == n { print $2 }'; }
on_disk() { [ -n "$(entry_ino "$@")" ]; }

fs_mount
on_disk . || fail "the root's '.' is not found on the disk: the check is broken"
sync
: > "$MNT/plain-file"
on_disk plain-file && fail "without dirsync the entry is on disk already: the check proves nothing"
fs_umount

fs_mount dirsync
: > "$MNT/sync-file"
on_disk sync-file || fail "create not on disk with dirsync"
ino=$(stat -c %i "$MNT/sync-file")
expect_eq "$(disk_inode "$ino")" "regular 1" "the new file's inode on the disk"
mkdir "$MNT/sync-dir"
on_disk sync-dir || fail "mkdir not on disk with dirsync"
dino=$(stat -c %i "$MNT/sync-dir")
expect_eq "$(disk_inode "$dino")" "directory 2" "the new directory's inode on the disk"
expect_eq "$(entry_ino .. "$dino")" 1 "the new directory's '..' on the disk"
expect_eq "$(disk_inode 1)" "directory 3" "the parent's inode on the disk after mkdir"
ln -s sync-target "$MNT/sync-link"
lino=$(stat -c %i "$MNT/sync-link")
expect_eq "$(disk_inode "$lino")" "symlink 1" "the new symlink's inode on the disk"
disk_block "$(disk_zone0 "$lino")" | grep -aq sync-target || fail "the symlink's target is not on the disk"
ln "$MNT/sync-file" "$MNT/sync-hard"
on_disk sync-hard || fail "link not on disk with dirsync"
expect_eq "$(disk_inode "$ino")" "regular 2" "the linked file's inode on the disk"
xfs_io -T -c "flink $MNT/sync-tmp" "$MNT" || fail "O_TMPFILE and linkat"
on_disk sync-tmp || fail "a linked O_TMPFILE not on disk with dirsync"
expect_eq "$(disk_inode "$(stat -c %i "$MNT/sync-tmp")")" "regular 1" "a linked O_TMPFILE's inode on the disk"
mv "$MNT/sync-file" "$MNT/sync-moved"
on_disk sync-moved || fail "rename not on disk with dirsync"
on_disk sync-file && fail "the old name of a rename still on disk with dirsync"
rm "$MNT/sync-hard"
on_disk sync-hard && fail "unlink not on disk with dirsync"
# rename over an entry: the file's data, then its inode, then the entry
: > "$MNT/over-b"
head -c 5000 /dev/urandom > "$MNT/over-a"
aino=$(stat -c %i "$MNT/over-a")
mv "$MNT/over-a" "$MNT/over-b"
expect_eq "$(entry_ino over-b)" "$aino" "the entry renamed over another on the disk"
expect_eq "$(disk_size "$aino")" 5000 "the renamed file's size on the disk"
expect_eq "$(disk_block "$(disk_zone0 "$aino")" | md5sum)" "$(head -c 1024 "$MNT/over-b" | md5sum)" \
	"the renamed file's first block on the disk"
# a directory moved to another parent: the new parent's link count and its
# '..' (the old parent's count is left to writeback: too high after a crash)
mkdir "$MNT/p1" "$MNT/p2" "$MNT/p1/sub"
p1=$(stat -c %i "$MNT/p1") p2=$(stat -c %i "$MNT/p2") sub=$(stat -c %i "$MNT/p1/sub")
mv "$MNT/p1/sub" "$MNT/p2/sub"
on_disk sub "$p2" || fail "a directory moved to another parent: not in the new parent on the disk"
on_disk sub "$p1" && fail "a directory moved to another parent: still in the old parent on the disk"
expect_eq "$(entry_ino .. "$sub")" "$p2" "the moved directory's '..' on the disk"
expect_eq "$(disk_inode "$p2")" "directory 3" "the new parent's inode on the disk"
rmdir "$MNT/p1"
on_disk p1 && fail "rmdir not on disk with dirsync"
fs_umount
