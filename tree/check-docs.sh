#!/bin/bash
# The series adds no documentation warning: Documentation/filesystems built
# by sphinx (make htmldocs SPHINXDIRS=filesystems), and kernel-doc -none on
# every C file the series adds or changes, warn of nothing pristine does not.
#   check-docs.sh [TREE]    (default build/linux; a worktree of it works too)
# Pristine's warnings are kept in build/out/docs, keyed by its commit.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
tree=$(cd "${1:-$top/build/linux}" && pwd)
out=$top/build/out/docs
mkdir -p "$out"
# Debian's python3 runs sphinx; one from elsewhere on PATH (pyenv) lacks it
export PATH=/usr/bin:$PATH
command -v sphinx-build > /dev/null || { echo "check-docs: sphinx-build missing (make deps)"; exit 1; }

# Warnings as "file: message", without the tree's path or line numbers, which
# move when a patch changes a file above the warning.
normalize() { # TREE
	sed -n -e "s|$1/||g" -e 's/:[0-9]*: \(WARNING\|ERROR\|warning\|error\):/: \1:/p' | sort -u
}

htmldocs() { # TREE BUILDDIR
	rm -rf "$2"
	make -s -C "$1" O="$2" SPHINXDIRS=filesystems htmldocs 2>&1 | normalize "$1"
}

kerneldoc() { # TREE FILE...
	local t=$1
	shift
	[ $# -gt 0 ] || return 0
	(cd "$t" && scripts/kernel-doc -none "$@" 2>&1) | normalize "$t"
}

# The C files the series touches, as they are in TREE and in pristine.
mapfile -t files < <(git -C "$tree" diff --name-only --diff-filter=AM pristine HEAD -- '*.c' '*.h')
mapfile -t old < <(git -C "$tree" diff --name-only --diff-filter=M pristine HEAD -- '*.c' '*.h')

base=$out/pristine-$(git -C "$tree" rev-parse pristine).warnings
if [ ! -s "$base.done" ]; then
	echo "check-docs: building pristine's documentation once (a few minutes)"
	rm -rf "$out/pristine"
	git -C "$tree" worktree prune
	git -C "$tree" worktree add -q --detach "$out/pristine" pristine
	htmldocs "$out/pristine" "$out/pristine-html" > "$base"
	git -C "$tree" worktree remove --force "$out/pristine"
	rm -rf "$out/pristine-html"
	date > "$base.done"
fi
base_kd=$out/pristine-kerneldoc.warnings
(
	tmp=$(mktemp -d)
	trap 'rm -rf "$tmp"' EXIT
	for f in "${old[@]}"; do
		mkdir -p "$tmp/$(dirname "$f")"
		git -C "$tree" show "pristine:$f" > "$tmp/$f"
	done
	mkdir -p "$tmp/scripts" && cp "$tree/scripts/kernel-doc" "$tmp/scripts/"
	kerneldoc "$tmp" "${old[@]}"
) > "$base_kd"

new=$out/series.warnings
{
	htmldocs "$tree" "$out/html"
	kerneldoc "$tree" "${files[@]}"
} | sort -u > "$new"
added=$(sort -u "$base" "$base_kd" | comm -13 - "$new")
if [ -n "$added" ]; then
	printf '%s\n' "$added"
	echo "check-docs: the series adds the documentation warnings above"
	exit 1
fi
echo "check-docs: Documentation/filesystems and kernel-doc of ${#files[@]} files: no new warning (pages in $out/html/Documentation/output/filesystems)"
