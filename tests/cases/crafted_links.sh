# Crafted link counts. An empty directory counts its entry and its "." (2):
# one whose count says 1 is removed by rmdir, another is replaced by renaming
# a directory over it, and a parent whose count says 2 though it holds a
# subdirectory loses that subdirectory. An empty directory q with a second
# name x counts 3: rmdir q must leave it to x, not free it. A file with two
# names counts 1, and both go while it is open. No count may go below zero
# (drop_nlink()'s WARNING), q must not be freed under x, each count found
# too low is reported, and the checker finds nothing at the end.
# fs: ext2 minix
# setup: none
# timeout: 300
fs_mkfs
fs_mount
mkdir "$MNT/e" "$MNT/f" "$MNT/g" "$MNT/p" "$MNT/p/c" "$MNT/q"
touch "$MNT/h" "$MNT/t"
ln "$MNT/h" "$MNT/h2"
ln "$MNT/t" "$MNT/x"
declare -A ino
for n in e f g p q h t; do
	ino[$n]=$(stat -c %i "$MNT/$n")
done
root_ino=$(stat -c %i "$MNT") root_links=$(stat -c %h "$MNT")
fs_umount

set_links() { # INO COUNT
	if [ "$FS_TYPE" = ext2 ]; then
		debugfs -w -R "sif <$1> links_count $2" "$DEV" 2> /dev/null
	elif [ "$MINIX_VERSION" = 1 ]; then
		dev_le $(($(minix_ino_off "$1") + 13)) 1 "$2"
	else
		dev_le $(($(minix_ino_off "$1") + 2)) 2 "$2"
	fi
}
# Point the root's entry NAME at inode INO.
set_entry() { # NAME INO
	local size=32 isize=2 zone off
	if [ "$FS_TYPE" = ext2 ]; then
		debugfs -w -R "unlink /$1" "$DEV" 2> /dev/null
		debugfs -w -R "ln <$2> /$1" "$DEV" 2> /dev/null
		return
	fi
	[ "$MINIX_VERSION" != 3 ] || size=64 isize=4
	zone=$(dev_le $(($(minix_ino_off "$root_ino") + MINIX_ZONES)) "$MINIX_ZSIZE")
	off=$(dd if="$DEV" iflag=direct bs=1024 skip="$zone" count=1 2> /dev/null |
		perl -e 'my ($name, $size, $isize) = @ARGV; read(STDIN, my $b, 1024);
			for (my $o = 0; $o < 1024; $o += $size) {
				if (unpack("Z*", substr($b, $o + $isize, $size - $isize)) eq $name) {
					print "$o\n"; exit 0;
				}
			}
			exit 1' "$1" "$size" "$isize") || fail "no entry $1 in the root"
	dev_le $((zone * 1024 + off)) "$isize" "$2"
}
[ "$FS_TYPE" = ext2 ] || minix_layout
# x, a second name of t, now names q. Each rmdir takes a ".." link from the
# root: count one for x too, so that the root's count comes out right.
set_entry x "${ino[q]}"
set_links "${ino[t]}" 1
set_links "$root_ino" $((root_links + 1))
declare -A crafted=([e]=1 [f]=1 [p]=2 [q]=3 [h]=1)
for n in "${!crafted[@]}"; do
	set_links "${ino[$n]}" "${crafted[$n]}"
done
blockdev --flushbufs "$DEV"

fs_mount
for n in "${!crafted[@]}"; do
	expect_eq "$(stat -c %h "$MNT/$n")" "${crafted[$n]}" "$n's crafted count"
done
rmdir "$MNT/e" || fail "rmdir of an empty directory whose count says 1"
mv -T "$MNT/g" "$MNT/f" || fail "rename over an empty directory whose count says 1"
expect_eq "$(stat -c '%i %h' "$MNT/f")" "${ino[g]} 2" "f, renamed from g"
rmdir "$MNT/p/c" || fail "rmdir in a directory whose count says 2"
expect_eq "$(stat -c %h "$MNT/p")" 2 "p's count"
echo new > "$MNT/p/new" || fail "create in p"
rmdir "$MNT/q" || fail "rmdir of an empty directory with a second name"
expect_eq "$(stat -c '%i %h' "$MNT/x" 2>&1)" "${ino[q]} 1" "x, q's second name, after rmdir q"
rmdir "$MNT/x" || fail "rmdir of the second name"
exec 3< "$MNT/h"
rm "$MNT/h" "$MNT/h2" || fail "unlink of two names of a file whose count says 1"
exec 3<&-
expect_eq "$(ls "$MNT" | grep -v lost+found | tr '\n' ' ')" "f p t " "listing of the root"
expect_eq "$(stat -c %h "$MNT")" $((root_links - 3)) "the root's count"
# e's ".", f's ".", p losing c, x's "." and h2
expect_eq "$(dmesg | grep -cE "inode [0-9]+ has more (names|subdirectories) than links")" 5 \
	"reports of low counts"
fs_umount
if [ "$FS_TYPE" = ext2 ]; then
	expect_eq "$(dumpe2fs -h "$DEV" 2> /dev/null | sed -n 's/^Filesystem state: *//p')" \
		"clean with errors" "the superblock's state"
fi
fs_fsck
