# Corrupt images: tools/imgfuzz damages a populated image (files up to
# triple-indirect, a multi-block directory, fast and slow symlinks, hard
# links, xattr blocks) one seed at a time, mounts it and runs a workload on
# it. Any oops, BUG, WARNING, hang or a mount served by another driver fails
# the case; refused mounts and failed calls are counted, not failed. Images
# that once failed (tests/imgfuzz/*.img.gz) run first. IMGFUZZ_IMAGES
# (default 100) times SCALE images per block size; SEED picks the first seed.
# setup: none
# fs-size: 8M
# timeout: 1200
. "$PROJECT/vm/kcheck.sh"
trap 'cd /; umount "$MNT" 2> /dev/null || true' EXIT
tree=/tmp/imgfuzz-tree base=/tmp/imgfuzz-base.img
rm -rf "$tree"
mkdir -p "$tree/d1/d2/d3" "$tree/many"
cd "$tree"
printf x > one
# Text, not random bytes: a saved image compresses to a few KiB.
yes imgfuzz | head -c 5000 > d1/f5k
yes imgfuzz | head -c 300000 > d1/d2/f300k
truncate -s 70M d1/sparse
for at in 5000000 69000000; do
	printf abc | dd of=d1/sparse bs=1 seek=$at conv=notrunc status=none
done
for i in $(seq 150); do echo "$i" > "many/a-file-with-a-longer-name-$i"; done
ln -s one fast
ln -s "$(printf 'x%.0s' $(seq 80))" slow
ln one d1/d2/d3/hard
setfattr -n trusted.a -v hello one
setfattr -n trusted.b -v "$(printf 'y%.0s' $(seq 300))" d1/f5k
cd /
# A fixed time (the files' too: mkfs -d copies them) and UUID: the same seed
# makes the same image on every run.
find "$tree" -exec touch -h -d @1700000000 {} +
E2FSPROGS_FAKE_TIME=1700000000 mkfs.ext2 -q -F -b "$FS_BS" -g $((2097152 / FS_BS)) \
	-U 4f1e6b2c-2d4e-4c51-9a57-3b1d0c1e2f30 -E hash_seed=4f1e6b2c-2d4e-4c51-9a57-3b1d0c1e2f30 \
	-d "$tree" "$base" "$FS_SIZE" || fail "mkfs.ext2 -d"
e2fsck -fn "$base" > /dev/null || fail "the base image is not clean"

fz() { "$TOOLS/imgfuzz" run -t "$DEV" -d "$MNT" -T "$FS_TYPE" -M "$FS_MODULE" \
	-K "$kcheck_patterns" -o "$RUN_DIR" "$@"; }
failed=""
for gz in "$PROJECT"/tests/imgfuzz/*-bs"$FS_BS"-*.img.gz; do
	[ -f "$gz" ] || continue
	gunzip -c "$gz" > /tmp/imgfuzz-kept.img
	fz -b /tmp/imgfuzz-kept.img -R || failed+=" $(basename "$gz")"
done
n=$((${IMGFUZZ_IMAGES:-100} * SCALE)) first=$((${SEED:-0} * 1000000 + 1))
out=$(fz -b "$base" -s $first -n $n) || failed+=" seeds $first..$((first + n - 1))"
echo "$out"
grep "^imgfuzz: " <<< "$out" | sed "s/^/$FS_TYPE bs=$FS_BS /" >> "$RUN_DIR/imgfuzz.txt"
grep -q "^imgfuzz: $n images" <<< "$out" || fail "the fuzzer stopped early"
# What is left on the disk is a corrupt image: nothing for e2fsck to judge.
dd if=/dev/zero of="$DEV" bs=1M count=1 conv=fsync status=none
if [ -n "$failed" ]; then
	gzip -c "$base" > "$RUN_DIR/imgfuzz-base-bs$FS_BS.img.gz"
	fail "corrupt images broke the kernel:$failed (saved in the run directory" \
		"with the base image; imgfuzz corrupt -S SEED BASE OUT rebuilds one)"
fi
# Images the mount refuses test only the mount: most must get to the workload.
mounted=$(sed -n 's/^imgfuzz: [0-9]* images, \([0-9]*\) mounted.*/\1/p' <<< "$out")
[ $((${mounted:-0} * 10)) -ge $((n * 6)) ] ||
	fail "only ${mounted:-none} of $n corrupt images mounted: too few reach the workload"
