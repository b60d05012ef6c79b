# With ext4 owning the name "ext2", our module refuses to load with a clear
# message, and loads and mounts under another name given by fstype=.
# setup: none
# block-sizes: 4096
ko=$RUN_DIR/modules/$FS_MODULE.ko
modinfo -F parm "$ko" | grep -q '^fstype:' || skip "module has no fstype parameter"
fs_mkfs
restore() { # back to the suite's state: our module owns "ext2"
	set +e
	mountpoint -q "$MNT" && umount "$MNT"
	rmmod "$FS_MODULE" 2> /dev/null
	rmmod ext4 2> /dev/null
	insmod "$ko" || echo "FAIL: could not reload $FS_MODULE" >&2
}
trap restore EXIT
rmmod "$FS_MODULE" || fail "cannot unload our module"
# A fresh ext4 claims "ext2" while the name is free (one loaded earlier did not).
if grep -q '^ext4 ' /proc/modules; then rmmod ext4 || fail "cannot unload ext4"; fi
modprobe ext4 || fail "cannot load ext4"
grep -qw ext2 /proc/filesystems || skip "this ext4 does not register ext2"
expect_fail "busy" insmod "$ko"
dmesg | grep -q 'file system type "ext2" is already registered' || fail "no clear message"
insmod "$ko" fstype=ext2i || fail "insmod fstype=ext2i"
grep -qw ext2i /proc/filesystems || fail "ext2i not registered"
FS_TYPE=ext2i fs_mount
echo hello > "$MNT/f"
fs_umount
fs_fsck
