# Data-integrity exerciser: buffered, O_DIRECT and mmap I/O on the same files,
# with truncates; then the same with block-aligned ops.
run_integrity mixed 50000 -l 8m
run_integrity mixed 20000 -l 2m -B "$FS_BS"
