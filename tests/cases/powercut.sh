# Power cuts: each workload runs on dm-log-writes over the disk, which logs
# every write in the order the disk made it durable, flushes and the
# workload's "ack N" marks among them. tools/powercut replays the log to
# crash points (every flush, FUA write and mark; random points), repairs each
# image with e2fsck -fy, needs a clean e2fsck -fn, mounts it and checks that
# whatever fsync, fdatasync, O_DSYNC, O_SYNC, O_DIRECT or DIRSYNC acknowledged
# is there. POWERCUT_POINTS (crash points per workload, default 12) and SCALE
# (operations: 60 times SCALE) set the effort; POWERCUT_WORKLOADS picks some.
# Each check's output is kept in the run directory.
# setup: none
# fs-size: 16M
# block-sizes: 1024 4096
# timeout: 2400
modprobe dm-log-writes 2> /dev/null || true
size=$(($(numfmt --from=iec "$FS_SIZE") / 512))
ops=$((60 * SCALE)) points=${POWERCUT_POINTS:-12}
trap 'cd /; umount "$MNT" 2> /dev/null || true; dmsetup remove pc 2> /dev/null || true' EXIT

failed=""
for w in ${POWERCUT_WORKLOADS:-smallfiles applog dsync dirsync xattr truncate reuse mixed}; do
	seed=$((${SEED:-1} * 1000 + FS_BS))
	fs_mkfs
	dd if="$DEV" of=/tmp/base bs=1M count=$((size / 2048)) status=none
	dmsetup create pc --table "0 $size log-writes $DEV $AUX_DEV" ||
		fail "dmsetup create: no log-writes target"
	dmsetup mknodes
	DEV=/dev/mapper/pc fs_mount
	"$TOOLS/powercut" run -w $w -S $seed -n $ops -m pc "$MNT" ||
		fail "$w: the workload failed"
	umount "$MNT"
	dmsetup remove pc
	rc=0
	out=$("$TOOLS/powercut" check -w $w -S $seed -n $ops -b /tmp/base -l "$AUX_DEV" \
		-t "$DEV" -d "$MNT" -p $points -r $((points / 4)) -o "$RUN_DIR") || rc=$?
	echo "$out" | tee "$RUN_DIR/powercut-$FS_BS-$w.log"
	# the figures, for tests/reliability.sh
	grep "^powercut: .* points, " <<< "$out" | sed "s/^powercut:/$FS_TYPE bs=$FS_BS/" >> "$RUN_DIR/powercut.txt"
	[ "$rc" = 0 ] || failed+=" $w (powercut check -w $w -S $seed -n $ops)"
done
rm -f /tmp/base
[ -z "$failed" ] || fail "acknowledged operations lost in a power cut:$failed"
