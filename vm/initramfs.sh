#!/bin/bash
# Build the guest's initramfs: static busybox, vm/initramfs-init as /init, and
# the modules of the booted kernel that reaching the host over 9p needs.
#   initramfs.sh KVER OUTPUT [MODULES]   (MODULES: where KVER's modules are,
#                                        default /lib/modules)
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
kver=$1 output=$2
moddir=${3:-/lib/modules}/$kver
# What /init loads, in this order after dependencies are resolved.
want="virtio_pci 9pnet_virtio 9p virtio_blk"

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work"/{bin,dev,proc,sys,newroot,lib/modules}
cp /bin/busybox "$work/bin/busybox"
ln -s busybox "$work/bin/sh"
mknod "$work/dev/console" c 5 1
cp "$top/vm/initramfs-init" "$work/init"
chmod +x "$work/init"

# Depth-first over modules.dep so every module follows what it needs.
declare -A seen=()
order=()
add() {
	local path=$1 dep
	[ -n "${seen[$path]:-}" ] && return
	seen[$path]=1
	for dep in $(sed -n "s|^$path: *||p" "$moddir/modules.dep"); do add "$dep"; done
	order+=("$path")
}
for m in $want; do
	path=$(grep -E "(^|/)$m\.ko(\.[a-z]+)?:" "$moddir/modules.dep" | cut -d: -f1 | head -1 || true)
	if [ -z "$path" ]; then
		grep -qE "/$m\.ko" "$moddir/modules.builtin" ||
			{ echo "initramfs: module $m not found for $kver" >&2; exit 1; }
		continue
	fi
	add "$path"
done
: > "$work/lib/modules/load-order"
for path in "${order[@]}"; do
	cp "$moddir/$path" "$work/lib/modules/"
	basename "$path" >> "$work/lib/modules/load-order"
done

mkdir -p "$(dirname "$output")"
# Into place in one step (a rename in the same directory): runs started side
# by side may build it at once.
tmp=$output.$$.tmp
trap 'rm -rf "$work" "$tmp"' EXIT
(cd "$work" && find . | cpio -o -H newc --quiet) | gzip -1 > "$tmp"
mv -f "$tmp" "$output"
