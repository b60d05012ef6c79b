# minix v3 with 2 and 4 KiB blocks, as MINIX 3 makes them (mkfs.minix and
# fsck.minix know 1 KiB only; tools/minix3 makes and checks them): files
# through the direct, indirect and double indirect zones, the integrity
# exerciser in every mix, directories over several blocks, symlinks,
# truncate and unlink, all read back after a remount, and the image
# consistent (minix3 check) after each step. The checker is shown catching
# a zone and a link count that do not add up, and agreeing with fsck.minix
# on a 1 KiB image.
# fs: minix
# minix-versions: 3
# fs-size: 64M
# setup: none
mk3() { # BLOCKSIZE: a filesystem of FS_SIZE
	"$TOOLS/minix3" mkfs -b "$1" "$DEV" $(($(numfmt --from=iec "$FS_SIZE") / 1024)) ||
		fail "minix3 mkfs -b $1 failed"
}
check3() { # WHEN
	"$TOOLS/minix3" check "$DEV" || fail "minix3 check found errors $1 (${FS_BS}-byte blocks)"
}
expect_check_fails() { # WHAT PROBLEM-TEXT: the check must find the problem
	local out rc
	out=$("$TOOLS/minix3" check "$DEV") && rc=0 || rc=$?
	[ $rc = 1 ] || fail "minix3 check of an image with $1: exit $rc, want 1"
	grep -q -- "$2" <<< "$out" || fail "minix3 check of an image with $1 said '$out', want '$2'"
}
# write_u32 OFFSET VALUE, with the filesystem unmounted
write_u32() { dev_le "$1" 4 "$2"; }

# The checker and fsck.minix agree on a v3 image with 1 KiB blocks that a
# workload wrote.
fs_mkfs
fs_mount
head -c 300000 /dev/urandom > "$MNT/f"
mkdir "$MNT/d"
fs_umount
fsck.minix -f "$DEV" > /dev/null || fail "fsck.minix -f fails on the 1 KiB image"
"$TOOLS/minix3" check "$DEV" || fail "minix3 check fails on the 1 KiB image fsck.minix passes"

for FS_BS in 2048 4096; do
	mk3 "$FS_BS"
	check3 "on a new filesystem"
	fs_mount
	expect_eq "$(stat -f -c %S "$MNT")" "$FS_BS" "the block size of the mount"
	# statfs counts the data zones
	expect_eq $(($(stat -f -c %b "$MNT") + $(dev_le $((1024 + 10)) 2))) \
		$(($(numfmt --from=iec "$FS_SIZE") / FS_BS)) "the blocks of the mount and the zones before the data"
	free0=$(stat -f -c %f "$MNT")
	# 7 direct zones, then one indirect zone of bs/4 pointers, then double
	for size in 1 $((7 * FS_BS)) $((7 * FS_BS + 1)) $(((7 + FS_BS / 4) * FS_BS + 5000)); do
		head -c "$size" /dev/urandom > "$MNT/file-$size"
	done
	xfs_io -f -c "pwrite -q -S 0x5a $((3 * 1024 * 1024)) 8192" "$MNT/sparse" || fail "a write past a hole"
	mkdir "$MNT/dir"
	for i in $(seq 300); do : > "$MNT/dir/entry-with-a-long-name-$i"; done
	ln -s "$(printf 't%.0s' $(seq 200))" "$MNT/link"
	cd "$MNT"
	run_integrity buffered 1000 -l 1m -o 64k
	run_integrity dio 500 -l 1m -o 64k -A 4096
	run_integrity mmap 1000 -l 1m -o 64k
	run_integrity mixed 1000 -l 6m
	cd /
	sums=$(cd "$MNT" && md5sum file-* sparse f1 f2)
	fs_umount
	check3 "after the writes"
	fs_mount
	sums2=$(cd "$MNT" && md5sum file-* sparse f1 f2)
	expect_eq "$sums2" "$sums" "the files after a remount"
	expect_eq "$(ls "$MNT/dir" | wc -l)" 300 "entries after a remount"
	expect_eq "$(readlink "$MNT/link" | wc -c)" 201 "the symlink's target after a remount"
	truncate -s $((7 * FS_BS + 100)) "$MNT/file-$(((7 + FS_BS / 4) * FS_BS + 5000))"
	rm "$MNT/dir/entry-with-a-long-name-"1?? "$MNT/sparse"
	fs_umount
	check3 "after truncate and unlink"
	fs_mount
	rm -r "$MNT"/*
	expect_eq "$(stat -f -c %f "$MNT")" "$free0" "free blocks once everything is removed"
	fs_umount
	check3 "once everything is removed"
done

# The checker catches what it is for, at 4 KiB.
itable() { # first block of the inode table, from the superblock
	echo $((2 + $(dev_le $((1024 + 6)) 2) + $(dev_le $((1024 + 8)) 2)))
}
mk3 4096
fs_mount
echo data > "$MNT/a"
fs_umount
a_zone=$(($(itable) * 4096 + 64 + 24))	# inode 2's first zone
zone=$(dev_le "$a_zone" 4)
write_u32 "$a_zone" 0
expect_check_fails "a zone marked in the bitmap that no inode uses" "zone $zone: unused but set"
write_u32 "$a_zone" "$zone"
dev_le $(($(itable) * 4096 + 64 + 2)) 2 2
expect_check_fails "a link count of 2 and one entry" "inode 2: 2 links, 1 entries"
dev_le $(($(itable) * 4096 + 64 + 2)) 2 1
"$TOOLS/minix3" check "$DEV" || fail "minix3 check fails on the image put back"
# leave a filesystem fsck.minix can check for the runner
fs_mkfs
