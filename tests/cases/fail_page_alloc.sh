# Page allocation failures in the exerciser's own calls (fail_page_alloc
# with a task filter; a debug kernel): page cache folios for buffered and
# direct I/O, mmap, truncate. A call that fails says ENOMEM and changes
# nothing it did not acknowledge (a short write into a hole exposes no old
# data, a failed one leaves the file as it was), which the exerciser's reads
# check against its model, also after dropping the cache; e2fsck is clean.
# block-sizes: 1024 4096
fault_inject fail_page_alloc 0 0
trap 'fault_off fail_page_alloc' EXIT
fault_inject fail_page_alloc 3 1000000 task-filter=Y ignore-gfp-highmem=N min-order=0
for mix in buffered mixed; do
	seed=$(cksum <<< "$CASE-$FS_BS-$mix" | cut -d' ' -f1)
	out=$("$TOOLS/integrity" -M -q -S "$seed" -N $((3000 * SCALE)) -l 2m -o 128k -m "$mix" f1 f2 2>&1) ||
		fail "integrity -M -S $seed -m $mix: $out"
	echo "$out"
	enomem=$(sed -n 's/.* enomem=\([0-9]*\).*/\1/p' <<< "$out")
	[ "${enomem:-0}" -gt 0 ] || fail "integrity -m $mix: no op ended with ENOMEM"
done
fault_off fail_page_alloc
echo "failures injected: $(fault_injected fail_page_alloc)"
