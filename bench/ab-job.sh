# Guest job of bench/ab.sh: for each round, each of two module sets loaded in
# turn (order swapped every round) and the rows of AB_ROWS (data or meta) run
# on a fresh 4 KiB ext2. Prints "ab: ROUND NAME ROW VALUE UNIT".
set -euo pipefail
read -ra names <<< "$AB_NAMES"
read -ra dirs <<< "$AB_MODULES"
dev=/dev/vda mnt=/mnt/scratch tools=$PROJECT/build/out/tools
modprobe mbcache

load() {
	local m
	for m in ext2 minix fs_buf; do
		[ ! -d "/sys/module/$m" ] || rmmod "$m"
	done
	for m in $(cat "$1/load-order"); do insmod "$1/$m"; done
}
. "$PROJECT/bench/lib.sh"
report() { echo "ab: $round $name $1 $2 $3"; }
# fio_rand ROW RW [fio options]: bench/job.sh's full-scale random rows
fio_rand() {
	local row=$1 rw=$2 iops
	shift 2
	iops=$(fio_iops "$row" "$rw" 4k 256 32 "$@")
	report "$row" "$iops" IOPS
}

# timed ROW CMD...: MiB/s and kernel ms of CMD moving 1 GiB
timed() {
	local row=$1 t0 t1 c0 c1
	shift
	c0=$(cpu_ms) t0=$(now)
	"$@"
	t1=$(now) c1=$(cpu_ms)
	report "$row" $((1024 * 1000000 / (t1 - t0))) MiB/s
	report "$row-cpu" $((c1 - c0)) ms/GiB
}

# mount_ours: a fresh 4 KiB ext2, served by the module just loaded
mount_ours() {
	mkfs.ext2 -q -F -b 4096 "$dev" 2G
	mount_module ext2
	cd "$mnt"
}

data() {
	mount_ours
	drop
	timed seq-write-fsync xfs_io -f -c "pwrite -q -b 1m 0 1024m" -c fsync seq
	drop
	timed seq-read-cold xfs_io -c "pread -q -b 1m 0 1024m" seq
	rm seq
	xfs_io -f -c "pwrite -q -b 1m 0 256m" -c fsync rand > /dev/null
	drop
	fio_rand rand-read-4k randread
	fio_rand rand-write-4k randwrite --end_fsync=1
	drop
	cat rand > /dev/null
	fio_rand overwrite-after-read-4k randwrite --end_fsync=1
	drop
	cat rand > /dev/null
	fio_rand mmap-overwrite-after-read-4k randwrite --end_fsync=1 --ioengine=mmap
	cd /
	umount "$mnt"
}

# bench/job.sh's metadata rows at a fifth of full scale; tools/meta prints
# "bench: ROW VALUE ops/s"
meta() {
	mount_ours
	drop
	"$tools/meta" files "$mnt" 20000 | sed "s/^bench:/ab: $round $name/"
	mkdir big
	"$tools/meta" lookup "$mnt/big" 10000 | sed "s/^bench:/ab: $round $name/"
	rm -rf big
	untar_rm /tmp/tree.tar 2000
	cd /
	umount "$mnt"
}

if [ "$AB_ROWS" = meta ]; then
	mkdir -p /tmp/tree
	"$tools/meta" tree /tmp/tree 2000
	tar -cf /tmp/tree.tar -C /tmp tree
	rm -rf /tmp/tree
fi
for ((round = 0; round < AB_ROUNDS; round++)); do
	order="0 1"
	[ $((round % 2)) = 0 ] || order="1 0"
	for i in $order; do
		name=${names[$i]}
		load "${dirs[$i]}"
		"$AB_ROWS"
	done
done
