# A directory opens with O_DIRECT, as it did with buffer heads (programs
# such as find and tar may pass it along), and lists its entries.
mkdir d && touch d/x
perl -MFcntl -e 'opendir(my $d, "d") or die; sysopen(my $f, "d", O_RDONLY | O_DIRECT | O_DIRECTORY) or die "open: $!\n"' ||
	fail "O_DIRECT open of a directory"
expect_eq "$(ls d)" x "listing"
