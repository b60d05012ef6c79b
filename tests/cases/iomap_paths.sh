# Every regular-file data path runs through iomap: the iomap tracepoints fire
# for this file with the flags of each path. A silent fallback to the old
# buffer-head code would leave no such events. A write fault maps its page
# through ext2's iomap_ops itself (->page_mkwrite), not iomap_iter().
events="iomap/iomap_iter iomap/iomap_readpage iomap/iomap_readahead iomap/iomap_writepage
	ext2/ext2_dio_write ext2/ext2_writeback_map_blocks ext2/ext2_iomap_begin"
trace_events 1 $events || fail "cannot enable $events"
: > "$TRACE/trace"
xfs_io -f -d -c "pwrite -q -b 64k 0 256k" -c "pread -q 0 256k" f           # direct I/O
xfs_io -f -c "pwrite -q 0 300k" -c "fsync" g                                # buffered write, writeback
xfs_io -c "mmap -rw 0 300k" -c "mwrite -S 0x61 8192 4096" -c "msync -s 0 300k" g  # write fault
truncate -s 5000 g                                                          # zeroing the tail
xfs_io -c "fiemap" f > /dev/null                                            # FIEMAP
echo 3 > /proc/sys/vm/drop_caches
cat f > /dev/null                                                           # readahead
xfs_io -c "mmap -r 0 300k" -c "madvise -r 0 300k" -c "mread 0 1" g > /dev/null  # read_folio
xfs_io -d -c "truncate 1m" -c "pwrite -q -b 64k 512k 64k" f                        # DIO into a hole
trace_events 0 $events
inof=$(printf '0x%x' "$(stat -c %i f)")
inog=$(printf '0x%x' "$(stat -c %i g)")
cp "$TRACE/trace" /tmp/trace
has() { # INO EVENT FLAGS WHAT
	grep " $2: .*ino $1 " /tmp/trace | grep -q -- "$3" ||
		fail "$4 did not go through iomap (no $2 event '$3')"
}
has "$inof" iomap_iter "flags WRITE|DIRECT (" "O_DIRECT write"
has "$inof" iomap_iter "flags DIRECT (" "O_DIRECT read"
has "$inof" iomap_iter "flags REPORT (" "FIEMAP"
has "$inog" iomap_iter "flags WRITE (" "buffered write"
has "$inog" iomap_writepage "" "writeback"
has "$inog" iomap_iter "flags ZERO (" "truncate zeroing"
has "$inof" iomap_readahead "" "readahead"
has "$inog" iomap_readpage "" "read_folio"
# ext2's own events: the O_DIRECT write into a hole fell back to the page
# cache (direct 0, buffered 65536), and writeback mapped g's blocks.
inof=$(stat -c %i f)
inog=$(stat -c %i g)
has "$inof" ext2_dio_write "direct 0 buffered 65536" "the DIO fallback"
has "$inog" ext2_writeback_map_blocks "mapped: MAPPED" "writeback mapping"
# IOMAP_WRITE | IOMAP_FAULT
has "$inog" ext2_iomap_begin "flags 0x9:" "mmap write fault"
