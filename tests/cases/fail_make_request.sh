# I/O errors on random requests to the disk (fail_make_request on $DEV; a
# debug kernel) while files are written, synced, read back and removed: the
# errors reach the callers as EIO, the kernel stays healthy, and once the
# disk works again the filesystem is written whole: syncfs succeeds, umount
# works and e2fsck is clean apart from the error state ext2 records for a
# failed metadata read.
# setup: none
# block-sizes: 1024 4096
fault_inject fail_make_request 0 0
disk=/sys/block/${DEV#/dev/}/make-it-fail
trap 'fault_off fail_make_request; echo 0 > '"$disk" EXIT
fs_mkfs
fs_mount
cd "$MNT"
mkdir d
echo 1 > "$disk"
fault_inject fail_make_request 5 100000
eio=0 other=0
for ((i = 1; i <= 60 * SCALE; i++)); do
	out=$( { head -c $((i * 7000)) /dev/urandom > "d/f$i" && xfs_io -c fsync "d/f$i" &&
		cat "d/f$((i / 2 + 1))" > /dev/null && mkdir -p "d/s$((i % 5))/t$i" &&
		rm -rf "d/s$(((i + 2) % 5))"; } 2>&1) && continue
	if grep -q "Input/output error" <<< "$out"; then
		eio=$((eio + 1))
	else
		other=$((other + 1)) && echo "not EIO: $out"
	fi
done
out=$(xfs_io -c syncfs "$MNT" 2>&1) || true
fault_off fail_make_request
echo 0 > "$disk"
echo "steps failing with EIO $eio, otherwise $other, failures injected $(fault_injected fail_make_request)"
[ "$(fault_injected fail_make_request)" -gt 0 ] || fail "no request failure was injected"
[ "$eio" -gt 0 ] || fail "no EIO reached a caller"
[ "$other" = 0 ] || fail "$other steps failed with something other than EIO"

# The disk works again: everything still dirty is written.
out=$(xfs_io -c syncfs "$MNT" 2>&1) || true
[ -z "$out" ] || fail "syncfs once the disk works: $out"
find "$MNT" > /dev/null
fs_umount
out=$(e2fsck -fn "$DEV" 2>&1) && exit 0
# Passes 1-5 find nothing to fix; only the error state a failed metadata read
# set remains, which -fy clears.
if ! grep -q "contains a file system with errors" <<< "$out" || grep -q '? no$' <<< "$out"; then
	fail "e2fsck -fn: $out"
fi
e2fsck -fy "$DEV" > /dev/null 2>&1
out=$(e2fsck -fn "$DEV" 2>&1) || fail "e2fsck -fn after clearing the error state: $out"
