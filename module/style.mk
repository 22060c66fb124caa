# SPDX-License-Identifier: GPL-2.0
#
# Style and static analysis of the kernel module, included by the
# top-level Makefile.
#
#   make style                  checkpatch.pl --strict on module/, and the
#                               messages of the commits not yet on main
#                               (scripts/commit-style.py, CONTRIBUTING.md)
#   make sparse [KDIR=...]      sparse (C=1) + W=1 build in a copy of the tree
#
# checkpatch.pl comes from Debian's linux-source-6.1 package and is cached
# under $(SSDLOAD_CACHE)/checkpatch (fetched once, idempotently).

SSDLOAD_CACHE ?= $(or $(XDG_CACHE_HOME),$(HOME)/.cache)/ssdload
CHECKPATCH_DIR := $(SSDLOAD_CACHE)/checkpatch
CHECKPATCH := $(CHECKPATCH_DIR)/scripts/checkpatch.pl
STYLE_FILES = $(filter-out %.mod.c,$(wildcard module/*.c module/*.h module/tests/*.c module/tests/*.h bench/floor/*.c))
COMPAT_FILES = $(wildcard module/compat/*.h)
# MACRO_ARG_REUSE: the attribute macros paste identifiers, as null_blk's do.
# compat/ is the one place allowed to test LINUX_VERSION_CODE (and it
# defines the EXPORT_SYMBOL_IF_KUNIT fallback).
CHECKPATCH_FLAGS = --strict --no-tree --terse --show-types \
	--ignore SPDX_LICENSE_TAG,FILE_PATH_CHANGES,MACRO_ARG_REUSE
SPARSE_TREE := $(SSDLOAD_CACHE)/build/sparse

$(CHECKPATCH):
	@set -e; tmp=$$(mktemp -d); trap 'rm -rf "$$tmp"' EXIT; \
	echo "style: fetching checkpatch.pl from Debian's linux-source-6.1"; \
	scripts/debfetch.sh download bookworm "$$tmp" linux-source-6.1 >/dev/null; \
	deb=$$(ls "$$tmp"/linux-source-6.1_*.deb | head -n1); \
	mkdir -p "$$tmp/x"; dpkg-deb -x "$$deb" "$$tmp/x"; \
	tarball=$$(ls "$$tmp"/x/usr/src/linux-source-6.1*.tar.* | head -n1); \
	top=$$(tar -tf "$$tarball" | head -n1 | cut -d/ -f1); \
	tar -xf "$$tarball" -C "$$tmp" "$$top/scripts/checkpatch.pl" \
		"$$top/scripts/spelling.txt" "$$top/scripts/const_structs.checkpatch"; \
	mkdir -p "$(CHECKPATCH_DIR)/scripts.tmp"; \
	cp "$$tmp/$$top/scripts/checkpatch.pl" "$$tmp/$$top/scripts/spelling.txt" \
		"$$tmp/$$top/scripts/const_structs.checkpatch" "$(CHECKPATCH_DIR)/scripts.tmp/"; \
	rm -rf "$(CHECKPATCH_DIR)/scripts"; \
	mv "$(CHECKPATCH_DIR)/scripts.tmp" "$(CHECKPATCH_DIR)/scripts"

checkpatch: $(CHECKPATCH)

style-commits:
	@python3 scripts/commit-style.py

style: $(CHECKPATCH) style-commits
	perl $(CHECKPATCH) $(CHECKPATCH_FLAGS) -f $(STYLE_FILES)
	perl $(CHECKPATCH) $(CHECKPATCH_FLAGS) \
		--ignore LINUX_VERSION_CODE,CONSTANT_COMPARISON,EXPORT_SYMBOL -f $(COMPAT_FILES)

sparse:
	@test -d "$(KDIR)" || { echo "sparse: no kernel build tree at $(KDIR)" >&2; exit 1; }
	mkdir -p "$(SPARSE_TREE)"
	rsync -a --delete --exclude .git --exclude '*.o' --exclude '*.ko' \
		--exclude '.*.cmd' ./ "$(SPARSE_TREE)/"
	$(MAKE) -C "$(KDIR)" M="$(SPARSE_TREE)" C=2 W=1 modules 2>&1 | \
		tee "$(SPARSE_TREE)/sparse.log"
	@! grep -E "warning:|error:" "$(SPARSE_TREE)/sparse.log"

.PHONY: checkpatch style style-commits sparse
