# A DIRSYNC write that fails after a directory changed reports the error and
# leaves the change made, the directory and the dcache agreeing: a file
# whose create reported EIO exists (it is not freed under its entry); a file
# whose unlink reported EIO is gone and freed (not left with no entry), and
# so is a directory whose rmdir did, in which nothing can be created; a
# rename that reported EIO shows the new name only, over a file or not; a
# link that reported EIO is there. The root directory's block fails to
# write (dm-error) for the calls; once the device works again the
# filesystem is whole after umount.
# fs: ext2 minix
# fs-size: 16M
# setup: none
fs_mkfs
if [ "$FS_TYPE" = ext2 ]; then
	root=$(fs_debugfs "bmap <2> 0")
else
	minix_layout
	root=$(dev_le $(($(minix_ino_off 1) + MINIX_ZONES)) "$MINIX_ZSIZE")
fi
dm_block_error dirsync-err "$root"
trap 'cd /; umount "$MNT" 2> /dev/null || true; dmsetup remove dirsync-err 2> /dev/null || true' EXIT
DEV=$DM_DEV fs_mount dirsync
: > "$MNT/gone"
mkdir "$MNT/gonedir"
echo old > "$MNT/old"
echo two > "$MNT/two"
echo three > "$MNT/three"
echo victim > "$MNT/victim"
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
# from inside: nothing may be created in the directory once it is gone
(cd "$MNT/gonedir" && try rmdir "$MNT/gonedir" && ! touch inside 2> /dev/null) ||
	fail "rmdir that reported EIO: a file was created in the directory after it"
try perl -e 'rename($ARGV[0], $ARGV[1]) or die "$!\n"' "$MNT/old" "$MNT/renamed"
try mkdir "$MNT/dir"
try ln "$MNT/two" "$MNT/linked"
try perl -e 'rename($ARGV[0], $ARGV[1]) or die "$!\n"' "$MNT/three" "$MNT/victim"

[ -f "$MNT/new" ] || fail "the file whose create reported EIO is not there"
[ -d "$MNT/dir" ] || fail "the directory whose mkdir reported EIO is not there"
[ ! -e "$MNT/gone" ] || fail "the file whose unlink reported EIO is still there"
[ ! -e "$MNT/gonedir" ] || fail "the directory whose rmdir reported EIO is still there"
[ ! -e "$MNT/old" ] || fail "the old name of a rename that reported EIO is still there"
expect_eq "$(cat "$MNT/renamed" 2>&1)" old "the new name of a rename that reported EIO"
expect_eq "$(cat "$MNT/linked" 2>&1)" two "a link that reported EIO"
[ ! -e "$MNT/three" ] || fail "the old name of a rename over a file that reported EIO is still there"
expect_eq "$(cat "$MNT/victim" 2>&1)" three "a rename over a file that reported EIO"

dm_swap_table dirsync-err "$DM_GOOD"
cd /
umount "$MNT" || fail "umount"
DEV=$DM_DEV fs_mount
expect_eq "$(ls "$MNT" | grep -v lost+found | tr '\n' ' ')" "dir linked new renamed two victim " \
	"the root after remount"
cd /
umount "$MNT"
dmsetup remove dirsync-err
fs_fsck
