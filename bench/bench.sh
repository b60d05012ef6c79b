#!/bin/bash
# Benchmarks: our ext2 against the stock 6.1 ext2 (the tree at "pristine"),
# Debian's ext4 on the same ext2 image, ext4, xfs and tmpfs; or our minix
# against the stock 6.1 minix. One VM boot per filesystem and round,
# filesystems alternating (A B C A B C ...); the report gives medians, min-max
# and ratios to the stock ext2 (or, without it, the stock minix). A benchmark
# never fails on a number: the exit code only says whether every run completed.
#   bench/bench.sh [--quick] [--rounds N] [--fs "LIST"] [--brd]
#     --quick     small sizes (make bench-quick); default full sizes
#     --rounds N  rounds per filesystem (default 3)
#     --fs LIST   filesystems, default "ours stock ext4-ext2 ext4 xfs tmpfs";
#                 "minix minix-stock" compares the two minix modules (v3);
#                 "NAME@REV" is ours built from commit REV of build/linux
#                 (e.g. "v1@v1" to compare two versions of the series)
#     --brd       a guest ramdisk instead of the virtio disk (CPU cost without
#                 device cost; no write-amplification figures)
# Disks are sparse files in host tmpfs (/dev/shm), cache=unsafe, for every
# filesystem alike. Output: build/out/bench-SCALE[-brd]/ (report.md, raw.csv, *.png).
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
scale=full rounds="" dev=vda
filesystems="ours stock ext4-ext2 ext4 xfs tmpfs"
while [ $# -gt 0 ]; do
	case "$1" in
	--quick) scale=quick; shift ;;
	--rounds) rounds=$2; shift 2 ;;
	--fs) filesystems=$2; shift 2 ;;
	--brd) dev=brd; shift ;;
	*) sed -n '2,/^set /p' "$0" | sed '$d' >&2; exit 2 ;;
	esac
done
rounds=${rounds:-3}
out=$top/build/out/bench-$scale
[ "$dev" = brd ] && out=$out-brd
disks=/dev/shm/ext2-bench-$$
mem=2048
[ "$dev" = brd ] && mem=5120
rm -rf "$out"
mkdir -p "$out"
trap 'rm -rf "$disks"' EXIT

make -C "$top" -s modules tools > /dev/null
"$top/build/modules.sh" --rev pristine --out "$top/build/out/modules-stock" > /dev/null

read -ra fss <<< "$filesystems"
for fs in "${fss[@]}"; do
	[ "$fs" = "${fs#*@}" ] ||
		"$top/build/modules.sh" --rev "${fs#*@}" --out "$top/build/out/modules-${fs%@*}" > /dev/null
done
total=$((rounds * ${#fss[@]}))
done_runs=0 failed=0 start=$SECONDS
echo "round,fs,metric,value,unit" > "$out/raw.csv"
for ((r = 1; r <= rounds; r++)); do
	for fs in "${fss[@]}"; do
		name=${fs%@*} job_fs=$fs
		case "$fs" in
		ours | minix) mods=$top/build/out/modules ;;
		stock | minix-stock) mods=$top/build/out/modules-stock ;;
		*@*) mods=$top/build/out/modules-$name job_fs=ours ;;
		*) mods=none ;;
		esac
		eta=""
		if [ "$done_runs" -gt 0 ]; then
			left=$(((SECONDS - start) * (total - done_runs) / done_runs))
			eta=", about $((left / 60)) min $((left % 60)) s left"
		fi
		echo "bench: [$((done_runs + 1))/$total] round $r/$rounds $name ($scale, $dev$eta)"
		if ! "$top/vm/run.sh" --name "bench-$name" --modules "$mods" --mem "$mem" \
			--disk-dir "$disks" --timeout 3600 \
			--env BENCH_FS="$job_fs" --env BENCH_SCALE="$scale" --env BENCH_DEV="$dev" \
			"$top/bench/job.sh" > "$out/$name-$r.log" 2>&1; then
			echo "bench: run $name round $r failed, see $out/$name-$r.log"
			failed=$((failed + 1))
		fi
		tr -d '\r' < "$out/$name-$r.log" | awk -v r="$r" -v fs="$name" \
			'$1 == "bench:" && NF == 4 { print r "," fs "," $2 "," $3 "," $4 }' >> "$out/raw.csv"
		done_runs=$((done_runs + 1))
	done
done
echo "bench: $total runs in $(((SECONDS - start) / 60)) min"
base=stock
[[ " $filesystems " = *" stock "* ]] || [[ " $filesystems " != *" minix-stock "* ]] || base=minix-stock
"$top/bench/report.sh" "$out" "$rounds" "$scale" "$dev" "$base"
[ "$failed" -eq 0 ]
