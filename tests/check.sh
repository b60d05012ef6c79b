#!/bin/bash
# Host side of "make check": the runner self-test in one VM boot, the suite in
# another, then the count. The last line of output is "N passed, N failed".
#   check.sh [CASE...]
# Environment: BLOCK_SIZES, MINIX_VERSIONS, ONCE, FILESYSTEMS, SCALE, SEED,
# TIMEOUT_SCALE (multiplies case timeouts),
# POWERCUT_POINTS, POWERCUT_WORKLOADS, IMGFUZZ_IMAGES, STRESS_GLOBAL (passed to
# the guest),
# VM_ACCEL; SHARDS=N runs the suite in N VMs side by side (default 1);
# KERNEL=DIR boots a debug kernel from build/kernel.sh with its own modules
# instead of Debian's kernel with build/out/modules (make check-debug).
set -uo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
. "$top/vm/kcheck.sh"
out=$top/build/out
modules=$out/modules selftest_modules=$out/selftest faults="warn oops hang lockup"
kernel=()
if [ -n "${KERNEL:-}" ]; then
	kernel=(--kernel "$KERNEL")
	modules=$KERNEL/modules selftest_modules=$KERNEL/selftest
	# what only the debug checkers see: KASAN, lockdep, atomic sleep, kmemleak
	faults+=" uaf oob lockorder sleep leak"
fi
passed=0 failed=0 skipped=0 failures=()

result() { # ok|FAIL|skip NAME
	case "$1" in
	ok) passed=$((passed + 1)) ;;
	skip) skipped=$((skipped + 1)) ;;
	*) failed=$((failed + 1)); failures+=("$2") ;;
	esac
	echo "$1 $2"
}

# The runner must fail a run whose kernel misbehaves, and pass a clean one.
selftest() {
	local dir=$out/vm/selftest f
	echo "== runner self-test: a module that misbehaves ($faults)"
	if "$top/vm/run.sh" --name selftest "${kernel[@]}" --modules "$selftest_modules" --timeout 900 \
		"$top/vm/selftest/job.sh" > "$out/selftest.log" 2>&1; then
		result FAIL "runner: a run with a misbehaving kernel was judged clean"
	else
		result ok "runner: a run with a misbehaving kernel fails"
	fi
	for f in $faults; do
		if [ ! -f "$dir/selftest-$f.dmesg" ]; then
			result FAIL "runner: no kernel log for fault=$f"
		elif kcheck_log "$dir/selftest-$f.dmesg" > /dev/null; then
			result FAIL "runner: fault=$f not caught in the kernel log"
		else
			result ok "runner: catches fault=$f ($(kcheck_log "$dir/selftest-$f.dmesg" | head -1 | cut -c13-70))"
		fi
	done
	if [ -f "$dir/selftest-none.dmesg" ] && kcheck_log "$dir/selftest-none.dmesg" > /dev/null; then
		result ok "runner: a clean module load passes"
	else
		result FAIL "runner: a clean module load was flagged"
	fi
	if [ -f "$dir/tainted" ] && ! kcheck_taint "$(cat "$dir/tainted")" > /dev/null; then
		result ok "runner: catches the taint a warning leaves"
	else
		result FAIL "runner: taint after a warning not caught"
	fi
}

# One VM runs its share of the cases; its results and verdict are counted.
suite_vm() { # NAME [CASE...]
	local name=$1 envs=() v
	shift
	for v in BLOCK_SIZES MINIX_VERSIONS ONCE FILESYSTEMS SCALE TIMEOUT_SCALE SEEDS SEED POWERCUT_POINTS POWERCUT_WORKLOADS IMGFUZZ_IMAGES STRESS_GLOBAL; do
		[ -n "${!v:-}" ] && envs+=(--env "$v=${!v}")
	done
	"$top/vm/run.sh" --name "$name" "${kernel[@]}" --modules "$modules" \
		--timeout "${SUITE_TIMEOUT:-3600}" "${envs[@]}" \
		"$top/tests/suite-job.sh" "$@" 2>&1 | grep --line-buffered -v '^\[ *[0-9.]*\] '
	return "${PIPESTATUS[0]}"
}

# deal SHARDS CASE...: "K CASE" lines that give each case to VM K, longest
# first (by the times in the last suite log, or tests/suite-times.txt in a
# fresh tree; the mean for a case in neither) to the VM with the least work
# so far, so that the VMs finish together.
deal() {
	{ cat "$out/suite.log" 2> /dev/null || cat "$top/tests/suite-times.txt"; } | perl -e '
		my ($n, @cases) = @ARGV;
		my (%t, @load, $sum, $known);
		while (<STDIN>) {
			$t{$1} += $2 if /^(?:ok|FAIL)\s+\S+\s+(\S+)\s+\(([\d.]+)\s*s\)/;
		}
		for (@cases) { next unless exists $t{$_}; $sum += $t{$_}; $known++ }
		my $mean = $known && $sum > 0 ? $sum / $known : 1;
		$t{$_} = ($t{$_} // $mean) + 0.1 for @cases;
		@load = (0) x $n;
		for my $c (sort { $t{$b} <=> $t{$a} || $a cmp $b } @cases) {
			my ($k) = sort { $load[$a] <=> $load[$b] || $a <=> $b } 0 .. $n - 1;
			$load[$k] += $t{$c};
			print $k + 1, " $c\n";
		}' "$@"
}

# SHARDS=N deals the cases out to N VMs that run side by side: under TCG one
# VM keeps about one host CPU busy, so the debug kernel's run, which is
# longer than a working session on one VM, uses both of this machine's.
suite() {
	local shards=${SHARDS:-1} names=() k c f status label name rest
	echo "== test suite"
	if [ "$shards" -le 1 ]; then
		names=(suite)
		suite_vm suite "$@" | tee "$out/suite.log"
		echo "${PIPESTATUS[0]}" > "$out/suite.rc"
	else
		local cases=() share
		[ $# -gt 0 ] || set -- '*'
		for c in "$@"; do
			for f in "$top"/tests/cases/${c%.sh}.sh; do cases+=("$(basename "$f" .sh)"); done
		done
		local pids=() tailer dealt
		dealt=$(deal "$shards" "${cases[@]}")
		rm -f "$out"/suite-*.log "$out"/suite-*.rc
		for ((k = 1; k <= shards && k <= ${#cases[@]}; k++)); do
			mapfile -t share < <(awk -v k="$k" '$1 == k { print $2 }' <<< "$dealt")
			# no names would run every case
			[ ${#share[@]} -gt 0 ] || continue
			names+=("suite-$k")
			: > "$out/suite-$k.log"
			{
				suite_vm "suite-$k" "${share[@]}" > "$out/suite-$k.log"
				echo $? > "$out/suite-$k.rc"
			} &
			pids+=($!)
		done
		tail -q -n +1 -f "$out"/suite-*.log &
		tailer=$!
		wait "${pids[@]}"
		sleep 1
		kill "$tailer"
		wait "$tailer" 2> /dev/null
		cat "$out"/suite-*.log > "$out/suite.log"
	fi
	for name in "${names[@]}"; do
		while read -r status label rest; do
			result "$status" "$label $rest"
		done < <(cat "$out/vm/$name/results" 2>/dev/null)
		if [ "$(cat "$out/$name.rc" 2> /dev/null)" = 0 ]; then
			result ok "$name VM: clean kernel, job finished in time"
		else
			result FAIL "$name VM: $(paste -sd';' "$out/vm/$name/verdict" 2>/dev/null)"
		fi
	done
}

mkdir -p "$out"
[ -n "${SKIP_SELFTEST:-}" ] || selftest
suite "$@"
if [ ${#failures[@]} -gt 0 ]; then
	echo "== failures"
	printf '  %s\n' "${failures[@]}"
fi
echo "$passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ]
