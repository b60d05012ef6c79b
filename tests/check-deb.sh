#!/bin/bash
# Host side of "make check-deb": build the Debian package (build/deb.sh) and
# try it in a guest on Debian's kernel (tests/deb-job.sh): install, DKMS
# build, load, mount, remove. The last line is "N passed, N failed".
set -uo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
if ! deb=$("$top/build/deb.sh"); then
	echo "FAIL deb: build/deb.sh"
	echo "0 passed, 1 failed"
	exit 1
fi
echo "== $deb"
log=$top/build/out/deb.log
"$top/vm/run.sh" --name deb --modules none --disk 1G --timeout 3600 \
	"$top/tests/deb-job.sh" "$deb" 2>&1 | tee "$log" | grep --line-buffered -v '^\[ *[0-9.]*\] '
vm=${PIPESTATUS[0]}
passed=$(grep -c '^ok ' "$log") failed=$(grep -c '^FAIL ' "$log")
if [ "$vm" = 0 ]; then
	echo "ok   deb VM: clean kernel, job finished in time"
	passed=$((passed + 1))
else
	echo "FAIL deb VM: $(paste -sd';' "$top/build/out/vm/deb/verdict" 2> /dev/null)"
	failed=$((failed + 1))
fi
echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
