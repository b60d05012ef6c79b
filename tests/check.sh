#!/bin/bash
# Host side of "make check": the runner self-test in one VM boot, the suite in
# another, then the count. The last line of output is "N passed, N failed".
#   check.sh [CASE...]
# Environment: BLOCK_SIZES, MINIX_VERSIONS, FILESYSTEMS, SCALE, SEED, POWERCUT_POINTS, IMGFUZZ_IMAGES, STRESS_GLOBAL (passed to
# the guest), VM_ACCEL;
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

suite() {
	local dir=$out/vm/suite envs=() v
	for v in BLOCK_SIZES MINIX_VERSIONS FILESYSTEMS SCALE SEEDS SEED POWERCUT_POINTS IMGFUZZ_IMAGES STRESS_GLOBAL; do
		[ -n "${!v:-}" ] && envs+=(--env "$v=${!v}")
	done
	echo "== test suite"
	"$top/vm/run.sh" --name suite "${kernel[@]}" --modules "$modules" \
		--timeout "${SUITE_TIMEOUT:-3600}" "${envs[@]}" \
		"$top/tests/suite-job.sh" "$@" 2>&1 | grep --line-buffered -v '^\[ *[0-9.]*\] ' | tee "$out/suite.log"
	local rc=${PIPESTATUS[0]}
	local status label name rest
	while read -r status label name rest; do
		result "$status" "$label $name $rest"
	done < <(cat "$dir/results" 2>/dev/null)
	if [ "$rc" -eq 0 ]; then
		result ok "suite VM: clean kernel, job finished in time"
	else
		result FAIL "suite VM: $(paste -sd';' "$dir/verdict" 2>/dev/null)"
	fi
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
