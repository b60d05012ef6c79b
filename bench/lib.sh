# Helpers of the guest jobs bench/job.sh and bench/ab-job.sh.

now() { echo "${EPOCHREALTIME/./}"; }
# Kernel CPU time (system + irq + softirq) in ms, from /proc/stat.
cpu_ms() { awk '/^cpu / { print ($4 + $7 + $8) * 10; exit }' /proc/stat; }
drop() { sync; echo 3 > /proc/sys/vm/drop_caches; }

# fio_iops NAME RW BS FILE-MB IO-MB [fio options]: the IOPS of a random
# workload on the file "rand" of the current directory, its cache kept.
fio_iops() {
	local name=$1 rw=$2 bs=$3 size=$4 io=$5 out
	shift 5
	out=$(fio --name="$name" --filename=rand --rw="$rw" --bs="$bs" --size="${size}m" \
		--io_size="${io}m" --ioengine=psync --randrepeat=1 --invalidate=0 \
		--minimal "$@") || return
	# terse v3: field 8 read IOPS, 49 write IOPS
	awk -F';' -v rw="$rw" '{ print (rw ~ /write/) ? $49 : $8 }' <<< "$out"
}
