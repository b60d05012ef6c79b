# Guest job of the runner self-test: load the misbehaving module once per
# fault and keep the kernel log each fault produced.
sysctl -q kernel.hung_task_timeout_secs=5 kernel.watchdog_thresh=1
for fault in none warn lockup hang oops; do
	dmesg -c > /dev/null
	insmod "$RUN_DIR/modules/misbehave.ko" fault=$fault
	rmmod misbehave 2> /dev/null
	[ "$fault" = hang ] && sleep 5
	dmesg > "$RUN_DIR/selftest-$fault.dmesg"
	echo "selftest: fault=$fault done"
done
