# Memory pressure and concurrency. tools/stress (six processes on shared
# files and directories: buffered, O_DIRECT and mmap I/O, truncates,
# creates, renames, unlinks, fsync) works for a minute (times SCALE) on
# 192 MiB of files in a memory cgroup capped at 96 MiB (a debug kernel:
# longer, under a smaller cap), and beside it the integrity exerciser
# runs in one capped at 48 MiB (its files are 32 MiB,
# its model 32 MiB more): both reclaim their own pages all along, dirty
# ones through writeback. Every 2 s, drop_caches runs fs_buf's shrinker and
# evicts inodes and dentries under the live operations. Then a remount,
# and every slot and name is what the model says. Nothing may be
# OOM-killed, and the pressure must be real: pages were reclaimed, the
# cgroups reached their limits, and fs_buf's shrinker gave buffers back.
# STRESS_GLOBAL=1 (make check-full), or a kernel without the memory
# controller, cuts the whole guest to 384 MiB instead (the rest reserved as
# huge pages): kswapd, direct reclaim in GFP_NOFS contexts, the shrinker
# called from reclaim. Under TCG on a loaded host that mode has drawn an
# RCU stall (readahead) and a kcompactd soft lockup from generic mm code,
# so make check stays with the cgroups.
# block-sizes: 1024 4096
# timeout: 600
# A slower kernel (TIMEOUT_SCALE: the debug kernel does a fifth of the
# operations a second) runs longer against a smaller cap, so that it too
# presses on its limit; at 60 s and 96 MiB it never reached it.
slow=${TIMEOUT_SCALE:-1}
secs=$((60 * SCALE * slow))
seed=${SEED:-$(cksum <<< "$CASE-$FS_BS" | cut -d' ' -f1)}
hp=/proc/sys/vm/nr_hugepages cgroot=/sys/fs/cgroup
cgs=() cg_stress="" cg_int=""
cleanup() {
	rm -f /tmp/stress.run
	wait
	local c
	for c in "${cgs[@]}"; do rmdir "$c"; done
	echo 0 > "$hp"
}
trap cleanup EXIT
# in_cg CGROUP CMD...: run CMD in CGROUP ("" for none)
in_cg() {
	local c=$1
	shift
	(
		[ -z "$c" ] || echo "$BASHPID" > "$c/cgroup.procs"
		exec "$@"
	)
}
# new_cg NAME MAX: a memory cgroup capped at MAX
new_cg() {
	mkdir -p "$cgroot/$1"
	cgs+=("$cgroot/$1")
	echo "$2" > "$cgroot/$1/memory.max"
}
# pages reclaimed by global reclaim (a cgroup's own is not counted here)
pgsteal() {
	awk '/^pgsteal_(kswapd|direct) / { n += $2 } END { print n }' /proc/vmstat
}
cg_stat() { awk -v f="$2" '$1 == f { print $2 }' "$1/$3"; }

sync
echo 3 > /proc/sys/vm/drop_caches
mountpoint -q "$cgroot" || mount -t cgroup2 none "$cgroot"
global=""
[ "${STRESS_GLOBAL:-0}" = 0 ] || global=1
if ! grep -qw memory "$cgroot/cgroup.controllers"; then
	echo "no memory controller in this kernel: the whole guest is cut instead"
	global=1
fi
pressure="cgroups only"
if [ -n "$global" ]; then
	pressure="guest cut to 384 MiB"
	echo 1 > /proc/sys/vm/compact_memory
	total=$(awk '/^MemTotal:/ { print $2 }' /proc/meminfo)
	hpkb=$(awk '/^Hugepagesize:/ { print $2 }' /proc/meminfo)
	echo $(((total - 384 * 1024) / hpkb)) > "$hp"
	left=$((total - $(cat "$hp") * hpkb))
	echo "memory: $((left / 1024)) MiB of $((total / 1024)) left," \
		"$(awk '/^MemAvailable:/ { print int($2 / 1024) }' /proc/meminfo) MiB available"
	[ "$left" -le $((416 * 1024)) ] ||
		fail "reserved only $(cat "$hp") huge pages: $((left / 1024)) MiB left"
fi
if grep -qw memory "$cgroot/cgroup.controllers"; then
	echo +memory > "$cgroot/cgroup.subtree_control"
	new_cg stress-int 48M
	cg_int=$cgroot/stress-int
	if [ -z "$global" ]; then
		new_cg stress $((96 / slow))M
		cg_stress=$cgroot/stress
	fi
fi

# stock ext2 (make reliability) has no fs_buf
dev=${DEV#/dev/} fs_buf=""
[ -d /sys/module/fs_buf ] && fs_buf=1
reclaimed0=$(fs_buf_stat "$dev" reclaimed)
[ -z "$fs_buf" ] || [ -n "$reclaimed0" ] || fail "no fs_buf counters for $dev"
touch /tmp/stress.run
if [ -n "$global" ]; then
	# Cold metadata for the shrinker: with 4 KiB blocks the stress files
	# need few metadata blocks, and a shrinker scans a small cache rarely.
	mkdir cold
	perl -e 'for my $d (0 .. 99) { mkdir "cold/$d" or die "mkdir: $!";
		for my $i (0 .. 199) { open(my $f, ">", "cold/$d/$i") or die "create: $!"; } }' \
		< /dev/null || fail "creating the cold tree"
	sync
	# What the page files hold after a minute depends on the ops (at 4 KiB,
	# less than the memory left): fill that memory with clean page cache of
	# the spare disk first, so the run needs reclaim from its start.
	avail=$(awk '/^MemAvailable:/ { print int($2 / 1024) }' /proc/meminfo)
	dd if="$AUX_DEV" of=/dev/null bs=1M count="$avail" 2> /dev/null || fail "reading $AUX_DEV"
else
	# the shrinker under the live operations, without global pressure
	(
		while [ -e /tmp/stress.run ]; do
			echo 2 > /proc/sys/vm/drop_caches
			sleep 2
		done
	) &
fi
steal0=$(pgsteal)
mkdir int
(
	cd int
	i=0
	while [ -e /tmp/stress.run ]; do
		in_cg "$cg_int" "$TOOLS/integrity" -q -S $((seed + i)) -N 1000 -m mixed -l 16m f1 f2 ||
			fail "integrity -S $((seed + i)) -N 1000 -m mixed -l 16m failed"
		i=$((i + 1))
	done
	echo "integrity: $i runs"
) &
integrity=$!
# the stress files (192 MiB) are larger than the memory left or the cgroup
in_cg "$cg_stress" "$TOOLS/stress" run -p 6 -t "$secs" -S "$seed" -s 192m \
	-m /tmp/stress.model "$MNT/stress" | tee /tmp/stress.out
[ "${PIPESTATUS[0]}" = 0 ] || fail "stress run -p 6 -t $secs -S $seed -s 192m failed"
rm /tmp/stress.run
wait "$integrity" || fail "the integrity exerciser failed"
wait
ops=$(sed -n 's/^stress: .*(\([0-9]*\) ops)$/\1/p' /tmp/stress.out)

# pages reclaimed: globally, or in the stress cgroups (which counts their
# pages however they were reclaimed)
if [ -n "$global" ]; then
	steal=$(($(pgsteal) - steal0))
else
	steal=0
	for c in "${cgs[@]}"; do
		steal=$((steal + $(cg_stat "$c" pgsteal memory.stat)))
	done
fi
reclaimed=$((${fs_buf:+$(fs_buf_stat "$dev" reclaimed) - reclaimed0}))
atmax=""
for c in "${cgs[@]}"; do
	echo "${c##*/}: $(paste -sd' ' "$c/memory.events")"
	atmax+="${atmax:+, }$(cg_stat "$c" max memory.events) (${c##*/})"
	[ "$(cg_stat "$c" oom_kill memory.events)" = 0 ] ||
		fail "the OOM killer ran in ${c##*/}"
	[ "$(cg_stat "$c" max memory.events)" -gt 0 ] || fail "${c##*/} never reached its limit"
done
# for make reliability. What the counts cover: global reclaim counts the
# spare disk's cache too, and the fs_buf shrinker is not memcg-aware, so
# with cgroups only the drop_caches loop runs it.
echo "$FS_TYPE bs=$FS_BS stress: $secs s, $ops ops, $steal pages" \
	"$([ -n "$global" ] && echo "reclaimed in the guest" || echo "of the cgroups reclaimed")," \
	"$reclaimed fs_buf buffers reclaimed $([ -n "$global" ] && echo "by reclaim and drop_caches" || echo "by drop_caches")," \
	"cgroups at their limits ${atmax:-none} times, $pressure" | tee -a "$RUN_DIR/stress.txt"
if dmesg | grep -E "Out of memory|oom-kill"; then
	fail "the OOM killer ran"
fi
[ "$steal" -gt 0 ] || fail "no page was reclaimed: no memory pressure"
[ -z "$fs_buf" ] || [ "$reclaimed" -gt 0 ] || fail "the fs_buf shrinker reclaimed nothing"

fs_cycle
"$TOOLS/stress" verify -m /tmp/stress.model "$MNT/stress" ||
	fail "after the remount the files differ from the model"
