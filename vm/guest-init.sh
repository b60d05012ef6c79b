#!/bin/bash
# PID 1 of the guest after switch_root: the host's root is "/" (read-only 9p).
# Give the guest writable scratch space, load the run's modules, run the job
# from the host's run directory (/mnt/out), record its exit code and the
# kernel's log, and power off. Never returns: PID 1 exiting panics the kernel.
# Power-off breaks the virtio devices, the 9p root with them: once the results
# are written, PID 1 runs only bash builtins (finish, which never returns, so
# bash reads no more of this script from the 9p root either).
export PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
export HOME=/root TERM=${TERM:-linux}

mount -t proc proc /proc
mount -t sysfs sys /sys
mount -t devtmpfs dev /dev
mkdir -p /dev/pts /dev/shm
mount -t devpts devpts /dev/pts
mount -t tmpfs tmpfs /dev/shm
ln -sf /proc/self/fd /dev/fd
ln -sf /proc/self/fd/0 /dev/stdin
ln -sf /proc/self/fd/1 /dev/stdout
ln -sf /proc/self/fd/2 /dev/stderr
# The project may live under a directory that gets a tmpfs (a clone in /tmp):
# keep a bind of it and put it back in place.
project=$(cd "$(dirname "$0")/.." && pwd)
mkdir /dev/.project
mount --bind "$project" /dev/.project
for d in /tmp /run /var/tmp /mnt /root; do mount -t tmpfs tmpfs "$d"; done
# What PID 1 waits on in the end: a fifo nobody writes, open on fd 9 (read
# and write, so a read neither sees end-of-file nor blocks the open).
mkfifo /run/.pid1-wait && exec 9<> /run/.pid1-wait
if [ ! -d "$project/vm" ]; then
	mkdir -p "$project"
	mount --move /dev/.project "$project"
fi
mount -t debugfs debugfs /sys/kernel/debug 2>/dev/null
# A kernel of our own (build/kernel.sh) brings its own modules for modprobe.
[ -z "${guestmods:-}" ] || mount --bind "$guestmods" /lib/modules
# kmemleak (debug kernel): what boot left behind is not the run's business.
kmemleak=/sys/kernel/debug/kmemleak
[ ! -w "$kmemleak" ] || { echo scan > "$kmemleak"; echo clear > "$kmemleak"; }
mkdir -p /mnt/out /mnt/scratch /mnt/aux
mount -t 9p -o trans=virtio,version=9p2000.L,msize=262144 out /mnt/out

out=/mnt/out
export RUN_DIR=$out
# The last steps: the results are on the host once rc is (9p without a cache
# writes through). Say so in the kernel log, which the host reads in the
# console in kernel order, then power off and wait in builtins forever: a
# program exec'd from the 9p root now may fail to load, and PID 1 must not exit.
finish() {
	echo "$1" > "$out/rc"
	echo 5 > /proc/sys/kernel/printk
	echo "<4>guest: results written, powering off" > /dev/kmsg
	echo o > /proc/sysrq-trigger
	while :; do read -r -t 60 -u 9 || :; done
}

# Kernel knobs: surface hangs sooner than the default two minutes.
sysctl -q kernel.hung_task_timeout_secs=90 kernel.panic_on_oops=0 kernel.printk="5 4 1 7"
hostname guest

rc=0
while read -r ko; do
	[ -n "$ko" ] || continue
	for dep in $(modinfo -F depends "$out/modules/$ko" | tr , ' '); do
		# the run's own modules are loaded earlier in load-order
		[ -d "/sys/module/$dep" ] || modprobe "$dep" || rc=1
	done
	insmod "$out/modules/$ko" || { echo "guest: insmod $ko failed"; rc=1; }
done < <(cat "$out/modules/load-order" 2>/dev/null)
if command -v dmsetup > /dev/null; then dmsetup mknodes 2>/dev/null; fi

if [ "$rc" -eq 0 ]; then
	cd "$out"
	: > "$out/job-started"
	bash "$out/job" < /dev/console > /dev/console 2>&1 9<&-
	rc=$?
	cd /
fi
sync
# The leaks of the whole run, into the kernel log ("N new suspected memory
# leaks") and, with their allocation stacks, into the run directory.
if [ -w "$kmemleak" ]; then
	echo scan > "$kmemleak"
	cat "$kmemleak" > "$out/kmemleak"
fi
dmesg > "$out/dmesg"
cat /proc/sys/kernel/tainted > "$out/tainted"
finish "$rc"
