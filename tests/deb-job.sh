# Guest job of "make check-deb": what a Debian user does with the package,
# on a throwaway overlay of the root (the host's, read-only): apt install
# ./FILE.deb, DKMS builds the modules for the running kernel (Debian's), they
# load where ext4 already owns "ext2", ext2 and minix mount with them and
# check clean; apt remove takes the modules away again.
#   deb-job.sh DEB
set -uo pipefail
deb=$1 root=/tmp/root passed=0 failed=0
kver=$(uname -r)
ok() { echo "ok   deb: $*"; passed=$((passed + 1)); }
bad() { echo "FAIL deb: $*"; failed=$((failed + 1)); }
# in_root CMD...: CMD in the overlay, with a clean environment
in_root() {
	chroot "$root" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root \
		DEBIAN_FRONTEND=noninteractive LC_ALL=C "$@"
}
finish() {
	[ "$failed" = 0 ] && [ "$passed" -gt 0 ] || exit 1
	exit 0
}

mkdir -p /tmp/upper /tmp/work "$root"
mount -t overlay overlay -o lowerdir=/,upperdir=/tmp/upper,workdir=/tmp/work "$root" ||
	{ bad "overlay of the root"; finish; }
for d in proc sys dev dev/pts run tmp; do mount --bind "/$d" "$root/$d"; done
# only Debian's modules, not the host's build tree or anything loaded yet
[ ! -d /sys/module/ext2 ] || { bad "an ext2 module is loaded before the install"; finish; }
[ ! -e "$root/lib/modules/$kver/updates/dkms/ext2.ko" ] || bad "ext2.ko is already installed"

if in_root apt-get install -y --no-install-recommends "$deb" > /tmp/apt.log 2>&1; then
	ok "apt install $(basename "$deb")"
else
	cat /tmp/apt.log
	bad "apt install failed"
	finish
fi
grep -E "^(Building|Installing|DKMS|Error)|dkms" /tmp/apt.log | head -20
for m in fs_buf ext2 minix; do
	f=$root/lib/modules/$kver/updates/dkms/$m.ko
	if [ -f "$f" ] || [ -f "$f.xz" ]; then
		ok "DKMS built and installed $m for $kver"
	else
		bad "no $m.ko under updates/dkms for $kver"
	fi
done

# Debian's ext4 registers "ext2" too; ours goes by the package's name for it.
in_root modprobe ext4
grep -qw ext2 /proc/filesystems || bad "ext4 did not register ext2"
if in_root modprobe ext2 && grep -qw ext2fsbuf /proc/filesystems; then
	ok "modprobe ext2 registers ext2fsbuf beside ext4's ext2"
else
	bad "modprobe ext2 (fstype=ext2fsbuf from /etc/modprobe.d)"
fi
# dkms_loaded MODULE: the module loaded is the one DKMS built
dkms_loaded() {
	local want got have
	want=$(in_root modinfo -n "$1")
	got=$(tail -c 20 "/sys/module/$1/notes/.note.gnu.build-id" 2> /dev/null | od -An -tx1 | tr -d ' \n')
	have=$(readelf -n "$root$want" 2> /dev/null | awk '/Build ID/ { print $3 }')
	case "$want" in
	*/updates/dkms/*) [ -n "$got" ] && [ "$got" = "$have" ] && ok "$1 loaded from $want" ||
		bad "$1: loaded build id '$got', $want has '$have'" ;;
	*) bad "modinfo -n $1: $want, not DKMS's" ;;
	esac
}
dkms_loaded fs_buf
dkms_loaded ext2

# mount_check TYPE MODULE MKFS CHECK...: make a filesystem on /dev/vda, mount
# it with TYPE (served by MODULE: its use count goes up), write and read
# back, unmount, and CHECK must pass.
mount_check() {
	local type=$1 mod=$2 mkfs=$3 refs
	shift 3
	$mkfs /dev/vda > /dev/null 2>&1 || { bad "$mkfs"; return; }
	refs=$(cat "/sys/module/$mod/refcnt")
	if ! mount -t "$type" /dev/vda /mnt/scratch; then
		bad "mount -t $type"
		return
	fi
	[ "$(cat "/sys/module/$mod/refcnt")" -gt "$refs" ] || bad "$type is not served by module $mod"
	mkdir /mnt/scratch/d && seq 100000 > /mnt/scratch/d/f && ln -s d/f /mnt/scratch/l
	sync
	echo 3 > /proc/sys/vm/drop_caches
	[ "$(md5sum < /mnt/scratch/l)" = "$(seq 100000 | md5sum)" ] || bad "$type: data does not read back"
	umount /mnt/scratch || { bad "umount $type"; return; }
	if "$@" /dev/vda > /tmp/fsck.log 2>&1; then
		ok "mount -t $type, write, read, umount, $1 clean"
	else
		cat /tmp/fsck.log
		bad "$1 after $type"
	fi
}
mount_check ext2fsbuf ext2 "mkfs.ext2 -q -F" e2fsck -fn
# Debian's own minix.ko is there too; DKMS's in updates/ comes first.
in_root modprobe minix || bad "modprobe minix"
dkms_loaded minix
mount_check minix minix "mkfs.minix -3" fsck.minix -f

for m in minix ext2 ext4 fs_buf; do rmmod "$m" 2> /dev/null; done
if in_root apt-get remove -y ext2-fsbuf-dkms > /tmp/apt.log 2>&1 &&
	[ ! -e "$root/lib/modules/$kver/updates/dkms/ext2.ko" ] &&
	[ -z "$(in_root dkms status 2> /dev/null)" ]; then
	ok "apt remove takes the modules away"
else
	cat /tmp/apt.log
	bad "apt remove left modules behind: $(in_root dkms status 2>&1)"
fi
echo "$passed passed, $failed failed"
finish
