# A directory block that cannot be read (dm-error) fails a lookup in it
# with EIO, not ENOENT: a negative dentry would hide the name after the
# disk reads again. Once the block reads, the name is found. A directory
# whose size is a crafted 1 GiB of holes (64 MiB on v1) lists as empty.
# fs: minix
# fs-size: 16M
# setup: none
fs_mkfs
fs_mount
mkdir "$MNT/d" "$MNT/sparse"
echo data > "$MNT/d/f"
dino=$(stat -c %i "$MNT/d") sino=$(stat -c %i "$MNT/sparse")
fs_umount
minix_layout
blk=$(dev_le $(($(minix_ino_off "$dino") + MINIX_ZONES)) "$MINIX_ZSIZE")
dm_block_error dir-err "$blk"
trap 'cd /; umount "$MNT" 2> /dev/null || true; dmsetup remove dir-err 2> /dev/null || true' EXIT
dm_swap_table dir-err "$DM_BAD"
DEV=$DM_DEV fs_mount
expect_fail "Input/output error" stat "$MNT/d/f"
dm_swap_table dir-err "$DM_GOOD"
expect_eq "$(cat "$MNT/d/f" 2>&1)" data "the file once its directory's block reads"
cd /
umount "$MNT"
dmsetup remove dir-err

# the size field is 32 bits in every layout; v1 files stop at 64 MiB
size=$((1 << 30))
[ "$MINIX_VERSION" != 1 ] || size=$((64 << 20))
dev_le $(($(minix_ino_off "$sino") + MINIX_SIZE)) 4 "$size"
fs_mount
expect_eq "$(ls -a "$MNT/sparse" | tr '\n' ' ')" ". .. " "the entries of the sparse directory"
fs_umount
# leave a clean filesystem for the runner's fsck
fs_mkfs
