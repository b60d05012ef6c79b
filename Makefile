# ext2/minix on iomap and fs_buf: the workbench. See README.md.
# Flow: setup -> tree -> build -> vm -> tests -> bench.

OUT      := build/out
KVER      = $(shell setup/kernel-version.sh)
KDIR      = /lib/modules/$(KVER)/build

.PHONY: all deps tree tree-reapply series check-series check-docs modules tools selftest-module \
	kernel-debug run shell check check-full check-debug deb check-deb reliability bench bench-quick bench-minix clean distclean

all: modules tools

deps:
	@setup/install.sh

# The kernel tree, build/linux: pristine Debian source + patches/ as commits.
tree: deps
	@tree/tree.sh create

tree-reapply: deps
	@tree/tree.sh reapply

# Export build/linux's commits back to patches/.
series:
	@tree/series.sh

# The series applies to a fresh pristine tree, and checkpatch --strict is clean.
check-series: deps
	@tree/check-series.sh

check-docs: tree
	@tree/check-docs.sh

modules: tree
	@build/modules.sh

tools: deps
	@$(MAKE) -s -C tools O=$(CURDIR)/$(OUT)/tools

selftest-module: deps
	@rm -rf $(OUT)/selftest && mkdir -p $(OUT)/selftest/src
	@cp vm/selftest/misbehave.c vm/selftest/Kbuild $(OUT)/selftest/src/
	@$(MAKE) -s -C $(KDIR) M=$(CURDIR)/$(OUT)/selftest/src modules
	@cp $(OUT)/selftest/src/misbehave.ko $(OUT)/selftest/ && : > $(OUT)/selftest/load-order

# Tier K: a kernel from the patched tree with lockdep, KASAN, KFENCE, UBSAN,
# kmemleak and fault injection (build/kernel-debug.config), ext2 and fs_buf
# as its modules. Incremental after the first build.
kernel-debug: tree
	@build/kernel.sh debug

# Boot QEMU with our modules and show them at work.
run: modules tools
	@vm/run.sh --name demo --timeout 600 vm/demo.sh

# An interactive shell in the guest with our modules loaded.
shell: modules tools
	@vm/run.sh --name shell --interactive vm/shell.sh

# The suite, in two VMs side by side (one per CPU under TCG). T="case ..."
# runs only those cases; BLOCK_SIZES="4096" limits sizes; SHARDS=1 one VM.
check: modules tools selftest-module
	@SHARDS=$${SHARDS:-2} tests/check.sh $(T)

# Soak: ten times the operations, three seeds, 12,000 power-cut points and
# 10,500 corrupt images; stress with the whole guest short of memory.
check-full: modules tools selftest-module
	@SHARDS=$${SHARDS:-2} SCALE=10 SEEDS=3 POWERCUT_POINTS=750 IMGFUZZ_IMAGES=350 STRESS_GLOBAL=1 \
		SUITE_TIMEOUT=43200 tests/check.sh $(T)

# The suite on the debug kernel; a checker's report fails the case. Every
# case once (ONCE=1): ext2 at 1 KiB blocks where it takes them (several
# blocks to a folio: the most paths), minix v3 (v2's block map, v3's
# entries), in two VMs side by side. Every size and layout (ONCE= and
# MINIX_VERSIONS="1 2 3") takes about four hours here, more than a session.
check-debug: kernel-debug tools
	@KERNEL=$(CURDIR)/$(OUT)/kernel-debug BLOCK_SIZES="$${BLOCK_SIZES:-1024 4096}" \
		MINIX_VERSIONS="$${MINIX_VERSIONS:-3 1 2}" ONCE=$${ONCE-1} SHARDS=$${SHARDS:-2} \
		TIMEOUT_SCALE=$${TIMEOUT_SCALE:-3} \
		SUITE_TIMEOUT=$${SUITE_TIMEOUT:-10800} tests/check.sh $(T)

# A Debian package of the modules as DKMS source (build/out/deb), and its
# test: installed, built, loaded and mounted in a guest on Debian's kernel.
deb: tree
	@build/deb.sh

check-deb: tree
	@tests/check-deb.sh

# The reliability cases on ours and on stock ext2, side by side (report only).
reliability: modules tools
	@tests/reliability.sh $(T)

# Benchmarks: report only, never fail on a number. ARGS="--brd" etc. pass through.
bench: modules tools
	@bench/bench.sh $(ARGS)

bench-quick: modules tools
	@bench/bench.sh --quick $(ARGS)

# Our minix against the stock 6.1 minix on the same v3 images.
bench-minix: modules tools
	@bench/bench.sh --fs "minix-stock minix" $(ARGS)

clean:
	rm -rf $(OUT)

distclean:
	rm -rf build/linux build/linux.tmp $(OUT)
