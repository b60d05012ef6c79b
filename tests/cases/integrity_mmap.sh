# Data-integrity exerciser: mmap reads and writes mixed with buffered ones.
run_integrity mmap 40000 -l 1m -o 64k
run_integrity mmap 5000 -l 6m
