# Slab allocation failures in our own caches only (failslab with its cache
# filter on ext2_inode_cache and fs_buf; a debug kernel): creating, looking
# up and reading files after their inodes left the cache fails with ENOMEM
# and nothing else, every file whose creation succeeded is there with its
# contents after a remount, and e2fsck is clean. fs_buf's own lookups never
# fail (__GFP_NOFAIL), so of fs_buf only directory readahead sees failures.
# block-sizes: 1024 4096
# build/kernel-debug.config marks the two caches (slub_debug=A).
fault_inject failslab 0 0 cache-filter=Y
for c in ext2_inode_cache fs_buf; do
	[ "$(cat "/sys/kernel/slab/$c/failslab" 2> /dev/null)" = 1 ] ||
		fail "cache $c is not marked for failslab (slub_debug=A,$c)"
done
trap 'fault_off failslab' EXIT

# n files over 8 directories; every 50, the inodes and dentries are dropped
# so the next lookups read them in again.
n=$((400 * SCALE)) made=() nomem=0
for d in 0 1 2 3 4 5 6 7; do mkdir "d$d"; done
fault_inject failslab 10 100000 cache-filter=Y
for ((i = 1; i <= n; i++)); do
	f=d$((i % 8))/f$i
	if out=$( { echo "$i" > "$f"; } 2>&1); then
		made+=("$f")
	else
		grep -q "Cannot allocate memory" <<< "$out" || fail "create $f: $out"
		nomem=$((nomem + 1))
	fi
	if ((i % 50 == 0)); then
		echo 2 > /proc/sys/vm/drop_caches
		for f in "${made[@]: -40}"; do
			if ! out=$( { read -r v < "$f" && echo "$v"; } 2>&1); then
				grep -q "Cannot allocate memory" <<< "$out" || fail "read $f: $out"
				nomem=$((nomem + 1))
			elif [ "$out" != "${f##*/f}" ]; then
				fail "$f holds '$out'"
			fi
		done
	fi
done
fault_off failslab
injected=$(fault_injected failslab)
echo "files made ${#made[@]} of $n, ENOMEM seen $nomem, failures injected $injected"
[ "$injected" -gt 0 ] || fail "no allocation failure was injected"
[ "$nomem" -gt 0 ] || fail "no ENOMEM reached a caller ($injected failures injected)"

fs_cycle
for f in "${made[@]}"; do
	read -r v < "$f" || fail "$f is missing after the remount"
	[ "$v" = "${f##*/f}" ] || fail "$f holds '$v' after the remount"
done
