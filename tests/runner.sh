#!/bin/bash
# Guest side of the test suite: run test cases against a fresh filesystem,
# ext2 at each block size and minix at each layout version, then check it
# with e2fsck -fn or fsck.minix -f, and the kernel's log.
#   runner.sh [CASE...]        (default: every tests/cases/*.sh)
# Environment: BLOCK_SIZES (default "1024 2048 4096"), MINIX_VERSIONS
# (default "1 2 3"), FILESYSTEMS (default "ext2 minix"), SCALE (default 1),
# ONCE=1 (each case at the first of those block sizes and layouts it takes),
# RESULTS (file that gets one line per result).
# A case file may start with header lines:
#   # fs: ext2 minix           the filesystems it runs on (default ext2)
#   # block-sizes: 4096        only these ext2 block sizes
#   # minix-versions: 3        only these minix layouts
#   # fs-size: 64M             size of the filesystem (default 512M)
#   # mkfs: OPTIONS            extra mkfs.ext2 options (ext2 runs only)
#   # mount: OPTIONS           mount options
#   # setup: none              the case makes and mounts its filesystem itself
#   # timeout: SEC             (default 900; times SCALE and TIMEOUT_SCALE)
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
top=$(dirname "$here")
. "$top/vm/kcheck.sh"
. "$top/tests/lib.sh"

export DEV=/dev/vda AUX_DEV=/dev/vdb MNT=/mnt/scratch
export TOOLS=$top/build/out/tools SCALE=${SCALE:-1} RUN_DIR=${RUN_DIR:-$PWD}
RESULTS=${RESULTS:-/dev/null}
block_sizes=${BLOCK_SIZES:-1024 2048 4096}
minix_versions=${MINIX_VERSIONS:-1 2 3}
filesystems=${FILESYSTEMS:-ext2 minix}
# Debug kernel only: kmemleak, and lockdep's own switch (it turns itself off
# after its first report, and then sees nothing more).
kmemleak=/sys/kernel/debug/kmemleak
[ -w "$kmemleak" ] || kmemleak=""
lockdep_on() { grep -q 'debug_locks: *1' /proc/lockdep_stats 2> /dev/null; }

header() { sed -n "s/^# $2: *//p" "$1" | head -1; }

passed=0 failed=0 skipped=0 prev_case=""
# A run's label: bs=1024 (ext2 with 1 KiB blocks) or minix-v3.
result() { # STATUS LABEL NAME DETAIL
	echo "$1 $2 $3${4:+ $4}" >> "$RESULTS"
	case "$1" in
	ok) passed=$((passed + 1)); echo "ok   $2 $3 $4" ;;
	skip) skipped=$((skipped + 1)); echo "skip $2 $3 $4" ;;
	*) failed=$((failed + 1)); echo "FAIL $2 $3 $4" ;;
	esac
}

# run_case FILE FS LAYOUT LAST: LAYOUT is the block size for ext2, the
# version for minix; LAST is yes after the case's last run.
run_case() {
	local file=$1 fs=$2 layout=$3 last=$4 name label log klog t0 taint0 lockdep0 leaks why=""
	name=$(basename "$file" .sh)
	export FS_TYPE=$fs FS_MODULE=$fs FS_BS MINIX_VERSION FS_SIZE FS_MKFS FS_MOUNT CASE=$name
	if [ "$fs" = minix ]; then
		FS_BS=1024 MINIX_VERSION=$layout label=minix-v$layout
	else
		FS_BS=$layout MINIX_VERSION="" label=bs=$layout
	fi
	log=/tmp/$name-$label.log
	klog=/tmp/$name-$label.dmesg
	FS_SIZE=$(header "$file" fs-size)
	FS_SIZE=${FS_SIZE:-512M}
	FS_MKFS=""
	[ "$fs" != ext2 ] || FS_MKFS=$(header "$file" mkfs)
	FS_MOUNT=$(header "$file" mount)
	local setup tmo
	setup=$(header "$file" setup)
	tmo=$(header "$file" timeout)
	tmo=${tmo:-900}
	# SCALE multiplies the work a case does (check-full), so its time too;
	# TIMEOUT_SCALE the time alone (a debug kernel is several times slower)
	tmo=$((tmo * SCALE * ${TIMEOUT_SCALE:-1}))

	# Defaults a case may have changed.
	echo 500 > /proc/sys/vm/dirty_writeback_centisecs
	echo 3000 > /proc/sys/vm/dirty_expire_centisecs
	echo 0 > /proc/sys/vm/nr_hugepages
	for c in /sys/devices/system/cpu/cpu[1-9]*/online; do
		[ ! -e "$c" ] || echo 1 > "$c"
	done
	# a WARN_ON_ONCE an earlier case hit must show again
	[ ! -e /sys/kernel/debug/clear_warn_once ] || echo 1 > /sys/kernel/debug/clear_warn_once
	dmesg -c > /dev/null
	taint0=$(cat /proc/sys/kernel/tainted)
	lockdep0=$(lockdep_on && echo on)
	t0=${EPOCHREALTIME/./}
	timeout -k 10 "$tmo" bash -c '
		set -e
		. "$1/tests/lib.sh"
		if [ "$2" != none ]; then
			fs_mkfs $FS_MKFS
			fs_mount "$FS_MOUNT"
		fi
		cd "$MNT"
		. "$3"
		cd /
		if mountpoint -q "$MNT"; then fs_umount; fi
	' case "$top" "$setup" "$file" > "$log" 2>&1
	local rc=$?
	case $rc in
	0|77) ;;
	124|137) why="timed out after ${tmo}s" ;;
	*) why=$(grep -m1 '^FAIL: ' "$log" | cut -c7-); why=${why:-exited with an error} ;;
	esac
	# Whatever happened, the filesystem must end unmounted and clean, and the
	# kernel quiet.
	if mountpoint -q "$MNT"; then umount "$MNT" || umount -l "$MNT"; fi
	# A device-mapper device left on the disk would keep the next case's
	# mkfs from opening it.
	if [ -n "$(dmsetup ls 2> /dev/null | grep -v '^No devices')" ]; then
		[ -n "$why" ] || why="left device-mapper devices behind"
		dmsetup remove_all --force > /dev/null 2>&1
	fi
	blockdev --flushbufs "$DEV"
	# The runner made this filesystem, so it checks it whatever is left of
	# it; a case that makes its own may leave none.
	local check=$fs
	if [ "$setup" = none ]; then
		if [ "$(blkid -p -s TYPE -o value "$DEV" 2> /dev/null)" = minix ]; then
			check=minix
		elif dumpe2fs -h "$DEV" > /dev/null 2>&1; then
			check=ext2
		else
			check=""
		fi
	fi
	if [ -z "$why" ] && [ -n "$check" ]; then
		FS_TYPE=$check fs_check_disk >> "$log" 2>&1 ||
			why="$([ "$check" = minix ] && echo fsck.minix -f || echo e2fsck -fn) found errors"
	fi
	# What was leaked: kmemleak reports an object it found unreferenced and
	# unchanged in two scans in a row. A scan takes 12-15 s on the debug
	# kernel under TCG, so there is one a case, after its last run: what it
	# reports was leaked by this case or the one before (the last case's
	# leaks show in the scan at the end of the boot). Cleared, so a leak is
	# reported once.
	if [ -n "$kmemleak" ] && [ "$last" = yes ]; then
		echo scan > "$kmemleak"
		leaks=$(cat "$kmemleak")
		if [ -n "$leaks" ]; then
			echo "kmemleak: leaked by $name or by the case before it (${prev_case:-none})" >> "$log"
			echo "$leaks" >> "$log"
		fi
		echo clear > "$kmemleak"
		prev_case=$name
	fi
	dmesg > "$klog"
	if [ -z "$why" ] && ! kcheck_log "$klog" >> "$log"; then
		why="kernel log: $(grep -m1 '^kernel log' "$log" | cut -c13-)"
	fi
	if [ -z "$why" ] && [ -n "$lockdep0" ] && ! lockdep_on; then
		why="lockdep turned itself off (see the kernel log)"
	fi
	if [ -z "$why" ] && [ "$(cat /proc/sys/kernel/tainted)" != "$taint0" ]; then
		kcheck_taint "$(cat /proc/sys/kernel/tainted)" >> "$log" || why="kernel became tainted"
	fi
	[ -z "$why" ] && [ "$rc" = 77 ] && why=skip
	local us=$((${EPOCHREALTIME/./} - t0))
	local secs=$((us / 1000000)).$((us / 100000 % 10))
	if [ "$why" = skip ]; then
		result skip "$label" "$name" "($(grep -m1 '^SKIP: ' "$log" | cut -c7-))"
	elif [ -n "$why" ]; then
		result FAIL "$label" "$name" "($secs s): $why"
		# the head says what went wrong, the tail what led up to the end
		if [ "$(wc -l < "$log")" -gt 60 ]; then
			sed 's/^/    | /' "$log" | head -20
			echo "    | ..."
		fi
		sed 's/^/    | /' "$log" | tail -40
		[ -s "$klog" ] && sed 's/^/    k /' "$klog" | tail -40
	else
		result ok "$label" "$name" "(${secs}s)"
	fi
}

cases=()
if [ $# -eq 0 ]; then
	cases=("$here"/cases/*.sh)
else
	# A name, or a pattern for a group: 'integrity_*'.
	for c in "$@"; do
		for f in "$here"/cases/${c%.sh}.sh; do cases+=("$f"); done
	done
fi
for file in "${cases[@]}"; do
	[ -f "$file" ] || { result FAIL - "$(basename "$file" .sh)" "no such case"; continue; }
	only=$(header "$file" block-sizes)
	only_minix=$(header "$file" minix-versions)
	fss=$(header "$file" fs)
	runs=()
	for fs in ${fss:-ext2}; do
		grep -qw "$fs" <<< "$filesystems" || continue
		case $fs in
		ext2)
			for bs in $block_sizes; do
				[ -z "$only" ] || grep -qw "$bs" <<< "$only" || continue
				runs+=("ext2 $bs")
				[ "${ONCE:-}" != 1 ] || break
			done ;;
		minix)
			for v in $minix_versions; do
				[ -z "$only_minix" ] || grep -qw "$v" <<< "$only_minix" || continue
				runs+=("minix $v")
				[ "${ONCE:-}" != 1 ] || break
			done ;;
		*) result FAIL - "$(basename "$file" .sh)" "unknown filesystem $fs" ;;
		esac
	done
	for i in "${!runs[@]}"; do
		last=no
		[ "$i" -lt $((${#runs[@]} - 1)) ] || last=yes
		run_case "$file" ${runs[$i]} "$last"
	done
done
echo "guest totals: $passed ok, $failed failing, $skipped skipped"
[ "$failed" -eq 0 ]
