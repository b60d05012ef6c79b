# Truncate down and up: the tail reads as zeros, the head is kept.
# fs: ext2 minix
head -c 200000 /dev/urandom > /tmp/src
cp /tmp/src f
for size in 150001 4097 1 0 70000 300000 123; do
	truncate -s "$size" f
	truncate -s "$size" /tmp/src
	cmp /tmp/src f || fail "content after truncate to $size"
done
# Truncate down then up inside one block must zero the cut part.
head -c 8192 /dev/urandom > g
truncate -s 1000 g
truncate -s 8192 g
expect_eq "$(tail -c 7192 g | tr -d '\0' | wc -c)" 0 "stale bytes after truncate down+up"
fs_cycle
cmp /tmp/src f || fail "after remount"
expect_eq "$(tail -c 7192 g | tr -d '\0' | wc -c)" 0 "stale bytes after remount"
