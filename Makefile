# espressomartini — build, run, test, install.
#   make          release binary (.build/release/espressomartini, Swift runtime linked in statically)
#   make run      install what is missing, build, serve the example tree
#   make test     install what is missing, then every test (plain and under the thread sanitizer)
#   make install  PREFIX=/usr/local DESTDIR=

PREFIX ?= /usr/local
DESTDIR ?=
BINDIR = $(DESTDIR)$(PREFIX)/bin
SWIFT ?= swift
RELEASE_FLAGS = -c release --static-swift-stdlib
# The Debian packages the build needs; installed with apt-get when missing (with sudo when not root).
BUILD_PACKAGES = pkg-config libmicrohttpd-dev libjansson-dev
SUDO = $(shell [ "$$(id -u)" = 0 ] || echo sudo)

.PHONY: all build deps run test test-plain test-thread-sanitizer install uninstall clean

all: build

deps:
	@missing=""; for package in $(BUILD_PACKAGES); do \
	  dpkg-query -W -f='$${Status}' $$package 2>/dev/null | grep -q "install ok installed" || missing="$$missing $$package"; \
	done; \
	if [ -n "$$missing" ]; then \
	  echo "installing:$$missing"; \
	  $(SUDO) apt-get update -qq && $(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $$missing; \
	fi

build: deps
	$(SWIFT) build $(RELEASE_FLAGS)

run: build
	.build/release/espressomartini run

test: deps test-plain test-thread-sanitizer

test-plain:
	$(SWIFT) build --build-tests
	$(SWIFT) test --skip-build

# Counters, delays, shut-down and parallel requests once more with the thread sanitizer: the
# end-to-end tests then drive a sanitized server binary, which aborts on the first data race.
test-thread-sanitizer:
	$(SWIFT) build --build-tests --sanitize=thread --scratch-path .build-tsan
	$(SWIFT) test --skip-build --sanitize=thread --scratch-path .build-tsan

install: build
	install -D -m 755 .build/release/espressomartini $(BINDIR)/espressomartini

uninstall:
	rm -f $(BINDIR)/espressomartini

clean:
	rm -rf .build .build-tsan
