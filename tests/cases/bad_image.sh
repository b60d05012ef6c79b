# Corrupt images and bad options are refused with a clear error, no crash.
# setup: none
# block-sizes: 1024 4096
fs_mkfs
expect_fail "bad option\|wrong fs type" mount -t "$FS_TYPE" -o no_such_option "$DEV" "$MNT"
dmesg | grep -q 'unrecognized mount option "no_such_option"' || fail "no kernel message naming the bad option"
# Superblock at byte 1024: s_magic at 56, s_log_block_size at 24, s_inodes_per_group at 40.
poke() { # OFFSET HEXBYTES
	printf "$(sed 's/../\\x&/g' <<< "$2")" | dd of="$DEV" bs=1 seek=$((1024 + $1)) conv=notrunc status=none
}
for bad in "56 0000:magic" "24 ff000000:block size" "40 00000000:inodes per group"; do
	fs_mkfs
	poke "${bad%% *}" "$(cut -d: -f1 <<< "${bad#* }")"
	blockdev --flushbufs "$DEV"
	if mount -t "$FS_TYPE" "$DEV" "$MNT" 2> /dev/null; then
		umount "$MNT"
		fail "mounted a superblock with a bad ${bad#*:}"
	fi
done
# A clean image still mounts afterwards.
fs_mkfs
fs_mount
fs_umount
