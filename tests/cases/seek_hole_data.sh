# SEEK_DATA and SEEK_HOLE: results are consistent with the block map (FIEMAP).
# The generic checks hold for any correct driver; the exact ones at the end
# need a driver that reads the block map (stock ext2 reports all as data).
# fs: ext2 minix
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
# ext2 on iomap is precise: exact answers for this layout (blocks <= 4 KiB).
expect_eq "$(seekto -d 0)" 65536 "SEEK_DATA(0)"
expect_eq "$(seekto -h 0)" 0 "SEEK_HOLE(0)"
expect_eq "$(seekto -h 69632)" 73728 "SEEK_HOLE(69632)"
expect_eq "$(seekto -d 100000)" 1048576 "SEEK_DATA(100000)"
expect_eq "$(seekto -d 1052672)" EOF "SEEK_DATA after the last data"
expect_eq "$(seekto -h 1050000)" 1052672 "SEEK_HOLE(1050000)"
