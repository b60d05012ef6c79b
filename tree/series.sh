#!/bin/bash
# Export the commits of build/linux since "pristine" to patches/ (git
# format-patch, quilt-style "series" file, cover letter whose subject and blurb
# are kept from the previous export).
#   series.sh          export
#   series.sh --same   exit 0 if an export would change nothing in patches/
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
tree=$top/build/linux
out=$top/patches
# The revision of the series (the v in "[PATCH v2 ...]"); the cover letter
# lists what changed since the previous one.
version=2

[ -d "$tree/.git" ] || { echo "series: no tree at $tree (make tree)" >&2; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# Subject and blurb of the cover letter: from the last export, else a placeholder.
cover_subject() {
	sed -n 's/^Subject: \[PATCH[^]]*\] //p' "$out/0000-cover-letter.patch" 2>/dev/null |
		head -1 | grep . || echo "ext2, minix: data on iomap, metadata on fs_buf"
}
cover_blurb() {
	local b=""
	# Between the header's blank line and the shortlog's "Author (N):" line.
	[ -f "$out/0000-cover-letter.patch" ] &&
		b=$(awk 'body && /^[^ ].* \([0-9]+\):$/ { exit } body { print } /^$/ && !body { body = 1 }' \
			"$out/0000-cover-letter.patch")
	if [ -n "${b//[[:space:]]/}" ]; then printf '%s\n' "$b"; else echo "(describe the series here)"; fi
}

n=$(git -C "$tree" rev-list --count pristine..HEAD)
if [ "$n" -gt 0 ]; then
	git -C "$tree" format-patch -q --zero-commit --no-signature --cover-letter \
		--subject-prefix="PATCH v$version" -o "$tmp" pristine..HEAD
	subject=$(cover_subject)
	blurb=$(cover_blurb)
	awk -v subject="$subject" -v blurb="$blurb" '
		/^Subject: / { sub(/\*\*\* SUBJECT HERE \*\*\*/, subject) }
		/^\*\*\* BLURB HERE \*\*\*$/ { print blurb; next }
		{ print }' "$tmp/0000-cover-letter.patch" > "$tmp/cover" &&
		mv "$tmp/cover" "$tmp/0000-cover-letter.patch"
	# The cover letter's Date line changes on every export; pin it to the newest commit.
	date=$(git -C "$tree" log -1 --format=%aD HEAD)
	sed -i "0,/^Date: .*/s//Date: $date/" "$tmp/0000-cover-letter.patch"
fi
# Blank context lines become empty lines (git am reads them the same), so
# checkpatch run on the tracked .patch files, which it then takes for source
# files, does not flag each one as trailing whitespace.
for p in "$tmp"/[0-9]*.patch; do
	[ -e "$p" ] || continue
	awk '/^diff --git / { d = 1 } { print (d && $0 == " ") ? "" : $0 }' "$p" > "$p.new" && mv "$p.new" "$p"
done
(cd "$tmp" && ls -1 [0-9]*.patch 2>/dev/null | grep -v '^0000-cover-letter' || true) > "$tmp/series"

if [ "${1:-}" = --same ]; then
	diff -r -q -x '.*' "$tmp" "$out" > /dev/null
	exit
fi
mkdir -p "$out"
rm -f "$out"/*.patch
cp "$tmp"/*.patch "$out"/ 2>/dev/null || true
cp "$tmp/series" "$out/series"
echo "series: exported $n patches to patches/"
