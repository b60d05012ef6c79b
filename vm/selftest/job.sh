# Guest job of the runner self-test: load the misbehaving module once per
# fault and keep the kernel log each fault produced. On a debug kernel
# (lockdep, KASAN and kmemleak present) also the faults only its checkers see.
sysctl -q kernel.hung_task_timeout_secs=5 kernel.watchdog_thresh=1
faults="none warn lockup hang oops"
if [ -e /proc/lockdep ] && grep -qw kasan_report /proc/kallsyms && [ -w /sys/kernel/debug/kmemleak ]; then
	# lockorder first: lockdep turns itself off after any report that
	# taints the kernel; oops last: it leaves the module half loaded
	faults="none lockorder sleep leak warn lockup hang uaf oob oops"
fi
for fault in $faults; do
	dmesg -c > /dev/null
	insmod "$RUN_DIR/modules/misbehave.ko" fault=$fault
	rmmod misbehave 2> /dev/null
	[ "$fault" = hang ] && sleep 5
	if [ "$fault" = leak ]; then
		# kmemleak reports objects older than 5 s; a stale copy of the
		# pointer on a stack can hide it from one scan
		sleep 6
		echo scan > /sys/kernel/debug/kmemleak
		echo scan > /sys/kernel/debug/kmemleak
	fi
	dmesg > "$RUN_DIR/selftest-$fault.dmesg"
	echo "selftest: fault=$fault done"
done
