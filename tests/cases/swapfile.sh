# A swapfile on the filesystem: swapon, pages really go out and come back
# intact, swapoff; a sparse file is refused.
# fs: ext2 minix
dd if=/dev/zero of=swap bs=1M count=32 status=none
chmod 600 swap
mkswap swap > /dev/null
swapon swap || fail "swapon"
grep -q "$MNT/swap" /proc/swaps || { swapoff swap; fail "not in /proc/swaps"; }
# Push a process out to swap with a memory cgroup smaller than its data.
mkdir -p /sys/fs/cgroup
mountpoint -q /sys/fs/cgroup || mount -t cgroup2 none /sys/fs/cgroup
echo +memory > /sys/fs/cgroup/cgroup.subtree_control
mkdir -p /sys/fs/cgroup/swaptest
echo 16M > /sys/fs/cgroup/swaptest/memory.max
used=$(bash -c 'echo $$ > /sys/fs/cgroup/swaptest/cgroup.procs; exec perl -e '\''
	my $n = 24 * 256; my $s = "\0" x ($n * 4096);
	substr($s, $_ * 4096, 8) = pack("Q", $_ * 7919) for 0 .. $n - 1;
	open(my $f, "<", "/proc/swaps"); my @l = <$f>; my ($u) = (grep { /swap\s/ } @l)[0] =~ /\S+\s+\S+\s+\S+\s+(\d+)/;
	for (0 .. $n - 1) { die "page $_ corrupt\n" if unpack("Q", substr($s, $_ * 4096, 8)) != $_ * 7919 }
	print "$u\n";'\''') || { swapoff swap; fail "data corrupted through swap"; }
rmdir /sys/fs/cgroup/swaptest
swapoff swap || fail "swapoff"
[ "$used" -gt 1024 ] || fail "nothing was swapped out (used $used KiB)"
truncate -s 32M sparse
chmod 600 sparse
mkswap sparse > /dev/null
# swapon(8) refuses holes itself; ask the kernel directly (SYS_swapon is 167).
expect_fail "Invalid argument" perl -e 'syscall(167, $ARGV[0], 0) == 0 and exit 0; die "$!\n"' sparse
