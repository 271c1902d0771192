# ctfo — build, run, test, benchmark. `make run` and `make test` install what is missing.
PREFIX ?= /usr/local
SWIFT ?= swift
RELEASE_FLAGS = -c release --static-swift-stdlib
# One program, linked fully statically (DECISIONS.md, "One binary, one store").
BIN = .build/release/ctfo

.PHONY: all deps build run test bench install uninstall clean

all: build

# System packages the build and the tests need (apt-get when run as root).
deps:
	@./scripts/install-deps.sh

build: deps
	$(SWIFT) build $(RELEASE_FLAGS) --product ctfo

run: build
	$(BIN)

test: build
	CTFO_BINARY=$(CURDIR)/$(BIN) $(SWIFT) test --parallel

bench: deps
	./bench/run.sh

install: build
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/share/ctfo/decks
	install -m 755 -s $(BIN) $(DESTDIR)$(PREFIX)/bin/ctfo
	install -m 644 Resources/decks/*.jsonl $(DESTDIR)$(PREFIX)/share/ctfo/decks/
	install -d $(DESTDIR)$(PREFIX)/share/man/man1
	install -m 644 Resources/man/ctfo.1 $(DESTDIR)$(PREFIX)/share/man/man1/ctfo.1
	install -d $(DESTDIR)$(PREFIX)/share/bash-completion/completions \
	  $(DESTDIR)$(PREFIX)/share/zsh/site-functions $(DESTDIR)$(PREFIX)/share/fish/vendor_completions.d
	$(BIN) --generate-completion-script bash > $(DESTDIR)$(PREFIX)/share/bash-completion/completions/ctfo
	$(BIN) --generate-completion-script zsh > $(DESTDIR)$(PREFIX)/share/zsh/site-functions/_ctfo
	$(BIN) --generate-completion-script fish > $(DESTDIR)$(PREFIX)/share/fish/vendor_completions.d/ctfo.fish

uninstall:
	rm -f $(DESTDIR)$(PREFIX)/bin/ctfo
	rm -rf $(DESTDIR)$(PREFIX)/share/ctfo
	rm -f $(DESTDIR)$(PREFIX)/share/man/man1/ctfo.1
	rm -f $(DESTDIR)$(PREFIX)/share/bash-completion/completions/ctfo \
	  $(DESTDIR)$(PREFIX)/share/zsh/site-functions/_ctfo \
	  $(DESTDIR)$(PREFIX)/share/fish/vendor_completions.d/ctfo.fish

clean:
	rm -rf .build
