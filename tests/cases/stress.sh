# Memory pressure and concurrency. The guest is cut to 384 MiB (the rest is
# reserved as huge pages): tools/stress (six processes on shared files and
# directories: buffered, O_DIRECT and mmap I/O, truncates, creates, renames,
# unlinks, fsync) works on more data than that for a minute (times SCALE),
# and beside it the integrity exerciser runs in a memory cgroup capped at
# 48 MiB (its files are 32 MiB, its model 32 MiB more) where the kernel has
# the memory controller. Then a remount, and every slot and name is what the
# model says. Nothing may be OOM-killed, and the pressure must be real:
# pages were reclaimed globally and in the cgroup, and fs_buf's shrinker
# gave buffers back. (At 256 MiB, both vCPUs thrashing in readahead
# under TCG went 21 s without a quiescent state: an RCU stall report in
# generic mm code, in CI and in a local run beside other VMs.)
# block-sizes: 1024
# (4096 is out until a slow run is understood: in a full suite it
# made 631 ops in 60 s where a run alone makes 39,000, and reclaimed nothing)
# timeout: 600
secs=$((60 * SCALE))
seed=${SEED:-$(cksum <<< "$CASE-$FS_BS" | cut -d' ' -f1)}
hp=/proc/sys/vm/nr_hugepages cgroot=/sys/fs/cgroup cg=/sys/fs/cgroup/stress incg=""
cleanup() {
	rm -f /tmp/stress.run
	wait
	[ -d "$cg" ] && rmdir "$cg"
	echo 0 > "$hp"
}
trap cleanup EXIT
# in_cg CMD...: run CMD in the memory cgroup, if there is one
in_cg() {
	(
		[ -z "$incg" ] || echo "$BASHPID" > "$incg"
		exec "$@"
	)
}
pgsteal() {
	awk '/^pgsteal_(kswapd|direct) / { n += $2 } END { print n }' /proc/vmstat
}

sync
echo 3 > /proc/sys/vm/drop_caches
echo 1 > /proc/sys/vm/compact_memory
total=$(awk '/^MemTotal:/ { print $2 }' /proc/meminfo)
hpkb=$(awk '/^Hugepagesize:/ { print $2 }' /proc/meminfo)
echo $(((total - 384 * 1024) / hpkb)) > "$hp"
left=$((total - $(cat "$hp") * hpkb))
echo "memory: $((left / 1024)) MiB of $((total / 1024)) left," \
	"$(awk '/^MemAvailable:/ { print int($2 / 1024) }' /proc/meminfo) MiB available"
[ "$left" -le $((416 * 1024)) ] || fail "reserved only $(cat "$hp") huge pages: $((left / 1024)) MiB left"

mountpoint -q "$cgroot" || mount -t cgroup2 none "$cgroot"
if grep -qw memory "$cgroot/cgroup.controllers"; then
	echo +memory > "$cgroot/cgroup.subtree_control"
	mkdir "$cg"
	echo 48M > "$cg/memory.max"
	incg=$cg/cgroup.procs
else
	echo "no memory controller in this kernel: no cgroup limit"
fi

# stock ext2 (make reliability) has no fs_buf
dev=${DEV#/dev/} fs_buf=""
[ -d /sys/module/fs_buf ] && fs_buf=1
reclaimed0=$(fs_buf_stat "$dev" reclaimed)
[ -z "$fs_buf" ] || [ -n "$reclaimed0" ] || fail "no fs_buf counters for $dev"
# Cold metadata for the shrinker: with 4 KiB blocks the stress files need
# few metadata blocks, and a shrinker scans a small cache rarely.
mkdir cold
perl -e 'for my $d (0 .. 99) { mkdir "cold/$d" or die "mkdir: $!";
	for my $i (0 .. 199) { open(my $f, ">", "cold/$d/$i") or die "create: $!"; } }' \
	< /dev/null || fail "creating the cold tree"
sync
# What the page files hold after a minute depends on the ops (at 4 KiB, less
# than the memory left): fill that memory with clean page cache of the spare
# disk first, so the run needs reclaim from its start.
avail=$(awk '/^MemAvailable:/ { print int($2 / 1024) }' /proc/meminfo)
dd if="$AUX_DEV" of=/dev/null bs=1M count="$avail" 2> /dev/null || fail "reading $AUX_DEV"
steal0=$(pgsteal)
mkdir int
touch /tmp/stress.run
(
	cd int
	i=0
	while [ -e /tmp/stress.run ]; do
		in_cg "$TOOLS/integrity" -q -S $((seed + i)) -N 1000 -m mixed -l 16m f1 f2 ||
			fail "integrity -S $((seed + i)) -N 1000 -m mixed -l 16m failed"
		i=$((i + 1))
	done
	echo "integrity: $i runs"
) &
integrity=$!
# global pressure: the stress files are larger than the memory left
"$TOOLS/stress" run -p 6 -t "$secs" -S "$seed" -s 192m -m /tmp/stress.model "$MNT/stress" |
	tee /tmp/stress.out
[ "${PIPESTATUS[0]}" = 0 ] || fail "stress run -p 6 -t $secs -S $seed -s 192m failed"
rm /tmp/stress.run
wait "$integrity" || fail "the integrity exerciser failed"
ops=$(sed -n 's/^stress: .*(\([0-9]*\) ops)$/\1/p' /tmp/stress.out)

steal=$(($(pgsteal) - steal0))
reclaimed=$((${fs_buf:+$(fs_buf_stat "$dev" reclaimed) - reclaimed0}))
atmax=none
if [ -n "$incg" ]; then
	cat "$cg/memory.events"
	atmax=$(awk '$1 == "max" { print $2 }' "$cg/memory.events")
fi
# for make reliability
echo "$FS_TYPE bs=$FS_BS stress: $secs s, $ops ops, $steal pages and $reclaimed fs_buf" \
	"buffers reclaimed, cgroup at its limit $atmax times" | tee -a "$RUN_DIR/stress.txt"
if [ -n "$incg" ]; then
	[ "$(awk '$1 == "oom_kill" { print $2 }' "$cg/memory.events")" = 0 ] ||
		fail "the cgroup's OOM killer ran"
	[ "$atmax" -gt 0 ] || fail "the cgroup never reached its limit"
fi
if dmesg | grep -E "Out of memory|oom-kill"; then
	fail "the OOM killer ran"
fi
[ "$steal" -gt 0 ] || fail "no page was reclaimed: no memory pressure"
[ -z "$fs_buf" ] || [ "$reclaimed" -gt 0 ] || fail "the fs_buf shrinker reclaimed nothing"

fs_cycle
"$TOOLS/stress" verify -m /tmp/stress.model "$MNT/stress" ||
	fail "after the remount the files differ from the model"
