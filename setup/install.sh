#!/bin/bash
# Install the Debian packages in setup/packages.txt. Idempotent: does nothing
# (and needs no network) when everything is already installed.
set -euo pipefail
cd "$(dirname "$0")"

mapfile -t pkgs < <(sed -e 's/#.*//' -e '/^[[:space:]]*$/d' packages.txt)
missing=()
for p in "${pkgs[@]}"; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' ||
		missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0

if [ "$(id -u)" -ne 0 ]; then
	echo "setup: missing packages: ${missing[*]}" >&2
	echo "setup: run as root (or install them) to continue" >&2
	exit 1
fi
echo "setup: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
if ! apt-get update -q || ! apt-get install -y -q --no-install-recommends "${missing[@]}"; then
	echo "setup: apt-get failed; is the Debian mirror reachable?" >&2
	exit 1
fi
