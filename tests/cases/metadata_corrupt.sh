# A damaged directory block, a damaged indirect block and a directory
# inode with a bad size are refused when read (ext2's fs_buf verifiers and
# directory checks): a lookup in the directory, a direct read of the file
# and listing the other directory fail with "Structure needs cleaning", the
# kernel log names what is bad, the rest of the filesystem keeps working,
# nothing crashes, and e2fsck repairs the planted damage.
# setup: none
fs_mkfs
fs_mount
cd "$MNT"
mkdir d
perl -e 'for (1 .. 300) { open(my $f, ">", "d/entry-$_") or die "create $_: $!" }' || fail "create"
head -c $((40 * FS_BS)) /dev/urandom > big	# past the 12 direct blocks
head -c 5000 /dev/urandom > other
sum=$(md5 other)
mkdir d2 && touch d2/x
dblocks=$(($(stat -c %s d) / FS_BS))
[ "$dblocks" -ge 2 ] || fail "the directory has only $dblocks blocks"
fs_umount

# The directory's second block: a zero rec_len in its first entry.
dblock=$(fs_debugfs "blocks /d" | awk '{ print $2 }')
ind=$(fs_debugfs "stat /big" | sed -n 's/.*(IND):\([0-9]*\).*/\1/p')
[ -n "$dblock" ] && [ -n "$ind" ] || fail "no block numbers from debugfs"
printf '\0\0\0\0\0\0\0\0' | dd of="$DEV" bs=1 seek=$((dblock * FS_BS)) conv=notrunc status=none
# The indirect block: its first pointer beyond the end of the filesystem.
printf '\377\377\377\177' | dd of="$DEV" bs=1 seek=$((ind * FS_BS)) conv=notrunc status=none
blockdev --flushbufs "$DEV"
# An inode table entry: directory d2's size, not a multiple of the block size.
debugfs -w -R "sif /d2 size $((FS_BS + 100))" "$DEV" 2> /dev/null
blockdev --flushbufs "$DEV"

fs_mount
dmesg -c > /dev/null
# readdir skips the bad block (as with the page cache before); a lookup
# that has to search it fails.
expect_fail "Structure needs cleaning" stat "$MNT/d/entry-300"
dmesg | grep -q "bad entry in directory block $dblock" || fail "no kernel message naming directory block $dblock"
listed=$(ls "$MNT/d" 2> /dev/null | wc -l) || true
[ "$listed" -lt 300 ] || fail "all $listed entries listed despite the bad block"
# The page cache turns any failed read into EIO; direct I/O passes the
# mapping's error through.
expect_fail "Input/output error" dd if="$MNT/big" of=/dev/null bs=64k status=none
expect_fail "Structure needs cleaning" dd if="$MNT/big" of=/dev/null bs=64k iflag=direct status=none
dmesg | grep -q "$ind" || fail "no kernel message naming indirect block $ind"
expect_fail "Structure needs cleaning" ls "$MNT/d2"
dmesg | grep -q "size of directory #[0-9]* is not a multiple of the block size" ||
	fail "no kernel message about d2's size"
# Entries of the first block are still found; the rest of the fs works.
[ -e "$MNT/d/entry-1" ] || fail "lookup of an entry in the good block"
expect_eq "$(md5 "$MNT/other")" "$sum" "a file outside the damage"
echo new > "$MNT/new" || fail "create outside the damage"
fs_umount
out=$(e2fsck -fy "$DEV" 2>&1) && fail "e2fsck found nothing to repair"
grep -q "directory\|Directory" <<< "$out" || fail "e2fsck did not repair the directory: $out"
grep -qi "illegal block\|indirect" <<< "$out" || fail "e2fsck did not repair the indirect block: $out"
fs_fsck
