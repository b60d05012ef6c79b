# Direct writes whose bios are slow to land (dm-delay holds every write for
# three seconds, twelve on the debug kernel) expose nothing and free nothing
# early:
# - a write into a hole in the block that holds EOF goes through the page
#   cache (ext2 has no unwritten extents), so a buffered read meanwhile
#   finds zeroes, not the 0xab that fills free space;
# - an extending write from a user buffer that ends in unmapped memory
#   keeps the blocks it is writing allocated until its bios are done (they
#   would otherwise land on blocks another file may already have), and
#   frees them once they are.
# setup: none
# fs-size: 64M
# block-sizes: 1024 4096
fs_mkfs
# The debug kernel runs several times slower under TCG: a 3 s delay was
# over before the free count there (in two runs of make check-debug).
delay=3000
[ ! -e /proc/lockdep_stats ] || delay=12000
dm_delay dio-slow $delay
fs_mount
cd "$MNT"
xfs_io -f -c "pwrite -q -S 0xab -b 1m 0 64m" fill 2> /dev/null || true
sync
rm fill
sync

# The block holding EOF is a hole; a 512-byte direct write into it.
eof=$((4 * FS_BS - 100))
truncate -s $eof f
sync
"$TOOLS/shortwrite" -d f $((3 * FS_BS)) 512 512 > /tmp/dio-eof.out &
sleep 1.5
n=$(tail -c +$((3 * FS_BS + 513)) f | tr -d '\0' | wc -c)
wait
[ "$n" = 0 ] || fail "a buffered read during the direct write saw $n stale bytes past it"
expect_eq "$(cat /tmp/dio-eof.out)" 512 "direct write into the EOF block"

# An extending write that faults after 16 blocks: without IOMAP_DIO_PARTIAL
# iomap fails it whole with EFAULT, after the bios it sent are done. The
# writer waits in the kernel for those bios, which dm-delay holds:
# once its blocks are allocated, a free count taken later while the writer
# still runs is one taken with the bios in flight. (Polled, not a fixed
# sleep that a loaded host can outrun.)
sync
free0=$(stat -f -c %f .)
"$TOOLS/shortwrite" -d g 0 $((64 * FS_BS)) $((16 * FS_BS)) > /tmp/dio-short.out &
writer=$!
for _ in $(seq 100); do
	[ $((free0 - $(stat -f -c %f .))) -lt 16 ] || break
	kill -0 "$writer" 2> /dev/null || break
	sleep 0.1
done
# time for the fault, and for an early free if there were one
sleep 0.5
free1=$(stat -f -c %f .)
running=no
! kill -0 "$writer" 2> /dev/null || running=yes
wait
[ "$running" = yes ] || fail "the direct write was over before the free count was taken: inconclusive"
[ $((free0 - free1)) -ge 16 ] ||
	fail "only $((free0 - free1)) blocks allocated while 16 blocks were being written"
expect_eq "$(cat /tmp/dio-short.out)" -14 "short extending direct write"
expect_eq "$(stat -c %s g)" 0 "size after the failed direct write"
expect_eq "$(stat -f -c %f .)" "$free0" "free blocks after the failed direct write"
cd /
umount "$MNT" || fail "umount"
dmsetup remove dio-slow || fail "dmsetup remove"
