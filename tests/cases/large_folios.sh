# Large folios: readahead uses them, the data paths stay correct with them,
# and overwrites of a file read in by readahead write back the blocks that
# changed, not whole folios: buffered writes, and stores through a mapping,
# where a write fault dirties only the page it hit, or all of a folio that
# a PMD maps. Blocks smaller than a page are 1 KiB's case already; 2 KiB
# adds time, not paths.
# block-sizes: 1024 4096
# In 6.1 the page cache has large folios only with CONFIG_TRANSPARENT_HUGEPAGE.
[ -d /sys/kernel/mm/transparent_hugepage ] ||
	skip "no large folios in this kernel (CONFIG_TRANSPARENT_HUGEPAGE is off)"
# orders FILE: the folio orders the page cache used to read FILE in.
orders() {
	drop_caches
	cat "$1" > /dev/null
	"$TOOLS/folios" "$1" | sed -n 's/^orders //p'
}
# amplified WRITTEN USER WHAT: fail if the device wrote much more than the user.
amplified() {
	echo "$3: $1 device bytes for $2 user bytes"
	[ "$1" -le $(($2 * 3 / 2 + 32768)) ] ||
		fail "write amplification of $3 with large folios: $1 device bytes for $2 user bytes"
}
xfs_io -f -c "pwrite -q -S 0x5a -b 1m 0 8m" -c fsync big
o=$(orders big)
[ "$o" != "0" ] && [ -n "$o" ] || fail "readahead used folio orders '$o'"

# 64 one-block overwrites spread over the cached file.
cp big /tmp/want
cmds=()
for ((i = 0; i < 64; i++)); do
	cmds+=(-c "pwrite -q -S 0x$(printf %02x $((i + 64))) $(((i * 131 % 2048) * 4096)) $FS_BS")
done
xfs_io "${cmds[@]}" /tmp/want
amplified "$(dev_written xfs_io "${cmds[@]}" big)" $((64 * FS_BS)) "buffered overwrites"
drop_caches
cmp big /tmp/want || fail "big differs after its pages were dropped"

# 64 one-byte stores through a shared mapping, read in by readahead first
# (the orders check proves the folios are large): each dirties one page.
o=$(orders big)
[ "$o" != "0" ] && [ -n "$o" ] || fail "readahead used folio orders '$o' before the stores"
cmds=(-c "mmap -w 0 8m")
for ((i = 0; i < 64; i++)); do
	cmds+=(-c "mwrite -S 0x$(printf %02x $((i + 128))) $(((i * 197 % 2048) * 4096 + 7)) 1")
done
cmds+=(-c "msync -s 0 8m")
xfs_io "${cmds[@]}" /tmp/want
amplified "$(dev_written xfs_io "${cmds[@]}" big)" $((64 * 4096)) "stores through a mapping"
drop_caches
cmp big /tmp/want || fail "big differs after stores through a mapping"

# A fault on a PMD-sized folio may map all of it writable: stores to its
# other pages take no fault, and must be written back all the same.
xfs_io -f -c "pwrite -q -S 0x3c -b 1m 0 4m" -c fsync huge
cp huge /tmp/want
"$TOOLS/hugestore" /tmp/want > /dev/null
drop_caches
pmd=$("$TOOLS/hugestore" huge | sed -n 's/^pmd_kib //p')
[ "${pmd:-0}" -gt 0 ] || fail "no PMD mapped the file (FilePmdMapped ${pmd:-?} kB): nothing tested"
drop_caches
cmp huge /tmp/want || fail "stores through a PMD mapping were lost"

run_integrity mixed 10000 -l 4m -o 256k
run_integrity mmap 5000 -l 4m -o 256k
