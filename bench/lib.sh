# Helpers of the guest jobs bench/job.sh and bench/ab-job.sh.

now() { echo "${EPOCHREALTIME/./}"; }
# Kernel CPU time (system + irq + softirq) in ms, from /proc/stat.
cpu_ms() { awk '/^cpu / { print ($4 + $7 + $8) * 10; exit }' /proc/stat; }
drop() { sync; echo 3 > /proc/sys/vm/drop_caches; }

# mount_module TYPE: mount $dev, and require that the module run.sh loaded
# serves it (Debian's ext4 registers ext2 too).
mount_module() {
	local refs
	refs=$(cat "/sys/module/$1/refcnt")
	mount -t "$1" "$dev" "$mnt"
	[ "$(cat "/sys/module/$1/refcnt")" = $((refs + 1)) ] || { echo "$1 module does not serve the mount" >&2; exit 1; }
}

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

# untar_rm TAR N: the untar and rm-rf rows, files/s: TAR (N files, a
# directory "tree") unpacked into the current directory, then removed, each
# from a cold cache and with its sync
untar_rm() {
	local t0 t1
	drop
	t0=$(now)
	tar -xf "$1"
	sync
	t1=$(now)
	report untar $(($2 * 1000000 / (t1 - t0))) files/s
	drop
	t0=$(now)
	rm -rf tree
	sync
	t1=$(now)
	report rm-rf $(($2 * 1000000 / (t1 - t0))) files/s
}
