# Data-integrity exerciser: O_DIRECT reads and writes mixed with buffered ones,
# at page and at sector alignment.
run_integrity dio 35000 -l 1m -o 64k -A 4096
run_integrity dio 7000 -l 1m -o 64k -A 512
run_integrity dio 5000 -l 6m
