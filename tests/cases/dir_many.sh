# Thousands of entries in one directory: create, look up, rename, unlink,
# and the same from the disk after a remount.
# fs: ext2 minix
n=$((3000 * SCALE))
# longer names move entries around; minix takes 30 bytes at most (v1, v2)
long=renamed-with-a-longer-name-
[ "$FS_TYPE" = ext2 ] || long=renamed-longer-
mkdir d
perl -e 'my ($d, $n) = @ARGV;
	for (1 .. $n) { open(my $f, ">", "$d/file-$_") or die "create $_: $!"; print $f "$_\n" }' d "$n" ||
	fail "create"
expect_eq "$(ls d | wc -l)" "$n" "entries after create"
fs_cycle
perl -e 'my ($d, $n) = @ARGV;
	for (1 .. $n) { open(my $f, "<", "$d/file-$_") or die "lookup $_: $!"; my $l = <$f>; die "content $_" if $l ne "$_\n" }
	for (grep { $_ % 2 } 1 .. $n) { rename("$d/file-$_", "$d/$ARGV[2]$_") or die "rename $_: $!" }
	for (grep { $_ % 3 == 0 } 1 .. $n) { unlink("$d/file-$_") or unlink("$d/$ARGV[2]$_") or die "unlink $_: $!" }' d "$n" "$long" ||
	fail "lookup/rename/unlink"
want=$((n - n / 3))
expect_eq "$(ls d | wc -l)" "$want" "entries after unlink"
fs_cycle
expect_eq "$(ls d | wc -l)" "$want" "entries from disk"
expect_eq "$(ls d | grep -c "^$long")" "$(perl -e 'print scalar grep { $_ % 2 && $_ % 3 } 1 .. $ARGV[0]' "$n")" "renamed entries"
expect_eq "$(cat "d/${long}1")" 1 "renamed content"
rm -rf d
expect_eq "$(ls | grep -v lost+found | wc -l)" 0 "after rm -rf"
