# fsync of a file puts its extended attribute block on the disk, also when
# the block is shared with a file that dirtied it first: with periodic
# writeback off, a gets an attribute (a new block), b the same one (the
# same block, now shared), b is fsynced, and the block on the disk
# (debugfs with O_DIRECT) holds the attribute.
sysctl -q vm.dirty_writeback_centisecs=0 vm.dirty_expire_centisecs=360000
touch a b
sync
setfattr -n user.k -v shared-value a
setfattr -n user.k -v shared-value b
xfs_io -c fsync b
acl_b=$(fs_debugfs "stat /b" | sed -n 's/.*File ACL: \([0-9]*\).*/\1/p')
[ -n "$acl_b" ] && [ "$acl_b" != 0 ] || fail "b has no attribute block on the disk after fsync ('$acl_b')"
fs_debugfs "ea_list /b" | grep -q "user.k.*shared-value" ||
	fail "the attribute block $acl_b on the disk does not hold b's attribute after fsync"
sync
acl_a=$(fs_debugfs "stat /a" | sed -n 's/.*File ACL: \([0-9]*\).*/\1/p')
expect_eq "$acl_a" "$acl_b" "attribute block of a (shared with b)"
