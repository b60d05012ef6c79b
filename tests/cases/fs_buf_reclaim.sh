# Under memory pressure fs_buf gives clean buffers back and keeps every
# dirty one: while drop_caches runs in a loop (the shrinkers, fs_buf's
# among them), a metadata workload creates, renames and unlinks entries
# across many directories with periodic writeback off; the reclaimed
# counter grows, and after a remount every entry the model expects is
# there with its contents, and no other.
sysctl -q vm.dirty_writeback_centisecs=0
dev=${DEV#/dev/}
reclaimed0=$(fs_buf_stat "$dev" reclaimed)
[ -n "$reclaimed0" ] || fail "no fs_buf counters for $dev"
touch /tmp/reclaim.run
(while [ -e /tmp/reclaim.run ]; do echo 3 > /proc/sys/vm/drop_caches; sleep 0.2; done) &
loop=$!
n=$((3000 * SCALE))
perl -e 'my $n = shift;
	for my $i (1 .. $n) {
		my $d = "d" . ($i % 30);
		mkdir $d unless -d $d;
		open(my $f, ">", "$d/f$i") or die "create $i: $!"; print $f "$i\n"; close $f;
	}
	for my $i (grep { $_ % 2 } 1 .. $n) {
		my $d = "d" . ($i % 30);
		rename("$d/f$i", "d" . (($i + 1) % 30) . "/r$i") or die "rename $i: $!";
	}
	for my $i (grep { $_ % 3 == 0 } 1 .. $n) {
		my $d = "d" . ($i % 30);
		unlink($i % 2 ? "d" . (($i + 1) % 30) . "/r$i" : "$d/f$i") or die "unlink $i: $!";
	}' "$n" || { rm -f /tmp/reclaim.run; wait $loop; fail "workload"; }
rm -f /tmp/reclaim.run
wait $loop
[ "$(fs_buf_stat "$dev" reclaimed)" -gt "$reclaimed0" ] || fail "the fs_buf shrinker reclaimed nothing"
fs_cycle
perl -e 'my $n = shift; my %want;
	for my $i (1 .. $n) {
		next if $i % 3 == 0;
		my $p = $i % 2 ? "d" . (($i + 1) % 30) . "/r$i" : "d" . ($i % 30) . "/f$i";
		$want{$p} = "$i\n";
	}
	my $found = 0;
	for my $d (0 .. 29) {
		opendir(my $h, "d$d") or die "opendir d$d: $!";
		for my $e (grep { !/^\./ } readdir $h) {
			my $p = "d$d/$e";
			die "unexpected $p\n" unless exists $want{$p};
			open(my $f, "<", $p) or die "open $p: $!";
			my $c = <$f>;
			die "$p holds $c\n" if $c ne $want{$p};
			$found++;
		}
	}
	die "found $found entries, want " . scalar(keys %want) . "\n" if $found != keys %want;' "$n" ||
	fail "the tree after remount differs from the model"
