# Data-integrity exerciser: O_DIRECT reads and writes mixed with buffered ones,
# at page and at sector alignment.
run_integrity dio 17500 -l 1m -o 64k -A 4096
run_integrity dio 3500 -l 1m -o 64k -A 512
run_integrity dio 2500 -l 6m
