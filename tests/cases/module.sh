# The suite's mounts are served by our module, and the check that says so
# catches a mount served by another driver (Debian's ext4 mounting ext2).
# setup: none
# block-sizes: 4096
fs_mkfs
want=$(module_build_id "$RUN_DIR/modules/$FS_MODULE.ko")
[ -n "$want" ] || fail "our module file has no build ID"
expect_eq "$(module_build_id "$FS_MODULE")" "$want" "build ID of the loaded $FS_MODULE"
other=$(module_build_id mbcache)
[ -n "$other" ] && [ "$other" != "$want" ] || fail "build IDs do not tell modules apart ('$other')"
grep -qw "$FS_TYPE" /proc/filesystems || fail "$FS_TYPE not registered"
fs_mount
expect_eq "$(awk -v m="$MNT" '$2 == m { print $3 }' /proc/mounts)" "$FS_TYPE" "type in /proc/mounts"
fs_umount
# Negative control: ext4 serving the same image must not pass fs_mount's check.
before=$(fs_module_refs)
mount -t ext4 "$DEV" "$MNT" || fail "ext4 cannot mount the image"
after=$(fs_module_refs)
umount "$MNT"
[ "$after" = "$before" ] || fail "the served-by check counted an ext4 mount as ours"
[ -e "/sys/fs/ext4/${DEV#/dev/}" ] && fail "ext4 left its sysfs entry"
rmmod ext4 2> /dev/null || true
fs_mount
fs_umount
