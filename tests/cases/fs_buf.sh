# fs_buf on its own: the self-test module (fs/fs_buf/fs_buf_test.c) passes
# every check at this block size, including write and read errors on a
# dm-error device and the queue of freed blocks (fs_buf_busy), and fs_buf's
# tracepoints see the reads, writes, forgets, reclaim, a commit of freed
# blocks and the failed write.
# setup: none
# timeout: 300
ko=$RUN_DIR/modules/fs_buf_test.ko
[ -f "$ko" ] || fail "no $ko"
[ -d /sys/module/fs_buf ] || fail "module fs_buf is not loaded"
# No filesystem on the scratch disk: nothing for e2fsck afterwards.
dd if=/dev/zero of="$DEV" bs=1M count=1 conv=fsync 2> /dev/null

# The aux disk's first MiB, then a MiB where every I/O fails.
# Its block 0 takes two seconds to write or read.
dmsetup create fs_buf-err --table "0 $((FS_BS / 512)) delay $AUX_DEV 0 2000
$((FS_BS / 512)) $((2048 - FS_BS / 512)) linear $AUX_DEV $((FS_BS / 512))
2048 2048 error" || fail "dmsetup create"
dmsetup mknodes
errblk=$((2048 * 512 / FS_BS))
expire=/sys/module/fs_buf/parameters/expire_centisecs
trap 'trace_events 0 fs_buf; echo 3000 > "$expire"; dmsetup remove fs_buf-err' EXIT

# The periodic writeback check wants old buffers written within seconds.
echo 100 > "$expire"
echo 100 > /proc/sys/vm/dirty_writeback_centisecs
trace_events 1 fs_buf || fail "cannot enable the fs_buf events"
: > "$TRACE/trace"
dmesg -c > /dev/null
rc=0
insmod "$ko" dev="$DEV" bs="$FS_BS" errdev=/dev/mapper/fs_buf-err errblk="$errblk" || rc=$?
trace_events 0 fs_buf
dmesg | grep "fs_buf_test: " > /tmp/fs_buf_test.out || true
cat /tmp/fs_buf_test.out
[ "$rc" = 0 ] || fail "fs_buf_test: $(grep -m1 FAIL /tmp/fs_buf_test.out || echo "insmod exited $rc")"
rmmod fs_buf_test
expect_eq "$(grep -c ': FAIL ' /tmp/fs_buf_test.out)" 0 "failed checks"
# Every check ran: a check that silently stopped running shows up here.
expect_eq "$(grep -c ': ok ' /tmp/fs_buf_test.out)" 29 "checks passed"

for ev in fs_buf_get fs_buf_read fs_buf_write fs_buf_forget fs_buf_reclaim \
	  fs_buf_busy_commit "fs_buf_io_done: .* write error -5" \
	  "fs_buf_io_done: .* read error 0"; do
	grep -q "$ev" "$TRACE/trace" || fail "no '$ev' in the trace"
done
