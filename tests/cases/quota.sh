# User quota on ext2: usage is charged and the hard limit enforced, and the
# quota file, which the kernel reads and writes through fs_buf while quota
# is on, stays right across quotaoff/quotaon, a recount by quotacheck, a
# restore of the file in place while quota is off (around fs_buf, into the
# very blocks fs_buf holds copies of), and a remount; quotaoff drops
# fs_buf's copies of its blocks.
# mount: usrquota
modprobe quota_v2 || fail "no quota_v2 module"
quotacheck -cum "$MNT" || fail "quotacheck -c"
quotaon "$MNT" || fail "quotaon"
u=4321
mkdir q && chown "$u" q
as_user() { setpriv --reuid="$u" --regid="$u" --clear-groups "$@"; }
used() { # KiB charged to $u, as the kernel has it (quotactl)
	quota -w -u "$u" | awk -v d="$DEV" '$1 == d { sub(/\*$/, "", $2); print $2 }'
}
setquota -u "$u" 0 400 0 0 "$MNT" || fail "setquota"
as_user dd if=/dev/zero of=q/a bs=1k count=100 conv=fsync status=none || fail "write within the limit"
as_user dd if=/dev/zero of=q/b bs=1k count=100 conv=fsync status=none || fail "write within the limit"
expect_fail "Disk quota exceeded" as_user dd if=/dev/zero of=q/c bs=1k count=400 conv=fsync status=none
rm -f q/c
sync
want=$(used)
[ "$want" -ge 200 ] && [ "$want" -lt 400 ] || fail "usage $want KiB after writing 200 KiB"

quotaoff "$MNT" && quotaon "$MNT" || fail "quotaoff/quotaon"
expect_eq "$(used)" "$want" "usage after quotaoff/quotaon"

# Recount while off: quotacheck scans the device and writes a new file.
quotaoff "$MNT"
rm q/a
sync	# quotacheck scans the device itself
quotacheck -um "$MNT" || fail "quotacheck"
quotaon "$MNT" || fail "quotaon after quotacheck"
left=$(used)
[ "$left" -lt "$want" ] && [ "$left" -ge 100 ] || fail "usage $left KiB after removing 100 of $want KiB"

# Restore a saved quota file in place while quota is off: the same blocks
# now hold older contents than the copies fs_buf kept, and quotaon must
# read the restored ones.
quotaoff "$MNT"
cp aquota.user /tmp/aquota.saved
quotaon "$MNT"
as_user dd if=/dev/zero of=q/d bs=1k count=50 conv=fsync status=none || fail "write after the recount"
sync
[ "$(used)" -ge $((left + 50)) ] || fail "usage $(used) KiB after 50 more KiB on $left"
quotaoff "$MNT"
dd if=/tmp/aquota.saved of=aquota.user conv=notrunc,fsync status=none
quotaon "$MNT" || fail "quotaon after the restore"
expect_eq "$(used)" "$left" "usage read from the restored quota file"
after=$left

quotaoff "$MNT"
fs_cycle usrquota
quotaon "$MNT" || fail "quotaon after remount"
expect_eq "$(used)" "$after" "usage after remount"
quotaoff "$MNT"

# Off, the quota file is an ordinary file again, which the tools rewrite
# and which may be removed: fs_buf keeps no copy of its blocks.
quotaon "$MNT" || fail "quotaon before the last quotaoff"
used > /dev/null
n0=$(fs_buf_stat "$DEV" buffers)
quotaoff "$MNT"
n1=$(fs_buf_stat "$DEV" buffers)
[ $((n0 - n1)) -ge 2 ] || fail "fs_buf held $n0 buffers before quotaoff and $n1 after"
