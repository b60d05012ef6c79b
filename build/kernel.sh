#!/bin/bash
# Build a kernel from build/linux, the patched tree (tier K): x86_64_defconfig
# and kvm_guest.config, then build/kernel-NAME.config on top. The object tree
# stays in build/out/kernel-NAME/obj, so a second run rebuilds only what
# changed. Result in build/out/kernel-NAME/:
#   bzImage       the kernel (vm/run.sh --kernel build/out/kernel-NAME)
#   release       its uname -r
#   lib/modules/  its own modules (the guest mounts them over /lib/modules)
#   modules/      ext2, fs_buf and fs_buf_test of this tree, with load-order
#   selftest/     the runner's misbehaving module, built for this kernel
#   kernel.sh NAME
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
name=${1:?usage: kernel.sh NAME}
tree=$top/build/linux
fragment=$top/build/kernel-$name.config
out=$top/build/out/kernel-$name
obj=$out/obj
[ -f "$fragment" ] || { echo "kernel: no $fragment" >&2; exit 2; }
[ -e "$tree/.git" ] || { echo "kernel: no tree at $tree (make tree)" >&2; exit 1; }
mkdir -p "$obj"
kmake() { make -s -C "$tree" O="$obj" -j"$(nproc)" "$@"; }

# The config is made again only when the fragment changed: olddefconfig on an
# unchanged .config would still touch it and rebuild more than needed.
stamp=$obj/.fragment
if ! cmp -s "$fragment" "$stamp"; then
	echo "kernel: configuring $name"
	kmake x86_64_defconfig > /dev/null
	"$tree/scripts/kconfig/merge_config.sh" -m -O "$obj" "$obj/.config" \
		"$tree/kernel/configs/kvm_guest.config" "$fragment" > "$obj/merge.log"
	kmake olddefconfig > /dev/null
	bad=0
	while IFS= read -r line; do
		sym=${line%%=*} val=${line#*=}
		if [ "$val" = n ]; then
			grep -q "^$sym=" "$obj/.config" || continue
		else
			grep -qxF "$line" "$obj/.config" && continue
		fi
		echo "kernel: $fragment: $line did not hold (.config has: $(grep "^$sym=\|^# $sym " "$obj/.config" || echo nothing))" >&2
		bad=1
	done < <(grep '^CONFIG_' "$fragment")
	[ "$bad" = 0 ] || exit 1
	cp "$fragment" "$stamp"
fi

echo "kernel: building $name (build/out/kernel-$name/obj)"
start=$SECONDS
kmake bzImage modules
release=$(kmake -s kernelrelease)
rm -rf "$out/lib"
kmake INSTALL_MOD_PATH="$out" INSTALL_MOD_STRIP=1 modules_install > /dev/null
cp "$obj/arch/x86/boot/bzImage" "$out/bzImage"
echo "$release" > "$out/release"

# The series' modules in load order, as build/modules.sh lays them out.
rm -rf "$out/modules" && mkdir -p "$out/modules"
: > "$out/modules/load-order"
while read -r mod dir _; do
	case "$mod" in '' | '#'*) continue ;; esac
	[ -f "$out/lib/modules/$release/kernel/$dir/$mod.ko" ] || continue
	# every module of the directory (self-tests too), the named one loaded
	cp "$out/lib/modules/$release/kernel/$dir"/*.ko "$out/modules/"
	echo "$mod.ko" >> "$out/modules/load-order"
done < "$top/build/modules.list"

rm -rf "$out/selftest" && mkdir -p "$out/selftest/src"
cp "$top/vm/selftest/misbehave.c" "$top/vm/selftest/Kbuild" "$out/selftest/src/"
make -s -C "$obj" M="$out/selftest/src" modules
cp "$out/selftest/src/misbehave.ko" "$out/selftest/" && : > "$out/selftest/load-order"
echo "kernel: $name $release built in $((SECONDS - start)) s"
