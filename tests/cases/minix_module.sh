# The minix mounts are served by our module: the loaded "minix" has the build
# ID of our module file, which differs from that of Debian's own minix.ko
# (the one that would serve the mount if ours had not registered "minix").
# fs: minix
# setup: none
fs_mkfs
want=$(module_build_id "$RUN_DIR/modules/minix.ko")
[ -n "$want" ] || fail "our module file has no build ID"
expect_eq "$(module_build_id minix)" "$want" "build ID of the loaded minix"
debian=/lib/modules/$(uname -r)/kernel/fs/minix/minix.ko
if uname -v | grep -q Debian && [ -f "$debian" ]; then
	other=$(module_build_id "$debian")
	[ -n "$other" ] && [ "$other" != "$want" ] ||
		fail "build IDs do not tell ours from Debian's minix.ko ('$other')"
fi
grep -qw minix /proc/filesystems || fail "minix not registered"
fs_mount
expect_eq "$(awk -v m="$MNT" '$2 == m { print $3 }' /proc/mounts)" minix "type in /proc/mounts"
fs_umount
