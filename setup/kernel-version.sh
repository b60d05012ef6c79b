#!/bin/bash
# Print the version of Debian's kernel that tier M targets: the one
# linux-image-amd64 depends on (KVER overrides).
set -euo pipefail
if [ -n "${KVER:-}" ]; then echo "$KVER"; exit 0; fi
v=$(dpkg-query -W -f='${Depends}' linux-image-amd64 2>/dev/null |
	grep -o 'linux-image-[0-9][^ ,]*-amd64' | head -1 | sed 's/^linux-image-//')
[ -n "$v" ] || { echo "kernel-version: linux-image-amd64 not installed (make deps)" >&2; exit 1; }
echo "$v"
