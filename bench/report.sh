#!/bin/bash
# Turn bench.sh's raw.csv into report.md (median, ratio to the baseline, stock
# ext2 by default, and min-max per metric and filesystem) and PNG plots.
#   bench/report.sh DIR ROUNDS SCALE DEV [BASE]
set -euo pipefail
dir=$1 rounds=$2 scale=$3 dev=$4 base=${5:-stock}
csv=$dir/raw.csv

# One line per metric and filesystem: metric fs unit median min max
awk -F, 'NR > 1 { k = $3 SUBSEP $2; v[k] = v[k] " " $4; u[$3] = $5
	if (!(($3) in seen_m)) { seen_m[$3] = ++nm; ms[nm] = $3 }
	if (!(($2) in seen_f)) { seen_f[$2] = ++nf; fs[nf] = $2 } }
END {
	for (i = 1; i <= nm; i++) for (j = 1; j <= nf; j++) {
		k = ms[i] SUBSEP fs[j]
		if (!(k in v)) continue
		n = split(v[k], a, " ")
		for (x = 1; x <= n; x++) for (y = x + 1; y <= n; y++)
			if (a[y] + 0 < a[x] + 0) { t = a[x]; a[x] = a[y]; a[y] = t }
		med = (n % 2) ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
		print ms[i], fs[j], u[ms[i]], med, a[1], a[n]
	}
}' "$csv" > "$dir/medians.txt"

fss=$(awk '{ print $2 }' "$dir/medians.txt" | awk '!s[$0]++' | tr '\n' ' ')
better() { case "$1" in MiB/s | IOPS | ops/s | files/s) echo "higher" ;; KiB) echo "-" ;; *) echo "lower" ;; esac; }
{
	echo "# Benchmark report ($scale, $rounds rounds, device $dev)"
	echo
	echo "Each cell: median, (ratio to $base), [min-max] over $rounds rounds, one VM boot"
	echo "per filesystem and round, filesystems alternating. QEMU TCG: absolute numbers mean"
	echo "little, ratios from the same run are the result. Disks: sparse files in host tmpfs,"
	echo "virtio-blk, cache=unsafe (or a guest brd ramdisk with --brd). *-wa: device bytes"
	echo "written per user byte; *-cpu: guest kernel CPU time per GiB moved; bh-per-gib-cached:"
	echo "buffer_head objects per GiB of cached file data; fs_buf-kib-per-gib-cached: fs_buf memory"
	echo "(KiB) per GiB of cached file data; folio-kib-read: average folio size"
	echo "when reading a file in (tools/folios: page-frame flags of the cached file)."
	echo
	printf '| metric | unit | better |'
	for f in $fss; do printf ' %s |' "$f"; done
	echo
	printf '|---|---|---|'
	for f in $fss; do printf -- '---|'; done
	echo
	awk '{ print $1, $3 }' "$dir/medians.txt" | awk '!s[$0]++' | while read -r m u; do
		printf '| %s | %s | %s |' "$m" "$u" "$(better "$u")"
		for f in $fss; do
			awk -v m="$m" -v f="$f" -v base="$base" '
				$1 == m && $2 == base { s = $4 }
				$1 == m && $2 == f { med = $4; lo = $5; hi = $6; have = 1 }
				END {
					if (!have) { printf " - |"; exit }
					r = (s > 0) ? sprintf(" (%.2f)", med / s) : ""
					printf " %s%s [%s-%s] |", med, r, lo, hi
				}' "$dir/medians.txt"
		done
		echo
	done
} > "$dir/report.md"

# Plots: ratio to the baseline of every throughput metric (on a log scale:
# tmpfs and the big-directory lookups are 10-100x, the rest near 1), and
# write amplification.
plot() { # FILE TITLE AWK-FILTER RATIO LOG
	awk -v fss="$fss" -v base="$base" "$3"' {
			if ($2 == base) s[$1] = $4
			v[$1, $2] = $4; if (!($1 in seen)) { seen[$1] = 1; order[++n] = $1 } }
		END {
			nf = split(fss, f, " ")
			printf "metric"; for (j = 1; j <= nf; j++) printf " %s", f[j]; print ""
			for (i = 1; i <= n; i++) {
				printf "%s", order[i]
				for (j = 1; j <= nf; j++) {
					x = ((order[i], f[j]) in v) ? v[order[i], f[j]] : "-"
					if (ratio && x != "-") x = (s[order[i]] > 0) ? x / s[order[i]] : "-"
					printf " %s", x
				}
				print ""
			}
		}' ratio="$4" "$dir/medians.txt" > "$1.dat"
	local nf
	nf=$(wc -w <<< "$fss")
	gnuplot <<- EOF
		set terminal pngcairo size 1400,600 noenhanced
		set output '$1.png'
		set title '$2'
		set style data histograms
		set style histogram clustered gap 1
		set style fill solid border -1
		set datafile missing '-'
		set xtics rotate by -35
		set key outside right
		set grid ytics
		$(if [ "$5" = log ]; then
			echo "set logscale y 2; set yrange [0.125:*]"
			echo "set arrow from graph 0, first 1 to graph 1, first 1 nohead lw 2"
		else
			echo "set yrange [0:*]"
		fi)
		plot '$1.dat' using 2:xtic(1) title columnheader(2), \\
			for [i=3:$((nf + 1))] '' using i title columnheader(i)
	EOF
}
if command -v gnuplot > /dev/null; then
	plot "$dir/throughput" "throughput, ratio to $base (higher is better; log scale)" \
		'$3 ~ /^(MiB\/s|IOPS|ops\/s|files\/s)$/' 1 log
	plot "$dir/write-amp" "device bytes written per user byte (lower is better)" '$3 == "x"' 0 linear
fi
cat "$dir/report.md"
