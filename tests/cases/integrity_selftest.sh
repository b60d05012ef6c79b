# The exerciser catches corruption: a byte flipped behind its back through a
# second file descriptor must fail the run with a MISMATCH report.
# block-sizes: 4096
for mix in buffered dio mmap mixed; do
	if "$TOOLS/integrity" -q -S 7 -N 20000 -X 2000 -m "$mix" -l 1m f1 > /tmp/out 2>&1; then
		fail "-m $mix: injected corruption not detected"
	fi
	grep -q MISMATCH /tmp/out || fail "-m $mix: failed without a MISMATCH report: $(tail -3 /tmp/out)"
done
