# Writeback racing with truncate and reallocation: writeback may have mapped
# a file's blocks when a truncate frees them and new writes (to this file and
# to others) reuse them. Stale pages or a stale cached mapping would put old
# data into blocks that now belong to someone else.
head -c 1048576 /dev/zero | tr '\0' '\252' > /tmp/a
head -c 1044480 /dev/zero | tr '\0' '\273' > /tmp/b
head -c 1048576 /dev/zero | tr '\0' '\314' > /tmp/c
{ head -c 4096 /tmp/a; cat /tmp/b; } > /tmp/want-f
: > /tmp/racing
( while [ -e /tmp/racing ]; do sync; done ) &
( while [ -e /tmp/racing ]; do echo 1 > /proc/sys/vm/drop_caches; done ) &
for ((i = 0; i < 25 * SCALE; i++)); do
	cp /tmp/a f
	xfs_io -c "truncate 4k" -c "pwrite -q -S 0xbb 4k 1020k" f
	cp /tmp/c "g$((i % 3))"
done
rm /tmp/racing
wait
drop_caches
cmp f /tmp/want-f || fail "f holds wrong data after racing writeback"
for g in g0 g1 g2; do
	cmp "$g" /tmp/c || fail "$g holds wrong data after racing writeback"
done
fs_cycle
cmp f /tmp/want-f || fail "f on disk holds wrong data"
for g in g0 g1 g2; do cmp "$g" /tmp/c || fail "$g on disk holds wrong data"; done
