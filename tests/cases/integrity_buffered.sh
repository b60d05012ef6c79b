# Data-integrity exerciser: buffered reads and writes, truncates, fsyncs;
# small files for many ops, then larger ones that cross indirect boundaries.
run_integrity buffered 40000 -l 1m -o 64k
run_integrity buffered 5000 -l 6m
