# Guest job of "make run": make an ext2 filesystem, show that our module
# serves it, run a short workload and check the result.
set -e
echo "== the ext2 driver loaded in this guest"
modinfo -F filename "$RUN_DIR/modules/ext2.ko"
. "$PROJECT/tests/lib.sh"
echo "build ID of the loaded ext2: $(module_build_id ext2)"
echo "build ID of our ext2.ko:     $(module_build_id "$RUN_DIR/modules/ext2.ko")"
mkfs.ext2 -q -F -b 4096 /dev/vda 1G
refs=$(cat /sys/module/ext2/refcnt)
mount -t ext2 /dev/vda /mnt/scratch
echo "mounted: $(grep /mnt/scratch /proc/mounts)"
echo "module ext2 references: $refs -> $(cat /sys/module/ext2/refcnt) (our module holds the superblock)"
echo "== workload: 256 MiB sequential write, fsync, cold read, integrity exerciser"
cd /mnt/scratch
dd if=/dev/zero of=big bs=1M count=256 conv=fsync 2>&1 | tail -1
echo 3 > /proc/sys/vm/drop_caches
dd if=big of=/dev/null bs=1M 2>&1 | tail -1
"$PROJECT/build/out/tools/integrity" -q -S 1 -N 20000 -m mixed -l 4m f1 f2
df -h /mnt/scratch | tail -1
echo "== fs_buf, the metadata cache of this mount (bitmaps, inode table, indirect blocks)"
paste -sd' ' /sys/kernel/debug/fs_buf/vda/stats
cd /
umount /mnt/scratch
e2fsck -fn /dev/vda
