# Write, overwrite, append and read back, through the cache and from the disk.
# fs: ext2 minix
head -c 3000000 /dev/urandom > /tmp/src
cp /tmp/src f
cmp /tmp/src f || fail "read back differs"
# overwrite in the middle, unaligned
printf 'hello' | dd of=f bs=1 seek=12345 conv=notrunc status=none
printf 'hello' | dd of=/tmp/src bs=1 seek=12345 conv=notrunc status=none
# append
head -c 7777 /dev/urandom | tee -a /tmp/src >> f
cmp /tmp/src f || fail "after overwrite and append"
expect_eq "$(stat -c %s f)" 3007777 "size"
fs_cycle
cmp /tmp/src f || fail "after umount/mount"
drop_caches
cmp /tmp/src f || fail "after drop_caches"
