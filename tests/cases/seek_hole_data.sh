# SEEK_DATA and SEEK_HOLE: results are consistent with the block map (FIEMAP).
# Stock ext2 may report the whole file as data; a precise driver reports holes.
xfs_io -f -c "pwrite -q 64k 8k" -c "pwrite -q 1m 4k" -c "truncate 2m" f
size=$(stat -c %s f)
seekto() { # -d|-h OFFSET -> result or EOF
	xfs_io -c "seek $1 $2" f | awk 'NR == 2 { print $2 }'
}
# Data extents in bytes: "start end" per line, from FIEMAP (512-byte units).
xfs_io -c "fiemap" f | awk -F'[][.:[:space:]]+' 'NF >= 6 { print $3 * 512, ($4 + 1) * 512 }' > /tmp/extents
[ -s /tmp/extents ] || fail "FIEMAP reported no data"
is_data() { # OFFSET
	awk -v o="$1" '$1 <= o && o < $2 { found = 1 } END { exit !found }' /tmp/extents
}
data_between() { # A B: any data byte in [A, B)?
	awk -v a="$1" -v b="$2" 'a < b && $1 < b && $2 > a { found = 1 } END { exit !found }' /tmp/extents
}
for off in 0 4096 65536 69632 100000 1048576 1052672 2000000; do
	d=$(seekto -d "$off")
	if [ "$d" = EOF ]; then
		data_between "$off" "$size" && fail "SEEK_DATA($off) = ENXIO but data follows"
	else
		[ "$d" -ge "$off" ] || fail "SEEK_DATA($off) = $d goes backwards"
		data_between "$off" "$d" && fail "SEEK_DATA($off) = $d skips data"
	fi
	h=$(seekto -h "$off")
	[ "$h" != EOF ] || fail "SEEK_HOLE($off) = ENXIO inside the file"
	[ "$h" -ge "$off" ] && [ "$h" -le "$size" ] || fail "SEEK_HOLE($off) = $h out of range"
	[ "$h" -eq "$size" ] || ! is_data "$h" || fail "SEEK_HOLE($off) = $h is data"
done
expect_eq "$(seekto -d "$size")" EOF "SEEK_DATA at EOF"
expect_eq "$(seekto -h "$size")" EOF "SEEK_HOLE at EOF"
