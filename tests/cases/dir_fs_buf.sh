# Directory blocks live in fs_buf, not in the directory's page cache: after
# a remount, listing a directory of many blocks reads every one of them
# through fs_buf (its read counter grows by at least the directory's block
# count), a second listing is served from the cache (hits, no new reads),
# and lookups of every name succeed.
n=$((2000 * SCALE))
mkdir d
perl -e 'my ($d, $n) = @ARGV;
	for (1 .. $n) { open(my $f, ">", "$d/entry-with-a-long-name-$_") or die "create $_: $!" }' d "$n" ||
	fail "create"
blocks=$(($(stat -c %s d) / FS_BS))
[ "$blocks" -ge 8 ] || fail "the directory has only $blocks blocks"
fs_cycle
dev=${DEV#/dev/}
reads0=$(fs_buf_stat "$dev" reads)
[ -n "$reads0" ] || fail "no fs_buf counters for $dev"
expect_eq "$(ls -f d | wc -l)" $((n + 2)) "entries listed"
reads1=$(fs_buf_stat "$dev" reads)
[ $((reads1 - reads0)) -ge "$blocks" ] ||
	fail "listing $blocks directory blocks read only $((reads1 - reads0)) blocks through fs_buf"
hits1=$(fs_buf_stat "$dev" hits)
expect_eq "$(ls -f d | wc -l)" $((n + 2)) "entries listed again"
expect_eq "$(fs_buf_stat "$dev" reads)" "$reads1" "fs_buf reads of the second listing"
[ "$(fs_buf_stat "$dev" hits)" -ge $((hits1 + blocks)) ] || fail "the second listing did not hit the cache"
perl -e 'my ($d, $n) = @ARGV;
	for (1 .. $n) { -e "$d/entry-with-a-long-name-$_" or die "lookup $_: $!" }' d "$n" ||
	fail "lookup"
