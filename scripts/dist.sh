#!/usr/bin/env bash
# Writes dist/ctfo-VERSION-linux-ARCH.tar.gz and its .sha256 from the binaries `make build`
# left: bin/ (stripped), share/ (decks, man pages, completions), the docs and DEPENDENCIES (what
# it was built from), under one top folder. Reproducible: one commit, the same bytes (sorted names, the commit's time, owner 0,
# fixed modes, gzip without a name or time).
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/release-env.sh

name=ctfo-$VERSION-linux-$(uname -m)
stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
top=$stage/$name

install -d "$top/bin" "$top/share/ctfo/decks" "$top/share/man/man1" \
  "$top/share/bash-completion/completions" "$top/share/zsh/site-functions" \
  "$top/share/fish/vendor_completions.d"
strip_to "$CTFO_BIN" "$top/bin/ctfo"
strip_to "$CTFO_SERVER_BIN" "$top/bin/ctfo-server"
install -m 644 Resources/decks/*.jsonl "$top/share/ctfo/decks/"
install -m 644 Resources/man/ctfo.1 Resources/man/ctfo-server.1 "$top/share/man/man1/"
# The server's systemd units, the .deb's: where systemd looks under a prefix (/usr/local).
install -d "$top/lib/systemd/system"
install -m 644 Resources/systemd/ctfo-server.service Resources/systemd/ctfo-server@.service \
  "$top/lib/systemd/system/"
# Completions from the binary that ships, which knows its own options.
complete() { env -i HOME="$stage" "$top/bin/ctfo" --generate-completion-script "$1" > "$2"; }
complete bash "$top/share/bash-completion/completions/ctfo"
complete zsh "$top/share/zsh/site-functions/_ctfo"
complete fish "$top/share/fish/vendor_completions.d/ctfo.fish"
install -m 644 README.md LICENSE CHANGELOG.md "$top/"
# What the release was built from: its version and commit, the toolchain, and every package
# of the graph with its resolved version and revision (scripts/build-info.sh), as it says.
env -i "$top/bin/ctfo" --version --verbose > "$top/DEPENDENCIES"
find "$top" -type f ! -path "$top/bin/*" -exec chmod 644 {} +
find "$top" -type d -exec chmod 755 {} +
stamp "$top"

mkdir -p "$DIST_DIR"
archive=$DIST_DIR/$name.tar.gz
tar --create --format=gnu --sort=name --mtime="@$SOURCE_DATE_EPOCH" \
  --owner=0 --group=0 --numeric-owner -C "$stage" "$name" | gzip -9n > "$archive.tmp"
mv "$archive.tmp" "$archive"
(cd "$DIST_DIR" && sha256sum "$name.tar.gz" > "$name.tar.gz.sha256")
echo "$archive"
cat "$archive.sha256"
