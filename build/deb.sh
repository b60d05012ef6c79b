#!/bin/bash
# Build ext2-fsbuf-dkms, a Debian package of the series' modules (fs_buf,
# ext2, minix) as DKMS source: installed with "apt install ./FILE.deb", it
# builds them for the running kernel (and each later one) from
# /usr/src/ext2-fsbuf-VERSION. The sources are the patched tree's, as
# build/modules.sh takes them (build/modules.list), without the self-tests.
#   deb.sh [--out DIR]     (default build/out/deb; prints the .deb's path)
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
tree=$top/build/linux
out=$top/build/out/deb
[ "${1:-}" != --out ] || out=$(realpath -m "$2")
[ -e "$tree/.git" ] || { echo "deb: no tree at $tree (make tree)" >&2; exit 1; }

name=ext2-fsbuf pkg=ext2-fsbuf-dkms
# the kernel the series is against, and the series: 6.1.192+fsbuf.v2.48
base=$(make -s -C "$tree" kernelversion)
npatches=$(git -C "$tree" rev-list --count pristine..HEAD)
version=$base+fsbuf.v2.$npatches
root=$out/$pkg
src=$root/usr/src/$name-$version
rm -rf "$out"
mkdir -p "$src/include" "$root/DEBIAN" "$root/usr/share/doc/$pkg" "$root/etc/modprobe.d"

# One make per module, in load order: later ones link against the symbols of
# earlier ones. Debian's kernel config lacks the series' symbols, so they
# are passed on the make line and as -D flags, as build/modules.sh does.
make_lines="" clean_dirs="" n=0 dkms_mods="" symvers=""
while read -r mod dir syms; do
	case "$mod" in ''|'#'*) continue ;; esac
	[ -d "$tree/$dir" ] || continue
	mkdir -p "$src/$mod"
	cp -a "$tree/$dir/." "$src/$mod/"
	rm -f "$src/$mod"/*_test.c
	vars="" cflags='-I$(CURDIR)/include'
	for s in $syms; do
		case "$s" in
		*_TEST=*) continue ;;
		include/*)
			[ ! -f "$tree/$s" ] || install -D -m 0644 "$tree/$s" "$src/$s"
			continue ;;
		*=y) cflags+=" -DCONFIG_${s%=y}=1" ;;
		*=m) cflags+=" -DCONFIG_${s%=m}_MODULE=1" ;;
		esac
		vars+=" CONFIG_$s"
	done
	make_lines+=$'\t'"\$(MAKE) -C \$(KDIR) M=\$(CURDIR)/$mod$vars KCFLAGS=\"$cflags\""
	make_lines+=" KBUILD_EXTRA_SYMBOLS=\"$symvers\" modules"$'\n'
	symvers+="${symvers:+ }\$(CURDIR)/$mod/Module.symvers"
	clean_dirs+=" $mod"
	dkms_mods+="BUILT_MODULE_NAME[$n]=\"$mod\""$'\n'
	dkms_mods+="BUILT_MODULE_LOCATION[$n]=\"$mod/\""$'\n'
	dkms_mods+="DEST_MODULE_LOCATION[$n]=\"/updates/dkms\""$'\n'
	n=$((n + 1))
done < "$top/build/modules.list"

cat > "$src/Makefile" <<EOF
# Builds the modules of $pkg against a kernel's headers (DKMS passes KVER).
KVER ?= \$(shell uname -r)
KDIR ?= /lib/modules/\$(KVER)/build

all:
$make_lines
clean:
	for d in$clean_dirs; do \$(MAKE) -C \$(KDIR) M=\$(CURDIR)/\$\$d clean; done
EOF

cat > "$src/dkms.conf" <<EOF
PACKAGE_NAME="$name"
PACKAGE_VERSION="$version"
MAKE[0]="make KVER=\${kernelver} KDIR=\${kernel_source_dir}"
CLEAN="make clean"
${dkms_mods}AUTOINSTALL="yes"
EOF

# The kernel's own minix.ko, like ours, has no MODULE_VERSION: DKMS would
# not replace it ("exactly matches"). This is Debian's DKMS's way to say
# that our modules replace the kernel's whatever their versions.
mkdir -p "$root/usr/share/dkms/modules_to_force_install"
echo "${name}_version-override" > "$root/usr/share/dkms/modules_to_force_install/$name"

# ext4 registers "ext2" too on Debian: ours goes by another name.
cat > "$root/etc/modprobe.d/$pkg.conf" <<EOF
# Debian's ext4 registers the "ext2" filesystem type as well, so this ext2
# driver registers as "ext2fsbuf": mount -t ext2fsbuf DEVICE DIR.
options ext2 fstype=ext2fsbuf
EOF

cat > "$root/usr/share/doc/$pkg/README.Debian" <<EOF
$pkg $version
$(printf '%*s' $((${#pkg} + ${#version} + 1)) '' | tr ' ' '=')

ext2 and minix drivers whose file data goes through iomap and whose
metadata lives in fs_buf, a metadata cache with memory of its own: no
buffer heads. DKMS builds the modules fs_buf, ext2 and minix from
/usr/src/$name-$version for each kernel whose headers are installed
(linux-headers-amd64 follows Debian's kernel), into
/lib/modules/KERNEL/updates/dkms, where they take precedence over the
kernel's own minix module.

Using them:

  # ext4 serves "ext2" on Debian; this driver registers as "ext2fsbuf"
  # (/etc/modprobe.d/$pkg.conf)
  modprobe ext2
  mount -t ext2fsbuf /dev/sdXN /mnt

  # minix: unload the kernel's driver first if it is loaded
  modprobe -r minix; modprobe minix
  mount -t minix /dev/sdXN /mnt

  dkms status            # what was built, for which kernels

In /etc/fstab, give the type as ext2fsbuf. Module parameters and what
changed against the stock drivers are in the kernel's
Documentation/filesystems/ext2.rst and fs_buf.rst as patched by the
series. Removing the package removes the modules.
EOF

cat > "$root/usr/share/doc/$pkg/copyright" <<EOF
Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/
Upstream-Name: $name
Comment: Linux kernel sources (fs/ext2, fs/minix) as changed by the
 ext2/minix iomap and fs_buf patch series, and fs/fs_buf which it adds.

Files: *
License: GPL-2.0-only
 On Debian systems, the full text is in /usr/share/common-licenses/GPL-2.
EOF

cat > "$root/DEBIAN/control" <<EOF
Package: $pkg
Version: $version
Architecture: all
Maintainer: Seed 9a8856af maintainers <maintainers@users.noreply.a-seed-9a8856af.example>
Depends: dkms (>= 3.0), make, gcc
Recommends: linux-headers-amd64
Section: kernel
Priority: optional
Installed-Size: $(du -sk "$root/usr" | cut -f1)
Description: ext2 and minix without buffer heads (DKMS source)
 The ext2 and minix filesystem drivers with file data on iomap and all
 metadata in fs_buf, a metadata block cache with memory of its own, as
 DKMS source built for each installed kernel. Debian's ext4 registers
 "ext2" too, so this ext2 driver registers as "ext2fsbuf".
EOF
echo "/etc/modprobe.d/$pkg.conf" > "$root/DEBIAN/conffiles"

# Debian's own DKMS helper: add, then build and install for the running
# kernel and the newest one with headers.
cat > "$root/DEBIAN/postinst" <<EOF
#!/bin/sh
set -e
if [ "\$1" = configure ]; then
	/usr/lib/dkms/common.postinst $name $version "" "" "\$2"
	echo "$pkg: modprobe ext2, then mount -t ext2fsbuf (see /usr/share/doc/$pkg/README.Debian)"
fi
EOF
cat > "$root/DEBIAN/prerm" <<EOF
#!/bin/sh
set -e
if [ "\$1" = remove ] || [ "\$1" = upgrade ] || [ "\$1" = deconfigure ]; then
	dkms remove -m $name -v $version --all || true
fi
EOF
chmod 0755 "$root/DEBIAN/postinst" "$root/DEBIAN/prerm"
find "$root" -type d -exec chmod 0755 {} +
find "$root/usr" "$root/etc" -type f -exec chmod 0644 {} +
deb=$out/${pkg}_${version}_all.deb
dpkg-deb --root-owner-group -Zxz --build "$root" "$deb" > /dev/null
echo "$deb"
