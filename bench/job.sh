# Guest job of bench/bench.sh: every workload once on one filesystem, each
# group on a fresh filesystem. Prints "bench: METRIC VALUE UNIT" lines.
# Environment: BENCH_FS (ours stock ext4-ext2 ext4 xfs tmpfs minix minix-stock),
# BENCH_SCALE (quick full), BENCH_DEV (vda: virtio disk; brd: guest ramdisk).
set -euo pipefail
fs=$BENCH_FS mnt=/mnt/scratch tools=$PROJECT/build/out/tools
if [ "$BENCH_SCALE" = full ]; then
	seq=1024 randfile=256 randio=32 dio=512 files=100000 dirents=50000 tree=10000
else
	seq=128 randfile=64 randio=8 dio=128 files=5000 dirents=5000 tree=2000
fi
if [ "$BENCH_DEV" = brd ]; then
	modprobe brd rd_nr=1 rd_size=$((3 << 20))
	dev=/dev/ram0
else
	dev=/dev/vda
fi
[ "$fs" = tmpfs ] && dev=""
# minix directories are linear arrays of 64-byte entries (v3), so a create
# scans the whole directory: a smaller big directory keeps the run short.
case "$fs" in minix*) dirents=$((dirents / 5)) ;; esac

. "$PROJECT/bench/lib.sh"
report() { echo "bench: $1 $2 $3"; }
# Sectors the device has written (0 where there is no device or no stats).
written() { [ -n "$dev" ] && awk '{ print $7 }' "/sys/block/${dev#/dev/}/stat" || echo 0; }

# mkfs and mount for block size $1 (minix: v3, always 1 KiB blocks, as
# mkfs.minix makes it); our modules and the stock ones must be the modules
# run.sh loaded, ext4-ext2 must be ext4.
make_fs() {
	local bs=$1
	cd /
	umount "$mnt" 2> /dev/null || true
	case "$fs" in
	ours | stock | ext4-ext2) mkfs.ext2 -q -F -b "$bs" "$dev" 2G ;;
	ext4) mkfs.ext4 -q -F -b "$bs" "$dev" 2G ;;
	xfs) mkfs.xfs -q -f -b size="$bs" -d size=2g "$dev" ;;
	minix | minix-stock) mkfs.minix -3 -i 131072 "$dev" $((2 << 20)) > /dev/null ;;
	esac
	case "$fs" in
	ours | stock) mount_module ext2 ;;
	minix | minix-stock) mount_module minix ;;
	ext4-ext2)
		mount -t ext4 "$dev" "$mnt"
		[ -e "/sys/fs/ext4/${dev#/dev/}" ] || { echo "bench: ext4 does not serve the mount" >&2; exit 1; } ;;
	tmpfs) mount -t tmpfs -o size=3g none "$mnt" ;;
	*) mount -t "$fs" "$dev" "$mnt" ;;
	esac
	cd "$mnt"
}

# timed NAME MB CMD...: throughput of CMD moving MB MiB, kernel CPU ms per GiB
# (NAME-cpu) and, for writes that reach the disk, device bytes written per
# user byte (NAME-wa).
timed() {
	local name=$1 mb=$2 t0 t1 c0 c1 w0 w1
	shift 2
	w0=$(written) c0=$(cpu_ms) t0=$(now)
	"$@" > /dev/null
	t1=$(now) c1=$(cpu_ms) w1=$(written)
	report "$name" $((mb * 1000000 / (t1 - t0))) MiB/s
	report "$name-cpu" $(((c1 - c0) * 1024 / mb)) ms/GiB
	[[ "$name" != *write* || "$name" = *cached* ]] || [ -z "$dev" ] || [ "$BENCH_DEV" = brd ] ||
		report "$name-wa" "$(awk -v s=$((w1 - w0)) -v mb="$mb" 'BEGIN { printf "%.3f", s / 2048 / mb }')" x
}

# fio_rand NAME RW BS FILE-MB IO-MB [fio options]: IOPS of a random workload on
# a preallocated file, with the write amplification of writes.
fio_rand() {
	local name=$1 rw=$2 io=$5 w0 w1 iops
	w0=$(written)
	iops=$(fio_iops "$@")
	w1=$(written)
	report "$name" "$iops" IOPS
	[[ "$rw" != *write* ]] || [ -z "$dev" ] || [ "$BENCH_DEV" = brd ] ||
		report "$name-wa" "$(awk -v s=$((w1 - w0)) -v io="$io" 'BEGIN { printf "%.3f", s / 2048 / io }')" x
}

# folio_kib FILE: average size of the folios the page cache used to read
# FILE in (tools/folios reads the page frames' flags; no tracepoint is
# enabled, since patching kernel text can livelock a TCG guest).
folio_kib() {
	drop
	cat "$1" > /dev/null
	report folio-kib-read "$("$tools/folios" "$1" | sed -n 's/^average_kib //p')" KiB
}

prealloc() { xfs_io -f -c "pwrite -q -b 1m 0 ${1}m" -c fsync rand > /dev/null; }

echo "job: fs $fs scale $BENCH_SCALE dev ${dev:-none}"
make_fs 4096
# Sequential buffered I/O: cached, with fsync, cold read; buffer heads held
# by the cached file.
timed seq-write-cached "$seq" xfs_io -f -c "pwrite -q -b 1m 0 ${seq}m" seq
rm seq
drop
timed seq-write-fsync "$seq" xfs_io -f -c "pwrite -q -b 1m 0 ${seq}m" -c fsync seq
report bh-per-gib-cached "$(awk -v mb="$seq" '$1 == "buffer_head" { printf "%d", $2 * 1024 / mb }' /proc/slabinfo)" objects
# fs_buf's own memory (ours only): debugfs fs_buf/<dev>/stats, bytes held.
for st in /sys/kernel/debug/fs_buf/*/stats; do
	[ -f "$st" ] && report fs_buf-kib-per-gib-cached "$(awk -v mb="$seq" '$1 == "bytes" { printf "%d", $2 / mb }' "$st")" KiB
done
drop
timed seq-read-cold "$seq" xfs_io -c "pread -q -b 1m 0 ${seq}m" seq
[ "$fs" = tmpfs ] || folio_kib seq
rm seq

# Random 4 KiB buffered I/O on a preallocated file, then the large-folio case:
# random 4 KiB overwrites of a file read in by readahead.
prealloc "$randfile"
drop
fio_rand rand-read-4k randread 4k "$randfile" "$randio"
fio_rand rand-write-4k randwrite 4k "$randfile" "$randio" --end_fsync=1
drop
cat rand > /dev/null
fio_rand overwrite-after-read-4k randwrite 4k "$randfile" "$randio" --end_fsync=1
drop
cat rand > /dev/null
fio_rand mmap-overwrite-after-read-4k randwrite 4k "$randfile" "$randio" --end_fsync=1 --ioengine=mmap
rm rand

# O_DIRECT (tmpfs and stock minix have none).
if [ "$fs" != tmpfs ] && [ "$fs" != minix-stock ]; then
	timed dio-seq-write "$dio" xfs_io -f -d -c "pwrite -q -b 1m 0 ${dio}m" dio
	timed dio-seq-read "$dio" xfs_io -d -c "pread -q -b 1m 0 ${dio}m" dio
	rm dio
	prealloc "$randfile"
	fio_rand dio-rand-read-4k randread 4k "$randfile" "$randio" --direct=1
	fio_rand dio-rand-write-4k randwrite 4k "$randfile" "$randio" --direct=1
	rm rand
fi

# Metadata: small files, a big directory, untar and rm -rf of a tree.
drop
"$tools/meta" files "$mnt" "$files"
mkdir big
"$tools/meta" lookup "$mnt/big" "$dirents"
rm -rf big
mkdir -p /tmp/tree
"$tools/meta" tree /tmp/tree "$tree"
tar -cf /tmp/tree.tar -C /tmp tree
rm -rf /tmp/tree
untar_rm /tmp/tree.tar "$tree"
rm /tmp/tree.tar

# 1 KiB random writes on a 1 KiB-block filesystem.
if [ "$fs" != tmpfs ]; then
	make_fs 1024
	prealloc "$randfile"
	drop
	cat rand > /dev/null
	fio_rand rand-write-1k-1kfs randwrite 1k "$randfile" "$randio" --end_fsync=1
fi
cd /
umount "$mnt"
