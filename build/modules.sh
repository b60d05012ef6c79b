#!/bin/bash
# Build the modules in build/modules.list from the kernel tree against Debian's
# installed headers (tier M). Sources are copied out first so the tree stays
# free of build products.
#   modules.sh [--rev REV] [--out DIR]
#     --rev REV   build the sources as of commit REV (e.g. "pristine": stock 6.1)
#                 instead of the working tree
#     --out DIR   where the .ko files go (default build/out/modules)
#     --tree DIR  the kernel tree (default build/linux)
#   SPARSE=1 in the environment runs sparse (C=2) over every file too.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
tree=$top/build/linux
rev=""
out=$top/build/out/modules
while [ $# -gt 0 ]; do
	case "$1" in
	--rev) rev=$2; shift 2 ;;
	--out) out=$(realpath -m "$2"); shift 2 ;;
	--tree) tree=$(realpath "$2"); shift 2 ;;
	*) echo "usage: $0 [--rev REV] [--out DIR] [--tree DIR]" >&2; exit 2 ;;
	esac
done
kver=${KVER:-$("$top/setup/kernel-version.sh")}
kdir=/lib/modules/$kver/build
[ -d "$kdir" ] || { echo "modules: no headers at $kdir (make deps)" >&2; exit 1; }
[ -e "$tree/.git" ] || { echo "modules: no tree at $tree (make tree)" >&2; exit 1; }

has_dir() { # DIR: the sources to build have it
	if [ -n "$rev" ]; then
		git -C "$tree" cat-file -e "$rev:$1" 2> /dev/null
	else
		[ -d "$tree/$1" ]
	fi
}

rm -rf "$out"
mkdir -p "$out/src"
: > "$out/load-order"
# Later modules link against the symbols of earlier ones.
symvers=""
while read -r name dir syms; do
	case "$name" in ''|'#'*) continue ;; esac
	# Patches before the one that adds a module's directory do not have it.
	if ! has_dir "$dir"; then
		echo "modules: no $dir in ${rev:-the working tree}, $name skipped"
		continue
	fi
	src=$out/src/$name
	mkdir -p "$src"
	if [ -n "$rev" ]; then
		git -C "$tree" archive "$rev" "$dir" | tar -x -C "$src" --strip-components=$(($(tr -cd / <<< "$dir" | wc -c) + 1))
	else
		cp -a "$tree/$dir/." "$src/"
	fi
	makevars=() cflags=""
	for s in $syms; do
		case "$s" in
		*=*) makevars+=("CONFIG_$s") ;;
		include/*)
			mkdir -p "$src/$(dirname "$s")"
			if [ -n "$rev" ]; then
				git -C "$tree" show "$rev:$s" > "$src/$s" 2> /dev/null || rm -f "$src/$s"
			else
				cp "$tree/$s" "$src/$s" 2> /dev/null || true
			fi
			cflags+=" -I$src/include"
			;;
		esac
		case "$s" in
		*=y) cflags+=" -DCONFIG_${s%=y}=1" ;;
		*=m) cflags+=" -DCONFIG_${s%=m}_MODULE=1" ;;
		esac
	done
	echo "modules: building $name from ${rev:-working tree}:$dir for $kver"
	make -s -C "$kdir" M="$src" ${SPARSE:+C=2} "${makevars[@]}" KCFLAGS="$cflags" \
		KBUILD_EXTRA_SYMBOLS="$symvers" modules 2>&1 | tee "$src/build.log"
	# modpost only warns of a symbol the running kernel does not export,
	# and the guest then refuses the module: make that a build failure.
	if grep -q "undefined!" "$src/build.log"; then
		echo "modules: $name uses symbols the kernel does not export" >&2
		exit 1
	fi
	# Every module of the directory is copied (self-tests too); the guest
	# loads only the one named like the entry.
	cp "$src"/*.ko "$out/"
	echo "$name.ko" >> "$out/load-order"
	symvers+=" $src/Module.symvers"
done < "$top/build/modules.list"
