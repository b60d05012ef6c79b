# Data-integrity exerciser on minix, every mix (buffered, O_DIRECT at page
# and at sector alignment, mmap, all of them mixed) on small files, then on
# files that reach the double indirect blocks. Fewer operations than ext2's
# integrity_* cases, which run at three block sizes where minix has one:
# check-full (SCALE) runs many more.
# fs: minix
run_integrity buffered 3000 -l 1m -o 64k
run_integrity dio 2000 -l 1m -o 64k -A 4096
run_integrity dio 1000 -l 1m -o 64k -A 512
run_integrity mmap 3000 -l 1m -o 64k
run_integrity mixed 3000 -l 1m -o 64k
run_integrity mixed 1000 -l 1m -o 64k -B 1024
run_integrity mixed 500 -l 6m
