# Guest job of bench/quick.sh: a few timed workloads on a fresh 4 KiB-block
# ext2, one "metric value unit" line each (prefixed "bench:").
set -e
dev=/dev/vda mnt=/mnt/scratch
now() { echo "${EPOCHREALTIME/./}"; }
report() { echo "bench: $1 $2 $3"; }
rate() { # NAME BYTES START END
	report "$1" "$(($2 / ($4 - $3)))" MB/s
}
mkfs.ext2 -q -F -b 4096 "$dev" 2G
mount -t ext2 "$dev" "$mnt"
cd "$mnt"

# FIEMAP of a 4 GiB file with data only at both ends.
xfs_io -f -c "pwrite -q 0 4k" -c "pwrite -q 4194300k 4k" -c fsync sparse
t0=$(now)
for i in 1 2 3 4 5; do xfs_io -c fiemap sparse > /dev/null; done
t1=$(now)
report fiemap-sparse-4g $(((t1 - t0) / 5000)) ms

size=$((256 << 20))
t0=$(now); xfs_io -f -d -c "pwrite -q -b 1m 0 $size" dio > /dev/null; t1=$(now)
rate dio-seq-write "$size" "$t0" "$t1"
t0=$(now); xfs_io -d -c "pread -q -b 1m 0 $size" dio > /dev/null; t1=$(now)
rate dio-seq-read "$size" "$t0" "$t1"
t0=$(now); xfs_io -f -c "pwrite -q -b 1m 0 $size" -c fsync buf > /dev/null; t1=$(now)
rate buffered-seq-write-fsync "$size" "$t0" "$t1"
echo 3 > /proc/sys/vm/drop_caches
t0=$(now); xfs_io -c "pread -q -b 1m 0 $size" buf > /dev/null; t1=$(now)
rate buffered-seq-read-cold "$size" "$t0" "$t1"

# Write amplification: device bytes written per byte the user wrote, for
# random small overwrites of a file that was read in first (readahead).
sectors_written() { awk '{ print $7 }' "/sys/block/${1#/dev/}/stat"; }
wa() { # NAME DEV BS: random BS-sized overwrites, 4 MiB in all, of a 64 MiB file
	xfs_io -f -c "pwrite -q -b 1m 0 64m" -c fsync wa > /dev/null
	echo 3 > /proc/sys/vm/drop_caches
	cat wa > /dev/null
	local s0 s1
	s0=$(sectors_written "$2")
	fio --name=wa --filename=wa --rw=randwrite --bs="$3" --size=64m --io_size=4m \
		--ioengine=psync --randrepeat=1 --invalidate=0 --end_fsync=1 \
		--output=/dev/null
	s1=$(sectors_written "$2")
	report "$1" "$(awk -v s=$((s1 - s0)) 'BEGIN { printf "%.2f", s * 512 / (4 * 1048576) }')" x
}
wa write-amp-4k-random-4kfs "$dev" 4k
cd /
umount "$mnt"
mkfs.ext2 -q -F -b 1024 "$dev" 1G
mount -t ext2 "$dev" "$mnt"
cd "$mnt"
wa write-amp-1k-random-1kfs "$dev" 1k
cd /
umount "$mnt"
