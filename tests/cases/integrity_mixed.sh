# Data-integrity exerciser: buffered, O_DIRECT and mmap I/O on the same files,
# with truncates; byte-granular, then block-aligned, then larger files.
run_integrity mixed 10000 -l 1m -o 64k
run_integrity mixed 3500 -l 1m -o 64k -B "$FS_BS"
run_integrity mixed 2500 -l 6m
