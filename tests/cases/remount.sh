# Remount read-only and back: writes fail with EROFS, data stays.
# fs: ext2 minix
echo before > f
mount -o remount,ro "$MNT" || fail "remount ro"
expect_fail "Read-only file system" sh -c "echo x > $MNT/g"
expect_fail "Read-only file system" touch f
expect_eq "$(cat f)" before "read on ro"
mount -o remount,rw "$MNT" || fail "remount rw"
echo after >> f
fs_cycle
expect_eq "$(cat f)" "$(printf 'before\nafter')" "content"
