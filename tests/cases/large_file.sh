# Writes on both sides of each indirect-block boundary, up to triple-indirect.
# timeout: 1200
per=$((FS_BS / 4))
# First logical block mapped by: indirect, double, triple.
for first in 12 $((12 + per)) $((12 + per + per * per)); do
	for blk in $((first - 1)) "$first"; do
		off=$((blk * FS_BS - 7))
		printf 'block%012d' "$blk" | dd of=f bs=1 seek="$off" conv=notrunc status=none
	done
done
fs_cycle
for first in 12 $((12 + per)) $((12 + per + per * per)); do
	for blk in $((first - 1)) "$first"; do
		off=$((blk * FS_BS - 7))
		got=$(dd if=f bs=1 skip="$off" count=17 status=none)
		expect_eq "$got" "$(printf 'block%012d' "$blk")" "data at logical block $blk"
	done
done
# Everything else is a hole; the file spans the triple-indirect range.
size=$(stat -c %s f)
[ "$size" -gt $(((12 + per + per * per) * FS_BS)) ] || fail "size $size"
expect_eq "$(dd if=f bs="$FS_BS" skip=13 count=20 status=none | tr -d '\0' | wc -c)" 0 "hole"
