#!/bin/bash
# Two builds of our ext2 in one VM boot, modules swapped between runs and the
# order swapped every round (A B, B A, A B ...), on the rows where
# the per-boot bench (bench.sh) is too noisy under TCG to tell two versions
# apart: host load shifts a whole boot, not a pair of neighbouring runs.
# Report only: per-round values, medians and the median of the per-round
# B/A ratios.
#   bench/ab.sh [--rounds N] [--rows data|meta] A B
#     A, B      "ours" (the working tree) or "NAME@REV" (commit REV of build/linux)
#     --rounds  rounds (default 6); round 0 is a warm-up, left out of the medians
#     --rows    data rows (default) or the metadata rows at a fifth of full scale
# Output: build/out/bench-ab/report.md.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
rounds=6 rows=data
while [ $# -gt 0 ]; do
	case "$1" in
	--rounds) rounds=$2; shift 2 ;;
	--rows) rows=$2; shift 2 ;;
	-*) sed -n '2,/^set /p' "$0" | sed '$d' >&2; exit 2 ;;
	*) break ;;
	esac
done
[ $# -eq 2 ] || { sed -n '2,/^set /p' "$0" | sed '$d' >&2; exit 2; }
out=$top/build/out/bench-ab
rm -rf "$out"
mkdir -p "$out"
make -C "$top" -s modules tools > /dev/null

# modules_dir SPEC: the module directory of "ours" or "NAME@REV"
modules_dir() {
	case "$1" in
	ours) echo "$top/build/out/modules" ;;
	*@*) "$top/build/modules.sh" --rev "${1#*@}" --out "$top/build/out/modules-${1%@*}" > /dev/null &&
		echo "$top/build/out/modules-${1%@*}" ;;
	*) echo "bench/ab.sh: A and B are 'ours' or NAME@REV" >&2; exit 2 ;;
	esac
}
a=$(modules_dir "$1") b=$(modules_dir "$2")
na=${1%@*} nb=${2%@*}
[ "$na" != "$nb" ] || { na=A nb=B; }

"$top/vm/run.sh" --name bench-ab --modules none --timeout $((rounds * 600)) \
	--env "AB_NAMES=$na $nb" --env "AB_MODULES=$a $b" --env "AB_ROUNDS=$rounds" --env "AB_ROWS=$rows" \
	"$top/bench/ab-job.sh" | tee "$out/console.log" | grep --line-buffered '^ab: '
{
	echo "# $na vs $nb, one boot, alternating ($rounds rounds, round 0 left out)"
	echo
	echo "    bench/ab.sh --rounds $rounds --rows $rows $1 $2"
	echo
	echo "| row | unit | $na median | $nb median | $nb/$na (median of rounds) | rounds $nb ahead | $na per round | $nb per round |"
	echo "|---|---|---|---|---|---|---|---|"
	grep -a '^ab: ' "$out/console.log" | awk -v na="$na" -v nb="$nb" '
	function median(s,   v, n, i, j, t) {
		n = split(s, v, " ")
		for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++)
			if (v[j] + 0 < v[i] + 0) { t = v[i]; v[i] = v[j]; v[j] = t }
		return n % 2 ? v[(n + 1) / 2] : (v[n / 2] + v[n / 2 + 1]) / 2
	}
	# ab: ROUND NAME ROW VALUE UNIT (the serial console ends lines with \r)
	{ sub(/\r$/, ""); r = $2; row = $4; unit[row] = $6; val[r, $3, row] = $5; if (!(row in seen)) { seen[row] = 1; rows[++nrows] = row } if (r > maxr) maxr = r }
	END {
		for (i = 1; i <= nrows; i++) {
			row = rows[i]; sa = sb = sr = ""; ahead = 0; all_a = all_b = ""
			for (r = 0; r <= maxr; r++) {
				all_a = all_a " " val[r, na, row]; all_b = all_b " " val[r, nb, row]
				if (r == 0) continue
				sa = sa " " val[r, na, row]; sb = sb " " val[r, nb, row]
				sr = sr " " val[r, nb, row] / val[r, na, row]
				better = unit[row] == "ms/GiB" ? val[r, nb, row] < val[r, na, row] : val[r, nb, row] > val[r, na, row]
				ahead += better
			}
			printf "| %s | %s | %s | %s | %.2f | %d of %d |%s |%s |\n", row, unit[row], median(sa), median(sb), median(sr), ahead, maxr, all_a, all_b
		}
	}'
} > "$out/report.md"
cat "$out/report.md"
