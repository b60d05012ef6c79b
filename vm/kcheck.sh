# Kernel health checks shared by the host runner and the guest test runner.
# Source it; both functions print what they found and return 1 on trouble.

# Lines a healthy kernel never prints.
kcheck_patterns='Oops|BUG:|WARNING:|Kernel panic|kernel BUG at|general protection fault|'\
'possible circular locking|possible recursive locking|inconsistent lock state|'\
'INFO: task .* blocked for more than|soft lockup|hard LOCKUP|rcu.*detected stall|'\
'KASAN:|UBSAN:|list_add corruption|list_del corruption|Unable to handle kernel|'\
'stack-protector|double fault|segfault at .* in (ext2|fs_buf|minix)|'\
'kmemleak: [0-9]+ new suspected memory leak'

# kcheck_log FILE: scan a kernel log for the patterns above.
kcheck_log() {
	local hits
	hits=$(grep -aE "$kcheck_patterns" "$1" | head -20)
	[ -z "$hits" ] && return 0
	printf 'kernel log: %s\n' "$hits"
	return 1
}

# kcheck_context FILE: the first bad line of a kernel log and what follows it
# (the call trace), so a failed run can be diagnosed from its output alone.
kcheck_context() {
	local n
	n=$(grep -naE -m1 "$kcheck_patterns" "$1" | cut -d: -f1)
	[ -n "$n" ] && sed -n "$n,$((n + 60))p" "$1"
}

# Taint bits that loading our own unsigned out-of-tree modules sets (O, E).
kcheck_taint_allowed=$(((1 << 12) | (1 << 13)))

# kcheck_taint VALUE: VALUE is /proc/sys/kernel/tainted.
kcheck_taint() {
	local bad=$(($1 & ~kcheck_taint_allowed))
	[ "$bad" -eq 0 ] && return 0
	echo "kernel tainted: $1 (unexpected bits $bad)"
	return 1
}
