# A tree of files of many sizes keeps its content across umount/mount.
# fs: ext2 minix
perl -e 'srand(42); for my $d (0 .. 19) { mkdir "t$d" or die;
	for my $i (0 .. 29) { my $n = int(rand(3) ? rand(5000) : rand(300000));
		open(my $f, ">", "t$d/f$i") or die; print $f join("", map { chr(32 + rand(90)) } 1 .. $n) } }' ||
	fail "making the tree"
find t* -type f | sort | xargs md5sum > /tmp/sums
expect_eq "$(wc -l < /tmp/sums)" 600 "files made"
fs_cycle
md5sum --quiet -c /tmp/sums || fail "content changed across remount"
drop_caches
md5sum --quiet -c /tmp/sums || fail "content changed after drop_caches"
