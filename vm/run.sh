#!/bin/bash
# Boot a kernel in QEMU with a set of modules, run one job script in the guest
# and judge the run: the job's exit code, the time limit and the kernel's log.
#   run.sh [options] JOB [ARGS...]
#     --name NAME       run directory build/out/vm/NAME (default "run")
#     --kernel FILE     kernel image (default Debian's /boot/vmlinuz-KVER), or a
#                       directory from build/kernel.sh (its bzImage, and its own
#                       modules as the guest's /lib/modules)
#     --modules DIR     modules to load, with DIR/load-order (default build/out/modules;
#                       "none" loads nothing)
#     --timeout SEC     wall-clock limit for the whole VM (default 1800)
#     --mem MB          guest memory (default 2048)
#     --disk SIZE       size of each scratch disk, /dev/vda and /dev/vdb (default 8G, sparse)
#     --disk-dir DIR    keep the disk images in DIR, e.g. host tmpfs (default: the run directory)
#     --env VAR=VALUE   set VAR for the job (repeatable)
#     --interactive     console on this terminal, job may read it
# Environment: VM_ACCEL=kvm tries KVM and falls back to TCG (default: TCG only,
# since nested KVM hangs in early boot on the machines we run on).
# Exit code 0 only when the job exited 0, in time, and the kernel stayed clean.
set -uo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
. "$top/vm/kcheck.sh"

envs=()
name=run kernel="" modules=$top/build/out/modules timeout=1800 mem=2048 disk=8G disk_dir="" interactive=0
while [ $# -gt 0 ]; do
	case "$1" in
	--name) name=$2; shift 2 ;;
	--kernel) kernel=$2; shift 2 ;;
	--modules) modules=$2; shift 2 ;;
	--timeout) timeout=$2; shift 2 ;;
	--mem) mem=$2; shift 2 ;;
	--disk) disk=$2; shift 2 ;;
	--disk-dir) disk_dir=$2; shift 2 ;;
	--env) envs+=("$2"); shift 2 ;;
	--interactive) interactive=1; shift ;;
	--) shift; break ;;
	-*) sed -n '2,/^set /p' "$0" | sed '$d' >&2; exit 2 ;;
	*) break ;;
	esac
done
[ $# -ge 1 ] || { echo "usage: $0 [options] JOB [ARGS...]" >&2; exit 2; }
job=$(realpath "$1")
shift

guestmods=""
if [ -d "$kernel" ]; then
	kdir=$(realpath "$kernel")
	kver=$(cat "$kdir/release") || exit 1
	kernel=$kdir/bzImage guestmods=$kdir/lib/modules
else
	kver=$("$top/setup/kernel-version.sh") || exit 1
	kernel=${kernel:-/boot/vmlinuz-$kver}
fi
initrd=$top/build/out/initramfs-$kver.cpio.gz
if [ ! -f "$initrd" ] || [ "$initrd" -ot "$top/vm/initramfs-init" ] || [ "$initrd" -ot "$top/vm/initramfs.sh" ]; then
	"$top/vm/initramfs.sh" "$kver" "$initrd" "${guestmods:-/lib/modules}" || exit 1
fi

run=$top/build/out/vm/$name
rm -rf "$run"
mkdir -p "$run/modules"
if [ "$modules" != none ]; then
	cp "$modules"/*.ko "$modules/load-order" "$run/modules/" || exit 1
fi
{
	printf 'export PROJECT=%q\n' "$top"
	for e in "${envs[@]}"; do printf 'export %s=%q\n' "${e%%=*}" "${e#*=}"; done
	printf 'set --'
	[ $# -eq 0 ] || printf ' %q' "$@"
	printf '\n. ./job.sh\n'
} > "$run/job"
cp "$job" "$run/job.sh"
disk_dir=${disk_dir:-$run}
mkdir -p "$disk_dir"
for d in vda vdb; do rm -f "$disk_dir/$d.img"; truncate -s "$disk" "$disk_dir/$d.img"; done

accel=(-accel tcg,thread=multi)
[ "${VM_ACCEL:-tcg}" = kvm ] && [ -w /dev/kvm ] && accel=(-accel kvm -accel tcg,thread=multi)
# A soft lockup prints every CPU's stack, so the log shows what the others held.
qemu=(qemu-system-x86_64 "${accel[@]}" -M q35 -cpu max -smp 2 -m "$mem"
	-kernel "$kernel" -initrd "$initrd"
	-append "console=ttyS0 loglevel=5 log_buf_len=16M panic=-1 softlockup_all_cpu_backtrace=1 guestinit=$top/vm/guest-init.sh${guestmods:+ guestmods=$guestmods}"
	-fsdev "local,id=hostroot,path=/,security_model=none,readonly=on,multidevs=remap"
	-device virtio-9p-pci,fsdev=hostroot,mount_tag=hostroot
	-fsdev "local,id=out,path=$run,security_model=none,multidevs=remap"
	-device virtio-9p-pci,fsdev=out,mount_tag=out
	-drive "file=$disk_dir/vda.img,format=raw,if=virtio,cache=unsafe"
	-drive "file=$disk_dir/vdb.img,format=raw,if=virtio,cache=unsafe"
	-display none -monitor none -no-reboot -nodefaults)

start=$SECONDS timed_out=0
if [ "$interactive" = 1 ]; then
	"${qemu[@]}" -serial stdio
else
	# QEMU itself can die on an assertion under TCG (seen once at boot, in
	# msix_table_mmio_write): boot once more if it did before the job began.
	for try in 1 2; do
		timeout -k 10 "$timeout" "${qemu[@]}" -serial stdio < /dev/null 2>&1 | tee "$run/console.log"
		status=${PIPESTATUS[0]}
		[ "$status" -eq 124 ] && timed_out=1
		[ "$try" = 1 ] && [ "$status" -eq 134 ] && [ ! -e "$run/job-started" ] || break
		echo "vm: $name: qemu aborted before the job began; booting again" >&2
		cp "$run/console.log" "$run/console-aborted.log"
	done
fi
echo "vm: $name ran $((SECONDS - start))s" >&2

# The verdict: every reason the run failed, one per line; none means it passed.
# The results are complete once rc holds the job's exit code: the guest writes
# it after dmesg and tainted, then puts "guest: results written, powering off"
# in the kernel log (so the console has it in kernel order) and powers off.
# What the console shows after that line (power-off tearing down the 9p
# transports, a power-off that hangs) is not the run's business.
rc=$(cat "$run/rc" 2> /dev/null) off=""
if [[ $rc =~ ^[0-9]+$ ]]; then
	off=$(grep -anEm1 '\[ *[0-9]+\.[0-9]+\] guest: results written, powering off' "$run/console.log" 2> /dev/null | cut -d: -f1)
	[ "$rc" = 0 ] || echo "vm: job exited $rc" >> "$run/verdict"
else
	echo "vm: the guest did not finish its job" >> "$run/verdict"
fi
if [ "$timed_out" = 1 ]; then
	if [ -n "$off" ]; then
		echo "vm: $name: the guest finished, then power-off took past the ${timeout}s limit" >&2
	else
		echo "vm: timed out after ${timeout}s" >> "$run/verdict"
	fi
fi
# The guest's dmesg is the whole kernel log; the console (which also carries
# the job's own output) stands in when the guest died before saving it, up
# to the power-off line when there is one.
log=$run/dmesg
if [ ! -f "$log" ]; then
	log=$run/console.log
	if [ -n "$off" ]; then
		head -n "$off" "$log" > "$run/console-to-poweroff.log"
		log=$run/console-to-poweroff.log
	fi
fi
[ -f "$log" ] && { kcheck_log "$log" >> "$run/verdict" || true; }
[ -f "$run/tainted" ] && { kcheck_taint "$(cat "$run/tainted")" >> "$run/verdict" || true; }
if [ -s "$run/verdict" ]; then
	sed 's/^/vm: FAIL: /' "$run/verdict" >&2
	[ -f "$log" ] && kcheck_context "$log" | sed 's/^/vm: klog: /' >&2
	exit 1
fi
exit 0
