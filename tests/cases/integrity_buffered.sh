# Data-integrity exerciser: buffered reads and writes, truncates, fsyncs;
# small files for many ops, then larger ones that cross indirect boundaries.
run_integrity buffered 20000 -l 1m -o 64k
run_integrity buffered 2500 -l 6m
