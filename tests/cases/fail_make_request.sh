# I/O errors on random requests to the disk (fail_make_request on $DEV; a
# debug kernel) while files are written, synced, read back and removed: the
# errors reach the callers as EIO, the kernel stays healthy, and once the
# disk works again the filesystem is written whole: syncfs succeeds, umount
# works, e2fsck is clean apart from the error state ext2 records for a
# failed metadata read, and every file whose fsync succeeded reads back
# from the disk as written.
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
eio=0 other=0 sums=/tmp/fail_make_request.sums
: > $sums
for ((i = 1; i <= 60 * SCALE; i++)); do
	# a file's sum is kept once its fsync succeeded
	out=$( { set -o pipefail; sum=$(head -c $((i * 7000)) /dev/urandom | tee "d/f$i" | md5sum) &&
		xfs_io -c fsync "d/f$i" && echo "$sum d/f$i" >> $sums &&
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
if ! out=$(e2fsck -fn "$DEV" 2>&1); then
	# Passes 1-5 find nothing to fix; only the error state a failed
	# metadata read set remains, which -fy clears (exit 1: fixed).
	if ! grep -q "contains a file system with errors" <<< "$out" || grep -q '? no$' <<< "$out"; then
		fail "e2fsck -fn: $out"
	fi
	e2fsck -fy "$DEV" > /dev/null 2>&1 || [ $? = 1 ] || fail "e2fsck -fy failed"
	out=$(e2fsck -fn "$DEV" 2>&1) || fail "e2fsck -fn after clearing the error state: $out"
fi
# What fsync acknowledged, read from the disk.
fs_mount
cd "$MNT"
n=0
while read -r sum dash name; do
	[ "$(md5sum < "$name")" = "$sum  $dash" ] || fail "$name does not read back as written after its fsync succeeded"
	n=$((n + 1))
done < $sums
echo "files fsynced and read back: $n"
[ "$n" -gt 0 ] || fail "no fsync succeeded"
fs_umount
