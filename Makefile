# ctfo — build, run, test, benchmark. `make run` installs what building and running ctfo needs,
# `make test` what the tests need too (scripts/install-deps.sh).
PREFIX ?= /usr/local
SWIFT ?= swift
# Type metadata through accessors, not mangled names, in every module (ArgumentParser's too):
# a generic type's first use then skips the runtime's scan of all the conformance records,
# a large part of a command's start-up (DECISIONS.md, "Start-up"). Every release build takes
# the same flags, or SwiftPM recompiles the shared modules at each switch.
RELEASE = -c release $(COLOUR) -Xswiftc -Xfrontend -Xswiftc -disable-concrete-type-metadata-mangled-name-accessors
# The same diagnostics in a terminal and in a pipe: left to itself, SwiftPM colours them only on
# a terminal, and the switch makes it compile every package manifest again.
COLOUR = --no-color-diagnostics
RELEASE_FLAGS = $(RELEASE) --static-swift-stdlib
# One program, linked fully statically (DECISIONS.md, "One binary, one store").
BIN = .build/release/ctfo
# The server links the Swift runtime and Foundation statically too (a release runs where no Swift
# is installed), glibc, SQLite and zlib dynamically, so it builds in a folder of its own: sharing
# `.build` with the fully static `ctfo`, each build recompiled the other's shared modules.
SERVER_SCRATCH = .build/server
SERVER = $(SERVER_SCRATCH)/release/ctfo-server

.PHONY: all deps deps-app deps-server deps-test deps-bench build build-info build-ctfo build-server \
  run serve test fuzz fuzz-long sanitize mutants bench install uninstall clean release-flags dist \
  deb dist-test

all: build

# System packages, when missing: apt-get as root, else the one `apt-get install` line. `app` to
# build and run ctfo, `server` ctfo-server, `test` and `bench` their benches; `deps` all of them.
deps:
	@./scripts/install-deps.sh app server test bench

deps-app deps-server deps-test deps-bench:
	@./scripts/install-deps.sh $(@:deps-%=%)

# `ctfo`, fully static, and `ctfo-server`, the reference CTFO server (a product of its own).
build: build-ctfo build-server

# scripts/swift-build.sh runs nothing when no source changed since the build that left the
# binary, and SwiftPM in the same environment from any terminal (its manifest cache keys on it).
build-ctfo: deps-app build-info
	@SWIFT=$(SWIFT) ./scripts/swift-build.sh $(BIN) $(RELEASE_FLAGS) --product ctfo

build-server: deps-server build-info
	@SWIFT=$(SWIFT) ./scripts/swift-build.sh $(SERVER) $(RELEASE_FLAGS) \
	  --scratch-path $(SERVER_SCRATCH) --product ctfo-server

# The commit `--version` prints and what `--version --verbose` adds (the toolchain, every
# package's resolved version), written where the build reads it (only when it changed).
build-info:
	@SWIFT=$(SWIFT) ./scripts/build-info.sh

# The app needs `ctfo` alone: a first `make run` does not wait for the server's build.
run: build-ctfo
	$(BIN)

# The server on 127.0.0.1:8080 with the bundled decks; point ctfo at it with
# `ctfo --server http://127.0.0.1:8080` or `server = "http://127.0.0.1:8080"` in config.toml.
serve: build-server
	$(SERVER)

# The end-to-end suites (with the reaction hook's, which times hooks that leave children, and
# TypedBeforeLaunchTests, whose run loop ends by turning the process's background courtesy
# off) run after the others, in a run of their own: their tests wait on child processes and block the
# cooperative threads (two on a 2-core CI machine), which would starve the unit suites' deadline
# races
# (DECISIONS.md, "End-to-end tests start tmux with a clean signal mask, in a run of their own").
test: deps-test build dist deb
	$(SWIFT) test $(COLOUR) --parallel --skip EndToEndTests --skip ReactionHookTests \
	  --skip TypedBeforeLaunchTests
	$(SWIFT) build $(COLOUR) --build-tests
	CTFO_BINARY=$(CURDIR)/$(BIN) CTFO_SERVER_BINARY=$(CURDIR)/$(SERVER) \
	  CTFO_SERVER_DEBUG_BINARY=$(CURDIR)/.build/debug/ctfo-server $(SWIFT) test $(COLOUR) \
	  --skip-build --filter 'EndToEndTests|ReactionHookTests|TypedBeforeLaunchTests'
	./scripts/schemathesis.sh $(SERVER)
	SCHEMATHESIS_STORE=postgres ./scripts/schemathesis.sh $(SERVER)
	./scripts/load-kill-test.sh $(SERVER)
	./scripts/dashboard-browser-test.sh $(SERVER)
	./scripts/dist-test.sh
	FUZZ_SECONDS=$(TEST_FUZZ_SECONDS) SWIFT=$(SWIFT) ./scripts/fuzz.sh

# Seconds each fuzzer runs: in `make fuzz`, and in `make test` (a short run on the seeds).
FUZZ_SECONDS ?= 60
TEST_FUZZ_SECONDS ?= 5
# The end-to-end suites drive the release binary in tmux; a sanitiser would watch only the test
# process that types the keys
# (DECISIONS.md, "Fuzzers and sanitisers: one SwiftPM product, the toolchain's own runtimes").
SANITIZE_SKIP = --skip EndToEndTests

# libFuzzer on the deck line parser, the sanitiser and layout, the config reader, the key
# decoder, mouse reports and keys through the decoding into the app's reducer and screen, the
# server's answers and pulls, FUZZ_SECONDS each (Tests/Fuzz); new inputs kept in
# .build/fuzz/corpus.
fuzz: deps-app
	FUZZ_SECONDS=$(FUZZ_SECONDS) SWIFT=$(SWIFT) ./scripts/fuzz.sh

# A long fuzzing run before a release: each fuzzer for ten minutes, and the feed's model-based
# test on 100,000 random sequences (1,500 in `make test`).
fuzz-long:
	$(MAKE) fuzz FUZZ_SECONDS=600
	CTFO_MODEL_RUNS=100000 $(SWIFT) test $(COLOUR) --filter FeedModelTests

# The unit suites once under ThreadSanitizer, once under AddressSanitizer with LeakSanitizer
# (each its own build); Tests/tsan.supp and Tests/lsan.supp say which reports are not ctfo's.
sanitize: deps-test
	TSAN_OPTIONS=suppressions=$(CURDIR)/Tests/tsan.supp \
	  $(SWIFT) test --scratch-path .build/tsan --sanitize=thread $(SANITIZE_SKIP)
	LSAN_OPTIONS=suppressions=$(CURDIR)/Tests/lsan.supp \
	  $(SWIFT) test --scratch-path .build/asan --sanitize=address $(SANITIZE_SKIP)

# Each small bug of Tests/Mutants/*.patch in a scratch copy (.build-mutants), the suites that
# cover it run against it: prints each mutant's fate and the score, fails if any survives.
mutants: deps-test
	SWIFT=$(SWIFT) ./scripts/mutants.sh

bench: deps-bench build-info
	RELEASE="$(RELEASE)" SERVER_SCRATCH=$(SERVER_SCRATCH) ./bench/run.sh

# The release build's flags, for scripts that build on their own (bench/run.sh).
release-flags:
	@echo $(RELEASE)

# The release archive, dist/ctfo-VERSION-linux-ARCH.tar.gz and its .sha256: the binaries
# stripped, the decks, man pages, completions and docs. One commit gives the same bytes.
# scripts/dist.sh packs what `make build` left and builds nothing itself.
dist: build
	./scripts/dist.sh

# dist/ctfo_VERSION_ARCH.deb and dist/ctfo-server_VERSION_ARCH.deb (dpkg-deb), checked by lintian:
# an error fails. scripts/deb.sh installs lintian when it is missing, as `make deps` does.
deb: build
	./scripts/deb.sh

# Checks what `make dist` and `make deb` wrote: the archive unpacked anywhere and the packages
# extracted run with an empty environment, a second build gives the same bytes, lintian finds
# no error, the man pages render without a warning.
dist-test: dist deb
	./scripts/dist-test.sh

install: build
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/share/ctfo/decks
	install -m 755 -s $(BIN) $(DESTDIR)$(PREFIX)/bin/ctfo
	install -m 755 -s $(SERVER) $(DESTDIR)$(PREFIX)/bin/ctfo-server
	install -m 644 Resources/decks/*.jsonl $(DESTDIR)$(PREFIX)/share/ctfo/decks/
	install -d $(DESTDIR)$(PREFIX)/share/man/man1
	install -m 644 Resources/man/ctfo.1 $(DESTDIR)$(PREFIX)/share/man/man1/ctfo.1
	install -m 644 Resources/man/ctfo-server.1 $(DESTDIR)$(PREFIX)/share/man/man1/ctfo-server.1
	install -d $(DESTDIR)$(PREFIX)/share/bash-completion/completions \
	  $(DESTDIR)$(PREFIX)/share/zsh/site-functions $(DESTDIR)$(PREFIX)/share/fish/vendor_completions.d
	$(BIN) --generate-completion-script bash > $(DESTDIR)$(PREFIX)/share/bash-completion/completions/ctfo
	$(BIN) --generate-completion-script zsh > $(DESTDIR)$(PREFIX)/share/zsh/site-functions/_ctfo
	$(BIN) --generate-completion-script fish > $(DESTDIR)$(PREFIX)/share/fish/vendor_completions.d/ctfo.fish

uninstall:
	rm -f $(DESTDIR)$(PREFIX)/bin/ctfo $(DESTDIR)$(PREFIX)/bin/ctfo-server
	rm -rf $(DESTDIR)$(PREFIX)/share/ctfo
	rm -f $(DESTDIR)$(PREFIX)/share/man/man1/ctfo.1 $(DESTDIR)$(PREFIX)/share/man/man1/ctfo-server.1
	rm -f $(DESTDIR)$(PREFIX)/share/bash-completion/completions/ctfo \
	  $(DESTDIR)$(PREFIX)/share/zsh/site-functions/_ctfo \
	  $(DESTDIR)$(PREFIX)/share/fish/vendor_completions.d/ctfo.fish

clean:
	rm -rf .build .build-mutants dist
