# Data-integrity exerciser: mmap reads and writes mixed with buffered ones.
run_integrity mmap 50000 -l 8m
