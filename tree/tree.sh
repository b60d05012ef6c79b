#!/bin/bash
# Make build/linux: Debian's linux-source-6.1 unpacked as a git repo whose first
# commit (tag "pristine") is the tarball as shipped, with patches/ applied on top
# as commits.
#   tree.sh create    unpack and apply (refuses if the tree exists)
#   tree.sh reapply   reset to pristine and apply patches/ again (refuses if the
#                     tree holds commits that patches/ lacks, unless FORCE=1)
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
tree=$top/build/linux
tarball=${LINUX_TARBALL:-/usr/src/linux-source-6.1.tar.xz}

# Fixed identity and dates make the pristine commit id the same on every machine.
export GIT_AUTHOR_NAME=pristine GIT_AUTHOR_EMAIL=pristine@localhost
export GIT_COMMITTER_NAME=pristine GIT_COMMITTER_EMAIL=pristine@localhost
export GIT_AUTHOR_DATE=2000-01-01T00:00:00Z GIT_COMMITTER_DATE=2000-01-01T00:00:00Z

unpack() {
	[ -r "$tarball" ] || { echo "tree: $tarball missing (make deps)" >&2; exit 1; }
	echo "tree: unpacking $tarball"
	rm -rf "$tree.tmp"
	mkdir -p "$tree.tmp"
	tar -xJf "$tarball" -C "$tree.tmp" --strip-components=1
	cd "$tree.tmp"
	git init -q
	git config gc.auto 0
	# Debian's top-level .gitignore ignores every top-level path; keep our
	# local copy without that block so new files can be added normally.
	git add -f -A
	git commit -q -m "linux-source-6.1 $(sed -n 's/^SUBLEVEL = //p' Makefile) as shipped by Debian"
	git tag pristine
	git update-index --skip-worktree .gitignore
	sed -i '/^# Debian packaging: ignore everything/,$d' .gitignore
	cd "$top"
	mv "$tree.tmp" "$tree"
}

apply() {
	local p n=0
	cd "$tree"
	unset GIT_AUTHOR_NAME GIT_AUTHOR_EMAIL GIT_AUTHOR_DATE GIT_COMMITTER_DATE
	while read -r p; do
		p=${p%%#*}
		[ -n "${p// /}" ] || continue
		git am -q --committer-date-is-author-date "$top/patches/$p" ||
			{ git am --abort; echo "tree: $p does not apply" >&2; exit 1; }
		n=$((n + 1))
	done < "$top/patches/series"
	echo "tree: applied $n patches"
}

case "${1:-create}" in
create)
	[ -d "$tree/.git" ] && { echo "tree: $tree exists (use 'make tree-reapply')"; exit 0; }
	unpack
	apply
	;;
reapply)
	[ -d "$tree/.git" ] || { unpack; apply; exit 0; }
	if [ "${FORCE:-0}" != 1 ] && ! "$top/tree/series.sh" --same; then
		echo "tree: $tree differs from patches/; export first or FORCE=1" >&2
		exit 1
	fi
	git -C "$tree" reset -q --hard pristine
	apply
	;;
*)
	echo "usage: $0 create|reapply" >&2
	exit 2
	;;
esac
