# Data-integrity exerciser: O_DIRECT reads and writes mixed with buffered ones.
run_integrity dio 50000 -l 8m -A 4096
run_integrity dio 20000 -l 2m -A 512
