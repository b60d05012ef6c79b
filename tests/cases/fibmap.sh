# FIBMAP (the bmap ioctl) returns the physical block debugfs sees for each
# logical block, and 0 for holes.
xfs_io -f -c "pwrite -q 0 64k" -c "pwrite -q 1m 16k" f
sync
ino=$(stat -c %i f)
nblk=$(((1048576 + 16384) / FS_BS))
perl -e 'open(my $f, "<", $ARGV[0]) or die; for my $l (0 .. $ARGV[1] - 1) {
	my $b = pack("i", $l); ioctl($f, 1, $b) or die "FIBMAP: $!"; print unpack("i", $b), "\n" }' \
	f "$nblk" > /tmp/fibmap || fail "FIBMAP ioctl failed"
for l in 0 1 $((65536 / FS_BS - 1)) $((65536 / FS_BS)) $((1048576 / FS_BS)) $((nblk - 1)); do
	want=$(fs_debugfs "bmap <$ino> $l")
	got=$(sed -n "$((l + 1))p" /tmp/fibmap)
	expect_eq "$got" "$want" "FIBMAP of logical block $l"
done
expect_eq "$(sed -n "$((65536 / FS_BS + 1))p" /tmp/fibmap)" 0 "FIBMAP of a hole"
