# Data-integrity exerciser: mmap reads and writes mixed with buffered ones.
run_integrity mmap 12000 -l 1m -o 64k
run_integrity mmap 2500 -l 6m
