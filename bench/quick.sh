#!/bin/bash
# Quick A/B of our ext2 against the stock 6.1 ext2 (the same tree at "pristine"),
# one VM boot per round, alternating stock/ours; prints medians and ratios.
#   bench/quick.sh [ROUNDS]   (default 3)
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
out=$top/build/out/bench-quick
rounds=${1:-3}
rm -rf "$out"
mkdir -p "$out"
"$top/build/modules.sh" --rev pristine --out "$top/build/out/modules-stock" > /dev/null
for ((r = 1; r <= rounds; r++)); do
	for fs in stock ours; do
		mods=$top/build/out/modules
		[ "$fs" = stock ] && mods=$top/build/out/modules-stock
		echo "bench: round $r/$rounds: $fs" >&2
		"$top/vm/run.sh" --name "bench-$fs" --modules "$mods" --timeout 1200 \
			"$top/bench/quick-job.sh" 2>&1 | sed -n 's/^bench: //p' | tr -d '\r' |
			sed "s/^/$fs /" >> "$out/raw.txt"
	done
done
# Median per metric and filesystem, and ours/stock.
median() { # FS METRIC
	awk -v fs="$1" -v m="$2" '$1 == fs && $2 == m { print $3 }' "$out/raw.txt" | sort -n |
		awk '{ v[NR] = $1 } END { if (NR) print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}
{
	printf '%-28s %10s %10s %10s  (%s rounds, medians)\n' metric stock ours ours/stock "$rounds"
	awk '{ print $2, $4 }' "$out/raw.txt" | sort -u | while read -r metric unit; do
		s=$(median stock "$metric") o=$(median ours "$metric")
		printf '%-28s %10s %10s %10s  %s\n' "$metric" "$s" "$o" \
			"$(awk -v s="$s" -v o="$o" 'BEGIN { if (s > 0) printf "%.2f", o / s; else print "-" }')" "$unit"
	done
} | tee "$out/report.txt"
