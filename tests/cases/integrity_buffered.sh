# Data-integrity exerciser: buffered reads and writes, truncates, fsyncs.
run_integrity buffered 50000 -l 8m
