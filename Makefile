# espressomartini — build, run, test, install.
#   make          release binary (.build/release/espressomartini, Swift runtime linked in statically)
#   make run      install what is missing (build and run-time packages), build, serve the example tree
#   make test     install what is missing, then the source's format, every test (plain, under the thread
#                 and the address sanitizers, the client library from a package of its own), then a short
#                 fuzzing run of each fuzz target
#   make format   rewrite the Swift source as .swift-format says
#   make fuzz     each fuzz target for FUZZ_SECONDS (default 300) with libFuzzer and the address sanitizer
#   make install  PREFIX=/usr/local DESTDIR=   (binary, man page, shell completions, JSON Schemas)
#   make deb      the Debian package, in dist/
#   make check-package   build the package and check its contents, unit, lintian, and the binary it ships
#   make hot-functions   rewrite linker-symbol-order/hot-functions.txt, the functions the linker places together

PREFIX ?= /usr/local
DESTDIR ?=
BINDIR = $(DESTDIR)$(PREFIX)/bin
SHAREDIR = $(DESTDIR)$(PREFIX)/share
# The version lives in one place: Sources/EspressoMartini/Version.swift.
VERSION := $(shell sed -n 's/.*current = "\(.*\)"/\1/p' Sources/EspressoMartini/Version.swift)
SWIFT ?= swift
# Linked by lld (shipped with Swift) with packed relative relocations (DT_RELR, glibc 2.36) and 64 KiB
# segment alignment: the dynamic loader has far fewer relocations to read and write, and the kernel's
# 64 KiB fault-around maps fewer of the binary's pages, so the daemon stays smaller in memory.
# Each function in a section of its own, and those a serving daemon runs (linker-symbol-order/hot-functions.txt, written by
# `make hot-functions`) placed together first: the pages it touches are then few and close, not spread over
# the whole binary (2 MiB less resident memory on a 10 000-exchange tree).
RELEASE_FLAGS = -c release --static-swift-stdlib -Xswiftc -use-ld=lld \
	-Xlinker -z -Xlinker pack-relative-relocs -Xlinker -z -Xlinker max-page-size=65536 \
	-Xswiftc -Xfrontend -Xswiftc -function-sections \
	-Xlinker --symbol-ordering-file=$(CURDIR)/linker-symbol-order/hot-functions.txt -Xlinker --no-warn-symbol-ordering \
	$(STATIC_LIBSTDCXX_FLAGS)
# The C++ runtime Swift's runtime uses, linked in too: one shared library fewer for the dynamic loader to
# map and relocate at every start, and less resident memory. Swift's driver asks for `-lstdc++`
# itself, so a folder holding only the static archive goes first in the search path (when the toolchain's
# clang finds the archive, from libstdc++-12-dev, which Swift needs anyway; else it stays shared).
STATIC_LIBSTDCXX := $(shell clang -print-file-name=libstdc++.a 2>/dev/null)
STATIC_LIBSTDCXX_DIR = $(CURDIR)/.build/static-libstdc++
STATIC_LIBSTDCXX_FLAGS = $(if $(filter /%,$(STATIC_LIBSTDCXX)),-Xlinker -L$(STATIC_LIBSTDCXX_DIR))
# The Debian packages the build needs; installed with apt-get when missing (with sudo when not root).
BUILD_PACKAGES = pkg-config libmicrohttpd-dev libjansson-dev libgnutls28-dev libyaml-dev libcurl4-gnutls-dev libbrotli-dev zlib1g-dev
# The libraries the binary loads with dlopen when a tree needs them (none is linked, so the build does not pull
# them in): JavaScriptCore for scripts, libyaml for a script reading a YAML body and for `import openapi` of a
# YAML description, libcurl (with zlib and Brotli, which it pulls in) for a `proxy`. The example tree has
# scripts, so `make run` installs them; Tests/RunPackages/check-run-packages.sh fails when one it loads is
# missing here.
RUN_PACKAGES = libjavascriptcoregtk-4.1-0 libyaml-0-2 libcurl3-gnutls
SUDO = $(shell [ "$$(id -u)" = 0 ] || echo sudo)

# JSON Schemas of both kinds of configuration.json, for editors (installed in share/espressomartini/schemas).
SCHEMAS = schemas/exchange-configuration.schema.json schemas/server-configuration.schema.json

# What `make test` needs besides the build packages: a JSON Schema validator for the schema tests, and a YAML
# reader for the import tests (Tests/OpenAPI/check_served.py holds served imports against their descriptions);
# openssl and curl for the HTTPS tests (a throw-away certificate, `curl --cacert`); Chromium, whose
# headless mode runs the cross-origin page of the CORS tests (about 80 MB to download); JavaScriptCore and
# libyaml for the script tests (the binary loads them with dlopen when a tree has a script; the build needs
# none of JavaScriptCore's headers); Python, whose small HTTP server is the proxy tests' real API, and libcurl,
# which the proxy loads.
TEST_PACKAGES = python3 python3-jsonschema python3-yaml openssl curl chromium libjavascriptcoregtk-4.1-0 libyaml-0-2 libcurl3-gnutls

# What `make deb` needs besides the build packages.
PACKAGING_PACKAGES = debhelper dpkg-dev lintian systemd python3 curl libjavascriptcoregtk-4.1-0

.PHONY: hot-functions bench-baseline all build deps run-deps test-deps deps-packaging run test test-format format test-inotify test-plain test-client test-run-packages test-thread-sanitizer install install-files uninstall deb check-package clean bench bench-deps

all: build

deps:
	@$(MAKE) --no-print-directory apt-install PACKAGES="$(BUILD_PACKAGES)"

run-deps:
	@$(MAKE) --no-print-directory apt-install PACKAGES="$(RUN_PACKAGES)"

test-deps:
	@$(MAKE) --no-print-directory apt-install PACKAGES="$(TEST_PACKAGES)"

deps-packaging: deps
	@$(MAKE) --no-print-directory apt-install PACKAGES="$(PACKAGING_PACKAGES)"

apt-install:
	@missing=""; for package in $(PACKAGES); do \
	  dpkg-query -W -f='$${Status}' $$package 2>/dev/null | grep -q "install ok installed" || missing="$$missing $$package"; \
	done; \
	if [ -n "$$missing" ]; then \
	  echo "installing:$$missing"; \
	  $(SUDO) apt-get update -qq && $(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $$missing; \
	fi

build: deps
	$(if $(STATIC_LIBSTDCXX_FLAGS),mkdir -p $(STATIC_LIBSTDCXX_DIR) && ln -sf $(STATIC_LIBSTDCXX) $(STATIC_LIBSTDCXX_DIR)/libstdc++.a)
	$(SWIFT) build $(RELEASE_FLAGS)

run: build run-deps
	.build/release/espressomartini run

test: deps test-deps test-format test-inotify test-plain test-client test-run-packages test-thread-sanitizer test-address-sanitizer fuzz-smoke

# The source as `.swift-format` says (lines of at most 120 characters, four spaces a level): `swift format`,
# shipped with the toolchain, lints every Swift file git knows; `make format` rewrites them so.
SWIFT_SOURCES = $(shell git ls-files '*.swift' 2>/dev/null)

test-format:
	@echo "swift format lint: $(words $(SWIFT_SOURCES)) files"
	@$(SWIFT) format lint --strict --configuration .swift-format $(SWIFT_SOURCES)

format:
	@echo "swift format: $(words $(SWIFT_SOURCES)) files"
	@$(SWIFT) format format --in-place --configuration .swift-format $(SWIFT_SOURCES)

# The end-to-end tests run many servers at once, each watching its tree with one inotify instance; Linux
# allows 128 per user by default, fewer than the suite needs at its busiest under the sanitizers. Raised to
# 1024 where this user may (root, as on CI), else said; a server that gets none serves without watching.
INOTIFY_INSTANCES = 1024
test-inotify:
	@current=$$(cat /proc/sys/fs/inotify/max_user_instances 2>/dev/null || echo $(INOTIFY_INSTANCES)); \
	if [ "$$current" -lt $(INOTIFY_INSTANCES) ]; then \
	  $(SUDO) sysctl -q -w fs.inotify.max_user_instances=$(INOTIFY_INSTANCES) 2>/dev/null \
	    || echo "note: fs.inotify.max_user_instances is $$current; the hot-reload tests may fail when the suite runs more servers at once"; \
	fi

# At most this many tests at once: each end-to-end test runs a server, and 700 starting together on a
# 2-core machine starved some past their bounded waits (a server given 15 s to exit after SIGTERM); 16 at
# once also finishes sooner than all at once.
PLAIN_TESTS = 16

test-plain:
	$(SWIFT) build --build-tests
	SWT_EXPERIMENTAL_MAXIMUM_PARALLELIZATION_WIDTH=$(PLAIN_TESTS) $(SWIFT) test --skip-build

# The client library (EspressoMartiniClient) as a user's test suite uses it: Tests/ClientPackage is a package of
# its own that depends on this one by path (so it builds the client library only), and its XCTest and Swift
# Testing tests start the release binary just built, found first on the PATH.
test-client: build
	cd Tests/ClientPackage && PATH="$(CURDIR)/.build/release:$$PATH" $(SWIFT) test

# The release binary `make run` runs, serving the example tree: every Debian package it loads a library from
# must be one `make run` installs (Tests/RunPackages/check-run-packages.sh).
test-run-packages: build
	Tests/RunPackages/check-run-packages.sh .build/release/espressomartini

# Counters, delays, shut-down and parallel requests once more with the thread sanitizer: the
# end-to-end tests then drive a sanitized server binary, which aborts on the first data race.
# Under it: the in-process tests, and the end-to-end suites where requests, reloads, scripts, streams and
# forwarded requests run in parallel against the sanitized server. The other end-to-end suites (parsing,
# listings, schemas, imports, the browser, and the hardening suite's loads, which measure the process from
# outside) run no thread those do not, and tripled the run's time.
TSAN_TESTS = ^(EspressoMartiniTests|EspressoMartiniServerTests|EspressoMartiniDaemonTests)\.|^EndToEndTests\.(CallCounterTests|SequenceModeTests|SessionTests|ReloadUnderLoadTests|HotReloadTests|DelayTests|ShutdownTests|ScriptServingTests|ScriptFailureTests|StreamTests|SlowNetworkTests|ForwardingTests|RecordingTests|ServingLoopTests|TargetAnswerTests|RequestCountTests|AdminAPITests|DecisionPathTests|ReadmeTourTests|RuntimeExchangeTests)/

# Under a sanitizer every server runs several times slower: at most SANITIZED_TESTS tests at once, so that
# the servers of the ones running are not starved past the tests' bounded waits on a 2-core machine.
SANITIZED_TESTS = 6
SANITIZED_WIDTH = SWT_EXPERIMENTAL_MAXIMUM_PARALLELIZATION_WIDTH=$(SANITIZED_TESTS)

test-thread-sanitizer:
	$(SWIFT) build --build-tests --sanitize=thread --scratch-path .build-tsan
	$(SANITIZED_WIDTH) $(SWIFT) test --skip-build --sanitize=thread --scratch-path .build-tsan --filter '$(TSAN_TESTS)'

.PHONY: test-address-sanitizer fuzz fuzz-smoke

# Every test once more with the address sanitizer and its leak checker: the end-to-end tests then drive
# an instrumented server binary, and a server that reports a memory error, or a leak when it stops, fails
# its test (the harness fails a server that does not exit 0 on SIGTERM or writes a sanitizer report).
# The suppressions only match the test runner's own allocations (harness, swift-testing, XCTest), which
# the server binary does not contain. Traps are reported by the sanitizer (handle_sigill) rather than by
# Swift's backtracer, which the sanitizer would flag for reading the stack.
ASAN_ENVIRONMENT = SWIFT_BACKTRACE=enable=no ASAN_OPTIONS=detect_leaks=1:handle_sigill=1 \
	LSAN_OPTIONS=suppressions=$(CURDIR)/Fuzz/Sanitizers/test-runner-leaks.supp:print_suppressions=0

test-address-sanitizer:
	$(SWIFT) build --build-tests --sanitize=address --scratch-path .build-asan
	$(ASAN_ENVIRONMENT) $(SANITIZED_WIDTH) $(SWIFT) test --skip-build --sanitize=address --scratch-path .build-asan

# Fuzzing (Fuzz/): each target built with libFuzzer and the address sanitizer in .build-fuzz, then run for
# FUZZ_SECONDS (`make fuzz`, default 300 each) or FUZZ_SMOKE_SECONDS (`make fuzz-smoke`, run by `make test`,
# default 20 each) from its committed seeds, Fuzz/Corpus/TARGET; what it finds goes to .build-fuzz/corpus/TARGET,
# a crashing input to .build-fuzz/artifacts/TARGET/ (a target stops at its first crash; the others still run).
# Then the inputs of Fuzz/Regressions/TARGET (bugs found by fuzzing) must all pass; any crash fails the
# target at the end. lld links: gold fails on libFuzzer's objects.
FUZZ_SECONDS ?= 300
FUZZ_SMOKE_SECONDS ?= 20
FUZZ_TARGETS = TreeLoader RouteMatching
FUZZ_BUILD = $(SWIFT) build -c release --scratch-path .build-fuzz -Xswiftc -sanitize=fuzzer,address -Xswiftc -DFUZZING -Xswiftc -use-ld=lld
define fuzz-run
	@for target in $(FUZZ_TARGETS); do $(FUZZ_BUILD) --product Fuzz$$target || exit 1; done
	@bin=$$($(FUZZ_BUILD) --show-bin-path); failed=""; for target in $(FUZZ_TARGETS); do \
	  mkdir -p .build-fuzz/corpus/$$target .build-fuzz/artifacts/$$target; \
	  echo "fuzz: $$target for $(1) s"; \
	  SWIFT_BACKTRACE=enable=no $$bin/Fuzz$$target .build-fuzz/corpus/$$target Fuzz/Corpus/$$target \
	    -dict=Fuzz/Dictionaries/$$target.dict -max_total_time=$(1) -timeout=10 -print_final_stats=1 \
	    -artifact_prefix=.build-fuzz/artifacts/$$target/ || failed="$$failed $$target"; \
	done; \
	for target in $(FUZZ_TARGETS); do \
	  [ -d Fuzz/Regressions/$$target ] || continue; \
	  echo "fuzz: $$target regressions"; \
	  SWIFT_BACKTRACE=enable=no $$bin/Fuzz$$target Fuzz/Regressions/$$target/* || failed="$$failed $$target-regressions"; \
	done; \
	if [ -n "$$failed" ]; then echo "fuzz: crashes in$$failed (inputs in .build-fuzz/artifacts/)"; exit 1; fi
endef

fuzz:
	$(call fuzz-run,$(FUZZ_SECONDS))

fuzz-smoke:
	$(call fuzz-run,$(FUZZ_SMOKE_SECONDS))

# Rewrites linker-symbol-order/hot-functions.txt from the release binary run under callgrind (linker-symbol-order/hot-functions.sh), then
# builds again with the new order. After a change to what serving runs.
hot-functions: build
	@$(MAKE) --no-print-directory apt-install PACKAGES="valgrind curl python3"
	linker-symbol-order/hot-functions.sh .build/release/espressomartini
	rm -f .build/release/espressomartini
	$(MAKE) --no-print-directory build

install: build install-files

# Installs what `make build` made, with the man page and the shell completions it generates.
install-files:
	install -D -m 755 .build/release/espressomartini $(BINDIR)/espressomartini
	install -D -m 644 doc/espressomartini.1 $(SHAREDIR)/man/man1/espressomartini.1
	install -D -m 644 -t $(SHAREDIR)/espressomartini/schemas $(SCHEMAS)
	install -d $(SHAREDIR)/bash-completion/completions $(SHAREDIR)/zsh/vendor-completions $(SHAREDIR)/fish/vendor_completions.d
	.build/release/espressomartini --generate-completion-script bash | sed '1{/^#!/d}' > $(SHAREDIR)/bash-completion/completions/espressomartini
	.build/release/espressomartini --generate-completion-script zsh > $(SHAREDIR)/zsh/vendor-completions/_espressomartini
	.build/release/espressomartini --generate-completion-script fish > $(SHAREDIR)/fish/vendor_completions.d/espressomartini.fish
	chmod 644 $(SHAREDIR)/bash-completion/completions/espressomartini $(SHAREDIR)/zsh/vendor-completions/_espressomartini $(SHAREDIR)/fish/vendor_completions.d/espressomartini.fish

uninstall:
	rm -f $(BINDIR)/espressomartini $(SHAREDIR)/man/man1/espressomartini.1 \
	  $(SHAREDIR)/bash-completion/completions/espressomartini $(SHAREDIR)/zsh/vendor-completions/_espressomartini \
	  $(SHAREDIR)/fish/vendor_completions.d/espressomartini.fish
	rm -rf $(SHAREDIR)/espressomartini/schemas
	-rmdir $(SHAREDIR)/espressomartini

# debian/changelog is written from the one version number; dpkg-buildpackage puts its output beside
# the source folder, so it is moved into dist/.
deb: deps-packaging
	printf 'espressomartini (%s) unstable; urgency=medium\n\n  * Release %s.\n\n -- %s  %s\n' \
	  "$(VERSION)" "$(VERSION)" "$$(sed -n 's/^Maintainer: //p' debian/control)" \
	  "$$(date -R -u -d @$${SOURCE_DATE_EPOCH:-$$(git log -1 --format=%ct 2>/dev/null || date +%s)})" > debian/changelog
	dpkg-buildpackage -us -uc -b -d
	mkdir -p dist
	mv ../espressomartini_$(VERSION)_*.deb ../espressomartini_$(VERSION)_*.buildinfo ../espressomartini_$(VERSION)_*.changes dist/
	@ls dist/espressomartini_$(VERSION)_*.deb

check-package: deb
	Tests/Package/check-package.sh dist/espressomartini_$(VERSION)_$$(dpkg --print-architecture).deb

clean:
	rm -rf .build .build-tsan .build-asan .build-fuzz .build-baseline Tests/ClientPackage/.build dist debian/changelog

# `make bench`: espressomartini beside a bare libmicrohttpd server (bench/ceiling.c) on this machine, over
# 127.0.0.1, and the cost of variants (4 of them; a JSON Pointer on a 1 KiB body) against a static answer in
# the same server, with their targets (bench/README.md); prints the Markdown table of doc/performance.md and
# saves it, with the raw numbers, in bench/results/. QUICK=1 for a 2-minute run; ROUNDS (default 3), SLICES
# (alternating loads per server and comparison in a round, default 4), DURATION (seconds per slice, default 2)
# and BENCH_DIR (trees and logs, default /tmp/espressomartini-bench) may be set too.
BENCH_PACKAGES = wrk gcc libmicrohttpd-dev python3 curl openssl nginx libyaml-0-2

#
# BASELINE=REF (a commit, tag or branch) also builds the release binary of REF, with REF's own Makefile, into
# .build-baseline/COMMIT/ (kept for the next run), and measures it beside this build on a 10 000-exchange tree
# without variants, templates or scripts: start-up, idle memory, and the small JSON in alternating slices.
BASELINE ?=
BASELINE_COMMIT = $(if $(BASELINE),$(shell git rev-parse --verify --quiet "$(BASELINE)^{commit}"))
BASELINE_SOURCE = .build-baseline/$(BASELINE_COMMIT)

bench: build bench-deps $(if $(BASELINE),bench-baseline)
	QUICK="$(QUICK)" ROUNDS="$(ROUNDS)" SLICES="$(SLICES)" DURATION="$(DURATION)" BENCH_DIR="$(BENCH_DIR)" \
	  $(if $(BASELINE),BASELINE="$(BASELINE)" BASELINE_BINARY="$(CURDIR)/$(BASELINE_SOURCE)/.build/release/espressomartini") \
	  bench/run.sh

bench-baseline:
	@[ -n "$(BASELINE_COMMIT)" ] || { echo "bench: BASELINE=$(BASELINE) names no commit of this repository"; exit 1; }
	@if [ ! -x $(BASELINE_SOURCE)/.build/release/espressomartini ]; then \
	  rm -rf $(BASELINE_SOURCE) && mkdir -p $(BASELINE_SOURCE) && git archive $(BASELINE_COMMIT) | tar -x -C $(BASELINE_SOURCE) \
	  && $(MAKE) --no-print-directory -C $(BASELINE_SOURCE) build; \
	fi

bench-deps: deps
	@$(MAKE) --no-print-directory apt-install PACKAGES="$(BENCH_PACKAGES)"
