# A freed metadata block that is reused for file data is never overwritten
# by its old cached copy (fs_buf_forget): the indirect blocks of file A and
# the blocks of directory D are dirty and unwritten when A is truncated and
# D removed; with the filesystem otherwise full, small files without
# indirect blocks (half buffered, half O_DIRECT) take every freed block, so
# those blocks now hold their data. After sync, drop_caches and a remount,
# every small file reads back.
# fs-size: 16M
sysctl -q vm.dirty_writeback_centisecs=0 vm.dirty_expire_centisecs=360000
sync
# D, several blocks of entries; rm -r dirties every one of them (each
# unlink changes its block) before rmdir frees them.
mkdir D
perl -e 'for (1 .. 400) { open(my $f, ">", "D/entry-with-a-long-name-$_") or die "create $_: $!" }' ||
	fail "create D's entries"
sync
dirblocks=$(fs_debugfs "blocks /D")
[ "$(wc -w <<< "$dirblocks")" -ge 3 ] || fail "D has blocks '$dirblocks'"
# A, in one contiguous run: its indirect blocks are the gaps in its data.
xfs_io -f -c "pwrite -q -S 0xaa 0 1m" A
extents=$(xfs_io -c fiemap A | sed -n 's/.*: \([0-9]*\)\.\.\([0-9]*\)$/\1 \2/p')
spb=$((FS_BS / 512))
indirect=$(awk -v spb="$spb" '
	{ s = $1 / spb; e = ($2 + 1) / spb
	  if (NR > 1) for (b = prev; b < s; b++) print b
	  prev = e }' <<< "$extents")
[ -n "$indirect" ] || fail "no indirect blocks found between A's extents: $extents"

dd if=/dev/zero of=fill bs=64k status=none 2> /dev/null || true
truncate -s 0 A
rm -r D

len=$((12 * FS_BS))	# twelve blocks: no indirect block needed
n=0
while :; do
	n=$((n + 1))
	if [ $((n % 2)) -eq 0 ]; then d=-d; else d=; fi
	out=$(xfs_io $d -f -c "pwrite -q -S 0x5c 0 $len" "B$n" 2>&1) || true
	# ENOSPC, or a short write that ran into it
	if [ -n "$out" ] || [ "$(stat -c %s "B$n")" != "$len" ]; then
		rm -f "B$n"
		n=$((n - 1))
		break
	fi
done
[ "$n" -ge 4 ] || fail "only $n small files fit"
# The blocks (in 512-byte sectors, first and last) the small files hold.
for ((i = 1; i <= n; i++)); do
	xfs_io -c fiemap "B$i" | sed -n 's/.*: \([0-9]*\)\.\.\([0-9]*\)$/\1 \2/p'
done > /tmp/small-extents
reused() { # BLOCKS: how many of them the small files hold
	local b n=0
	for b in $1; do
		awk -v s=$((b * spb)) '$1 <= s && s <= $2 { f = 1 } END { exit !f }' /tmp/small-extents &&
			n=$((n + 1))
	done
	echo $n
}
[ "$(reused "$indirect")" -ge 1 ] || fail "none of A's indirect blocks ($indirect) was reused for data"
[ "$(reused "$dirblocks")" -ge 1 ] || fail "none of D's blocks ($dirblocks) was reused for data"

want=$(head -c "$len" /dev/zero | tr '\0' '\134' | md5sum | cut -d' ' -f1)
check_all() { # WHEN
	local bad
	bad=$(md5sum B* | awk -v w="$want" '$1 != w { print $2 }' | head -3)
	[ -z "$bad" ] || fail "wrong contents $1: $bad"
}
sync
drop_caches
check_all "after sync"
fs_cycle
check_all "after remount"
