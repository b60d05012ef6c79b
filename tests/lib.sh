# Helpers for test cases; the guest runner (tests/runner.sh) sources this.
# A case runs under "set -e" with the filesystem mounted at $MNT and $MNT as
# its working directory. Environment: FS_TYPE (ext2 or minix), FS_BS (block
# size), MINIX_VERSION (1, 2 or 3 for minix), FS_SIZE, DEV, AUX_DEV, MNT, TOOLS
# (the project's C tools), SCALE (1, or more for check-full).

fail() {
	echo "FAIL: $*" >&2
	exit 1
}

# expect_eq GOT WANT WHAT
expect_eq() {
	[ "$1" = "$2" ] || fail "$3: got '$1', want '$2'"
}

# expect_fail ERROR-TEXT COMMAND...: the command must fail, saying ERROR-TEXT.
expect_fail() {
	local want=$1 out
	shift
	if out=$("$@" 2>&1); then
		fail "'$*' succeeded; want failure '$want'"
	fi
	grep -qi -- "$want" <<< "$out" || fail "'$*' failed with '$out'; want '$want'"
}

# trace_events 1|0 EVENT...: switch tracepoints (tracefs at $TRACE) with every
# CPU but the first offline. Under TCG, a vCPU running a call site while it is
# patched can loop on the int3 with interrupts off, and the patching CPU waits
# for it forever (soft lockup; CI hit it in iomap_paths).
TRACE=/sys/kernel/tracing
trace_events() {
	local v=$1 e c cpus rc=0
	shift
	mountpoint -q "$TRACE" || mount -t tracefs tracefs "$TRACE" || return
	cpus=$(ls -d /sys/devices/system/cpu/cpu[1-9]*/online 2> /dev/null)
	for c in $cpus; do echo 0 > "$c" || rc=1; done
	for e; do echo "$v" > "$TRACE/events/$e/enable" || rc=1; done
	# the CPUs come back whatever failed
	for c in $cpus; do echo 1 > "$c" || rc=1; done
	return $rc
}

# fs_mkfs [OPTIONS]: a new filesystem of FS_SIZE on DEV. mkfs.minix sizes
# in KiB blocks, and a version 1 filesystem stops at 64 MiB whatever asked.
fs_mkfs() {
	if [ "$FS_TYPE" = minix ]; then
		mkfs.minix -"$MINIX_VERSION" "$@" "$DEV" $(($(numfmt --from=iec "$FS_SIZE") / 1024)) > /dev/null ||
			fail "mkfs.minix -$MINIX_VERSION $* failed"
	else
		mkfs.ext2 -q -F -b "$FS_BS" "$@" "$DEV" "$FS_SIZE" > /dev/null ||
			fail "mkfs.ext2 -b $FS_BS $* failed"
	fi
}

# The module that registered $FS_TYPE holds one reference per mounted
# superblock: a mount that does not raise our module's count was served by
# another driver (Debian's ext4 also registers "ext2").
fs_module_refs() {
	cat "/sys/module/$FS_MODULE/refcnt" 2>/dev/null || echo none
}

# fs_mount [MOUNT-OPTIONS]
fs_mount() {
	local before after
	before=$(fs_module_refs)
	mount -t "$FS_TYPE" ${1:+-o "$1"} "$DEV" "$MNT" || fail "mount -t $FS_TYPE ${1:+-o $1} failed"
	after=$(fs_module_refs)
	if [ "$before" = none ] || [ "$after" != $((before + 1)) ]; then
		umount "$MNT"
		fail "the mount is not served by module $FS_MODULE (refs $before -> $after)"
	fi
	[ -e "/sys/fs/ext4/${DEV#/dev/}" ] && fail "ext4 serves the mount"
	return 0
}

fs_umount() {
	cd /
	umount "$MNT" || fail "umount failed"
}

# Unmount and mount again: the next reads come from the disk.
fs_cycle() {
	fs_umount
	fs_mount "$@"
	cd "$MNT"
}

# dm_delay NAME MS [START COUNT]: put $DEV behind a dm-delay target that holds
# every write MS milliseconds (only those to the COUNT sectors from START if
# given; the rest passes straight through), and make DEV the mapped device; a
# trap at exit unmounts and removes it.
dm_delay() {
	local size start=${3:-0} count end table
	size=$(blockdev --getsz "$DEV")
	count=${4:-$((size - start))}
	end=$((start + count))
	table="$start $count delay $DEV $start 0 $DEV $start $2"
	if [ "$start" -gt 0 ]; then
		table="0 $start linear $DEV 0"$'\n'"$table"
	fi
	if [ "$end" -lt "$size" ]; then
		table+=$'\n'"$end $((size - end)) linear $DEV $end"
	fi
	dmsetup create "$1" <<< "$table" || fail "dmsetup create $1"
	dmsetup mknodes
	trap "cd /; umount '$MNT' 2> /dev/null || true; dmsetup remove '$1' 2> /dev/null || true" EXIT
	DEV=/dev/mapper/$1
}

# fs_check_disk: check the $FS_TYPE filesystem on $DEV, read-only; print what
# the checker says and return 1 on any problem. fsck.minix exits 0 on a zone
# two files use, a zone in use but free in the bitmap, and (v1) a directory
# zone out of range, so those lines count too; a v3 layout is also checked by
# tools/minix3, which knows what fsck.minix does not.
fs_check_disk() {
	local out rc=0
	if [ "$FS_TYPE" = minix ]; then
		out=$(fsck.minix -f "$DEV" 2>&1) || rc=1
		! grep -Eq 'counted=|invalid i_zone|bad directory' <<< "$out" || rc=1
		printf '%s\n' "$out"
		# the v3 magic, 0x4d5a, at byte 24 of the superblock
		if [ "$(od -An -tx2 -j $((1024 + 24)) -N2 "$DEV" | tr -d ' ')" = 4d5a ]; then
			"$TOOLS/minix3" check "$DEV" || rc=1
		fi
	else
		e2fsck -fn "$DEV" 2>&1 || rc=1
	fi
	return $rc
}

fs_fsck() {
	local out
	out=$(fs_check_disk) || fail "$([ "$FS_TYPE" = minix ] && echo fsck.minix -f || echo e2fsck -fn): $out"
}

# fs_debugfs CMD: debugfs on the device with O_DIRECT: what is on the disk now,
# not what the block device's page cache remembers. Sync first to see the
# filesystem's latest state.
fs_debugfs() {
	debugfs -D -R "$1" "$DEV" 2> /dev/null
}

drop_caches() {
	sync
	echo 3 > /proc/sys/vm/drop_caches
}

# dev_le OFFSET BYTES [VALUE]: read a little-endian number of 1, 2 or 4 bytes
# at a byte offset of DEV with O_DIRECT (what is on the disk now), or write
# VALUE there (unmounted only: the last close writes the block device's
# page cache back).
dev_le() {
	if [ $# -eq 3 ]; then
		perl -e 'my ($dev, $off, $n, $v) = @ARGV;
			open(my $h, "+<", $dev) or die "$dev: $!"; binmode $h; seek($h, $off, 0);
			print $h pack({1 => "C", 2 => "v", 4 => "V"}->{$n}, $v) or die "$dev: $!";
			close $h or die "$dev: $!"' "$DEV" "$@" || fail "dev_le $*: write failed"
	else
		dd if="$DEV" iflag=direct bs=512 skip=$(($1 / 512)) count=1 2> /dev/null |
			perl -e 'my ($off, $n) = @ARGV; read(STDIN, my $b, 512);
				print unpack({1 => "C", 2 => "v", 4 => "V"}->{$n}, substr($b, $off, $n)), "\n"' \
				$(($1 % 512)) "$2"
	fi
}

# minix_layout: where the inodes of the minix filesystem on DEV are (read
# with O_DIRECT): MINIX_ITABLE, the first block of the inode table in KiB;
# MINIX_ISIZE, an inode's size; MINIX_SIZE and MINIX_ZONES, the offsets of
# i_size and i_zone in it; MINIX_ZSIZE, a zone pointer's size.
minix_layout() {
	local imap=4 zmap=6
	[ "$MINIX_VERSION" != 3 ] || imap=6 zmap=8
	if [ "$MINIX_VERSION" = 1 ]; then
		MINIX_ISIZE=32 MINIX_SIZE=4 MINIX_ZONES=14 MINIX_ZSIZE=2
	else
		MINIX_ISIZE=64 MINIX_SIZE=8 MINIX_ZONES=24 MINIX_ZSIZE=4
	fi
	MINIX_ITABLE=$((2 + $(dev_le $((1024 + imap)) 2) + $(dev_le $((1024 + zmap)) 2)))
}

# minix_ino_off INO: the byte offset of inode INO on DEV (after minix_layout).
minix_ino_off() { echo $((MINIX_ITABLE * 1024 + ($1 - 1) * MINIX_ISIZE)); }

# byte_at FILE OFFSET [-d]: the byte at OFFSET in hex, read with pread (with
# O_DIRECT for -d; OFFSET must then be aligned).
byte_at() {
	xfs_io ${3:-} -c "pread -q -v $2 4096" "$1" | awk 'NR == 1 { print $2 }'
}

# dev_written CMD...: run CMD, then sync; print the bytes the device wrote
# meanwhile (from /sys/block/*/stat).
dev_written() {
	local stat=/sys/block/${DEV#/dev/}/stat s0
	s0=$(awk '{ print $7 }' "$stat")
	"$@" > /dev/null
	sync
	awk -v s0="$s0" '{ print ($7 - s0) * 512 }' "$stat"
}

# Print the md5 of a file; a file that does not read fails.
md5() {
	local sum
	sum=$(md5sum < "$1") || fail "$1 does not read"
	echo "${sum%% *}"
}

# skip REASON: the case cannot run here (counted apart from passes and failures).
skip() {
	echo "SKIP: $*" >&2
	exit 77
}

# run_integrity MIX OPS [OPTIONS...]: the data-integrity exerciser on two files
# in the current directory. Seeds are fixed per case, block size and options
# (SEED overrides) so a failure replays. SCALE multiplies the op count, which
# SEEDS (default 1) runs split over that many seeds.
run_integrity() {
	local mix=$1 ops=$2 seed i n=${SEEDS:-1}
	shift 2
	ops=$((ops * SCALE / n))
	for ((i = 0; i < n; i++)); do
		seed=${SEED:-$(cksum <<< "$CASE-$FS_BS-$*-$i" | cut -d' ' -f1)}
		"$TOOLS/integrity" -q -S "$seed" -N "$ops" -m "$mix" "$@" f1 f2 ||
			fail "integrity -S $seed -N $ops -m $mix $* failed"
	done
	# The exerciser reads through cached inodes and indirect blocks; what it
	# left must also be on the disk.
	local sums
	sums=$(set -o pipefail; md5sum f1 f2) || fail "f1, f2 do not read back"
	fs_cycle "$FS_MOUNT"
	[ "$(md5sum f1 f2)" = "$sums" ] || fail "f1, f2 differ after a remount (integrity -m $mix $*)"
}

# The GNU build ID of a module file, or of the loaded module NAME (/sys/module).
module_build_id() { # FILE.ko | NAME
	if [ -f "$1" ]; then
		readelf -n "$1" | awk '/Build ID/ { print $3 }'
	else
		tail -c 20 "/sys/module/$1/notes/.note.gnu.build-id" 2> /dev/null | od -An -tx1 | tr -d ' \n'
	fi
}

# group_field GROUP 'Block bitmap' | 'Inode bitmap' | 'Inode table': the first
# block of that metadata of a group, from dumpe2fs.
group_field() {
	dumpe2fs "$DEV" 2> /dev/null |
		awk -v g="Group $1:" -v f="$2 at" '
			index($0, g) == 1 { in_g = 1; next }
			/^Group / { in_g = 0 }
			in_g && index($0, f) { sub(".*" f " ", ""); sub("[- ].*", ""); print; exit }'
}

# bh_usage: the kernel's buffer heads and the KiB of the block device's page
# cache ("Buffers", where buffer heads keep metadata), for expect_no_bh.
bh_usage() {
	echo "$(awk '$1 == "buffer_head" { print $2 }' /proc/slabinfo)" \
		"$(awk '$1 == "Buffers:" { print $2 }' /proc/meminfo)"
}

# expect_no_bh "$(bh_usage)": neither grew since then (a few buffer heads
# come and go with other users of the block layer).
expect_no_bh() {
	local bh0 buf0 bh1 buf1
	read -r bh0 buf0 <<< "$1"
	read -r bh1 buf1 <<< "$(bh_usage)"
	[ -n "$bh0" ] && [ -n "$buf0" ] || fail "no buffer_head count or Buffers in /proc"
	echo "buffer heads $bh0 -> $bh1, Buffers $buf0 -> $buf1 KiB"
	[ $((bh1 - bh0)) -lt 64 ] || fail "$((bh1 - bh0)) buffer heads appeared during the workload"
	[ $((buf1 - buf0)) -le 8 ] || fail "the block device's page cache grew by $((buf1 - buf0)) KiB"
}

# fs_buf_stat DEVICE FIELD: a counter of the mount's fs_buf cache (debugfs).
fs_buf_stat() {
	awk -v f="$2" '$1 == f { print $2 }' "/sys/kernel/debug/fs_buf/${1#/dev/}/stats" 2> /dev/null
}

# dm_block_error NAME BLOCK: a device-mapper device NAME over $DEV, linear;
# its table $DM_BAD makes block BLOCK (of $FS_BS bytes) fail with dm-error,
# $DM_GOOD undoes that (dm_swap_table). Sets DM_DEV (/dev/mapper/NAME) and
# DM_NAME (the kernel's dm-N). The caller removes NAME.
dm_block_error() {
	local size spb at
	size=$(blockdev --getsz "$DEV")
	spb=$((FS_BS / 512)) at=$(($2 * FS_BS / 512))
	DM_GOOD="0 $size linear $DEV 0"
	DM_BAD="0 $at linear $DEV 0
$at $spb error
$((at + spb)) $((size - at - spb)) linear $DEV $((at + spb))"
	dmsetup create "$1" --table "$DM_GOOD" || fail "dmsetup create $1"
	dmsetup mknodes
	DM_DEV=/dev/mapper/$1
	DM_NAME=dm-$(dmsetup info -c --noheadings -o minor "$1" | tr -d " ")
}

# dm_swap_table NAME TABLE
# The table is loaded before the suspend: loading allocates, and reclaim
# must not wait on writeback to a suspended device.
dm_swap_table() {
	dmsetup load "$1" --table "$2" && dmsetup suspend --nolockfs "$1" &&
		dmsetup resume "$1" || fail "dmsetup: cannot switch the table of $1"
}

# fault_inject NAME PROBABILITY TIMES [ATTR=VALUE...]: turn on the kernel's
# fault injection NAME (failslab, fail_page_alloc, fail_make_request; a debug
# kernel has them, make check-debug) failing PROBABILITY percent of the calls
# it sees, at most TIMES in all; sleeping allocations fail too. Skips where
# there is none. fault_injected NAME: the failures injected since.
fault_inject() {
	local d=/sys/kernel/debug/$1 a
	[ -d "$d" ] || skip "no $1 in this kernel (make check-debug has it)"
	echo 0 > "$d/probability"
	echo 1 > "$d/interval"
	echo 0 > "$d/space"
	echo 1 > "$d/verbose"
	echo "$3" > "$d/times"
	[ ! -e "$d/ignore-gfp-wait" ] || echo N > "$d/ignore-gfp-wait"
	FAULT_TIMES=$3
	for a in "${@:4}"; do echo "${a#*=}" > "$d/${a%%=*}" || fail "$1: cannot set ${a%%=*}"; done
	echo "$2" > "$d/probability"
}
fault_injected() {
	local left
	left=$(cat "/sys/kernel/debug/$1/times")
	echo $((FAULT_TIMES - left))
}
fault_off() {
	echo 0 > "/sys/kernel/debug/$1/probability"
}
