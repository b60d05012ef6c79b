#!/bin/bash
# The reliability cases on our ext2 and on stock 6.1 ext2 (the tree at
# "pristine"), the same seeds for both, and a table side by side. A case
# that fails on stock is a figure here, not an error: the exit code says
# only whether ours passed every case.
#   tests/reliability.sh [--report] [CASE...]     (default: powercut imgfuzz io_errors stress)
#     --report   only rebuild the report from the last runs
# Environment: BLOCK_SIZES, SCALE, SEED, POWERCUT_POINTS, POWERCUT_WORKLOADS,
# IMGFUZZ_IMAGES (passed to the guest).
# Output: build/out/reliability/report.md, and each run's directory under
# build/out/vm/reliability-{ours,stock}.
set -uo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
out=$top/build/out/reliability
report_only=""
[ "${1:-}" = --report ] && { report_only=1; shift; }
cases=("$@")
[ $# -gt 0 ] || cases=(powercut imgfuzz io_errors stress)
rc=0
if [ -z "$report_only" ]; then
	make -C "$top" -s modules tools > /dev/null || exit 1
	"$top/build/modules.sh" --rev pristine --out "$top/build/out/modules-stock" > /dev/null || exit 1
	rm -rf "$out"
	mkdir -p "$out"
	envs=()
	for v in BLOCK_SIZES SCALE SEED POWERCUT_POINTS POWERCUT_WORKLOADS IMGFUZZ_IMAGES; do
		[ -n "${!v:-}" ] && envs+=(--env "$v=${!v}")
	done

	# Side by side: one VM keeps about one CPU busy under TCG.
	pids=()
	for fs in ours stock; do
		mods=$top/build/out/modules
		[ "$fs" = stock ] && mods=$top/build/out/modules-stock
		echo "reliability: ${cases[*]} on $fs"
		"$top/vm/run.sh" --name "reliability-$fs" --modules "$mods" --timeout 43200 \
			"${envs[@]}" "$top/tests/suite-job.sh" "${cases[@]}" > "$out/$fs.log" 2>&1 &
		pids+=($!)
	done
	wait "${pids[0]}" || rc=1
	wait "${pids[1]}"
	for fs in ours stock; do
		echo "reliability: $fs"
		grep -E '^(ok|FAIL|skip) ' "$out/$fs.log" | sed "s/^/  /"
	done
fi

# powercut.txt lines: "ext2 bs=B WORKLOAD seed S: N points, F failed, X with stale
# bytes in flight (Y bytes), Z needed e2fsck -fy twice"
{
	echo "# Reliability: ours vs stock 6.1 ext2"
	echo
	echo "Cases: ${cases[*]}; the same seeds on both."
	echo
	echo "Power cuts, per cell: failed / checked; stale: crash points where the"
	echo "operation in flight showed old disk contents; fsck twice: points where"
	echo "e2fsck 1.47.0 needed a second -fy after cloning a block two inodes claimed."
	echo
	echo "| test | bs | ours | stock | ours stale | stock stale | ours fsck twice | stock fsck twice |"
	echo "|---|---|---|---|---|---|---|---|"
	for fs in ours stock; do
		sed "s/^/$fs /" "$top/build/out/vm/reliability-$fs/powercut.txt" 2> /dev/null
	done | awk '{ fs = $1; key = "powercut " $4 " | " substr($3, 4); keys[key] = 1
		f[fs, key] = $9 " / " $7; s[fs, key] = $11; t[fs, key] = $19 }
		END { for (k in keys) print "| " k " | " f["ours", k] " | " f["stock", k] " | " \
			s["ours", k] " | " s["stock", k] " | " t["ours", k] " | " t["stock", k] " |" }' | sort
	# imgfuzz.txt lines: "ext2 bs=B imgfuzz: N images, M mounted, F failed[, stopped: ...]"
	# and "ext2 bs=B imgfuzz: failed seeds: S..."
	echo
	echo "| imgfuzz | bs | ours failed / images | stock failed / images | seeds failed on stock only |"
	echo "|---|---|---|---|---|"
	for fs in ours stock; do
		sed "s/^/$fs /" "$top/build/out/vm/reliability-$fs/imgfuzz.txt" 2> /dev/null
	done | awk '{ fs = $1; bs = substr($3, 4); keys[bs] = 1 }
		$6 == "images," { n[fs, bs] = $9 " / " $5; if (/stopped/) n[fs, bs] = n[fs, bs] " (stopped: stuck)" }
		$5 == "failed" { for (i = 7; i <= NF; i++) seeds[fs, bs] = seeds[fs, bs] " " $i }
		END { for (b in keys) {
			only = ""; split(seeds["stock", b], st, " ")
			for (i in st) if (index(seeds["ours", b] " ", " " st[i] " ") == 0) only = only " " st[i]
			print "| imgfuzz | " b " | " n["ours", b] " | " n["stock", b] " |" only " |" } }' | sort
	# io_errors.txt lines: "ext2 bs=B append: stale N of M bytes past the old size ..."
	echo
	echo "| io_errors | bs | ours stale bytes after a failed append | stock |"
	echo "|---|---|---|---|"
	for fs in ours stock; do
		sed "s/^/$fs /" "$top/build/out/vm/reliability-$fs/io_errors.txt" 2> /dev/null
	done | awk '{ bs = substr($3, 4); keys[bs] = 1; v[$1, bs] = $6 " of " $8 }
		END { for (b in keys) print "| io_errors | " b " | " v["ours", b] " | " v["stock", b] " |" }' | sort
	# stress.txt lines: "ext2 bs=B stress: S s, N ops, ... reclaimed, ..."; the verdict is the case's
	echo
	echo "| stress | bs | ours: run, pressure, result | stock |"
	echo "|---|---|---|---|"
	for fs in ours stock; do
		sed "s/^/$fs /" "$top/build/out/vm/reliability-$fs/stress.txt" 2> /dev/null
	done | awk -v ours="$out/ours.log" -v stock="$out/stock.log" '
		function verdict(file, bs,   line, r) {
			r = "no result"
			while ((getline line < file) > 0)
				if (line ~ "^(ok|FAIL) +bs=" bs " stress") r = substr(line, 1, index(line, " ") - 1)
			close(file)
			return r
		}
		{ bs = substr($3, 4); keys[bs] = 1; v[$1, bs] = substr($0, index($0, "stress: ") + 8) }
		END { for (b in keys) print "| stress | " b " | " v["ours", b] ", " verdict(ours, b) \
			" | " v["stock", b] ", " verdict(stock, b) " |" }' | sort
	echo
	echo "Case results (ours, then stock):"
	echo
	for fs in ours stock; do
		grep -E '^(ok|FAIL|skip) ' "$out/$fs.log" | sed "s/^/    $fs: /" | cut -c1-160
	done
} > "$out/report.md"
cat "$out/report.md"
exit "$rc"
