#!/bin/bash
# Check patches/ as a submission: it applies in order to the pristine tree,
# every patch passes checkpatch --strict, the modules of the whole series build
# with no compiler or sparse warning, and (with --build-each) so do those after
# every patch; the documentation builds with no new warning (check-docs.sh).
#   check-series.sh [--build-each]
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
tree=$top/build/linux
[ -d "$tree/.git" ] || "$top/tree/tree.sh" create
work=$top/build/out/check-series
rm -rf "$work"
git -C "$tree" worktree prune
trap 'git -C "$tree" worktree remove --force "$work" 2> /dev/null || true' EXIT
git -C "$tree" worktree add -q --detach "$work" pristine

# build_clean WHEN: the modules of the worktree build, with sparse (C=2) over
# every file, and neither the compiler nor sparse warns.
build_clean() {
	local out
	if ! out=$(SPARSE=1 "$top/build/modules.sh" --tree "$work" \
			--out "$top/build/out/check-series-modules" 2>&1); then
		printf '%s\n' "$out" | tail -20
		echo "check-series: modules do not build $1"
		return 1
	fi
	if grep -E ': (warning|error):' <<< "$out"; then
		echo "check-series: compiler or sparse warnings $1"
		return 1
	fi
}

bad=0 n=0
while read -r p; do
	p=${p%%#*}
	[ -n "${p// /}" ] || continue
	n=$((n + 1))
	if ! git -C "$work" am -q "$top/patches/$p"; then
		echo "check-series: $p does not apply"
		exit 1
	fi
	# Debian's python3 first: its SPDX check needs python3-ply, which a
	# python3 from elsewhere on PATH (pyenv, venv) may lack.
	# checkpatch asks about MAINTAINERS whenever a file is added; ask
	# get_maintainer.pl instead whether someone covers each new file.
	if ! (cd "$work" && PATH=/usr/bin:$PATH scripts/checkpatch.pl --strict --quiet --no-summary \
			--ignore FILE_PATH_CHANGES "$top/patches/$p"); then
		echo "check-series: checkpatch --strict complains about $p"
		bad=1
	fi
	for f in $(git -C "$work" diff --name-only --diff-filter=A HEAD~1 HEAD); do
		if ! (cd "$work" && scripts/get_maintainer.pl --no-git --no-git-fallback -f "$f" |
				grep -q -e '(maintainer' -e '(supporter' -e '(odd fixer'); then
			echo "check-series: $p adds $f, which no MAINTAINERS entry covers"
			bad=1
		fi
	done
	if [ "${1:-}" = --build-each ]; then
		build_clean "after $p" || bad=1
	fi
done < "$top/patches/series"
[ "${1:-}" = --build-each ] || build_clean "with the whole series" || bad=1
"$top/tree/check-docs.sh" "$work" || bad=1
echo "check-series: $n patches apply to pristine; $([ "$bad" = 0 ] && echo all clean || echo problems above)"
exit "$bad"
