# A DIRSYNC write that fails after a directory changed reports the error and
# leaves the change made, the directory and the dcache agreeing: a file
# whose create reported EIO exists (it is not freed under its entry); a file
# whose unlink reported EIO is gone and freed (not left with no entry); a
# rename that reported EIO shows the new name only. The root directory's
# block fails to write (dm-error) for the calls; once the device works again
# the filesystem is whole after umount.
# fs: minix
# fs-size: 16M
# setup: none
fs_mkfs
minix_layout
root=$(dev_le $(($(minix_ino_off 1) + MINIX_ZONES)) "$MINIX_ZSIZE")
dm_block_error dirsync-err "$root"
trap 'cd /; umount "$MNT" 2> /dev/null || true; dmsetup remove dirsync-err 2> /dev/null || true' EXIT
DEV=$DM_DEV fs_mount dirsync
: > "$MNT/gone"
echo old > "$MNT/old"
dm_swap_table dirsync-err "$DM_BAD"

# try CMD...: run CMD, which must fail with EIO
try() {
	local out rc=0
	out=$("$@" 2>&1) || rc=$?
	[ "$rc" != 0 ] || fail "'$*' succeeded with the directory's block failing to write"
	grep -q "Input/output error" <<< "$out" || fail "'$*': $out"
}
try perl -e 'open(my $f, ">", $ARGV[0]) or die "$!\n"' "$MNT/new"
try rm "$MNT/gone"
try perl -e 'rename($ARGV[0], $ARGV[1]) or die "$!\n"' "$MNT/old" "$MNT/renamed"
try mkdir "$MNT/dir"

[ -f "$MNT/new" ] || fail "the file whose create reported EIO is not there"
[ -d "$MNT/dir" ] || fail "the directory whose mkdir reported EIO is not there"
[ ! -e "$MNT/gone" ] || fail "the file whose unlink reported EIO is still there"
[ ! -e "$MNT/old" ] || fail "the old name of a rename that reported EIO is still there"
expect_eq "$(cat "$MNT/renamed" 2>&1)" old "the new name of a rename that reported EIO"

dm_swap_table dirsync-err "$DM_GOOD"
cd /
umount "$MNT" || fail "umount"
DEV=$DM_DEV fs_mount
expect_eq "$(ls "$MNT" | tr '\n' ' ')" "dir new renamed " "the root after remount"
cd /
umount "$MNT"
dmsetup remove dirsync-err
fs_fsck
