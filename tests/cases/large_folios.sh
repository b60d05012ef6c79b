# Large folios (module parameter large_folios, off by default): readahead
# uses them only when asked, the data paths stay correct with them, and
# buffered overwrites of a file read in by readahead write back the blocks
# that changed, not whole folios. Blocks smaller than a page are 1 KiB's
# case already; 2 KiB adds time, not paths.
# block-sizes: 1024 4096
# In 6.1 the page cache has large folios only with CONFIG_TRANSPARENT_HUGEPAGE.
[ -d /sys/kernel/mm/transparent_hugepage ] ||
	skip "no large folios in this kernel (CONFIG_TRANSPARENT_HUGEPAGE is off)"
param=/sys/module/$FS_MODULE/parameters/large_folios
# orders FILE: the folio orders the page cache used to read FILE in.
orders() {
	drop_caches
	cat "$1" > /dev/null
	"$TOOLS/folios" "$1" | sed -n 's/^orders //p'
}
xfs_io -f -c "pwrite -q -b 1m 0 8m" -c fsync small
expect_eq "$(orders small)" "0" "folio orders with large_folios off"

echo 1 > "$param"
trap 'echo 0 > "$param"' EXIT
xfs_io -f -c "pwrite -q -S 0x5a -b 1m 0 8m" -c fsync big
o=$(orders big)
[ "$o" != "0" ] && [ -n "$o" ] || fail "readahead used folio orders '$o' with large_folios on"

# 64 one-block overwrites spread over the cached file.
cp big /tmp/want
cmds=()
for ((i = 0; i < 64; i++)); do
	cmds+=(-c "pwrite -q -S 0x$(printf %02x $((i + 64))) $(((i * 131 % 2048) * 4096)) $FS_BS")
done
xfs_io "${cmds[@]}" /tmp/want
written=$(dev_written xfs_io "${cmds[@]}" big)
user=$((64 * FS_BS))
[ "$written" -le $((user * 3 / 2 + 32768)) ] ||
	fail "write amplification with large folios: $written device bytes for $user user bytes"
drop_caches
cmp big /tmp/want || fail "big differs after its pages were dropped"

run_integrity mixed 10000 -l 4m -o 256k
run_integrity mmap 5000 -l 4m -o 256k
