#!/usr/bin/env bash
# Builds dist/ctfo_VERSION_ARCH.deb and dist/ctfo-server_VERSION_ARCH.deb with dpkg-deb from the
# binaries `make build` left (it builds nothing), then checks them with lintian: an error fails.
# Reproducible like the archive: every file takes the last commit's time.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/release-env.sh
debian=packaging/debian

need dpkg-shlibdeps:dpkg-dev
[ "${DEB_LINTIAN:-1}" = 0 ] || need lintian:lintian

arch=$(dpkg --print-architecture)
maintainer=${DEB_MAINTAINER:-$(git log -1 --format='%an <%ae>' 2>/dev/null)}
[ -n "$maintainer" ] || { echo "$0: set DEB_MAINTAINER='Name <email>' outside git" >&2; exit 1; }
stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
# dpkg-shlibdeps reads debian/control and wants each binary in debian/PACKAGE.
mkdir -p "$stage/debian"
touch "$stage/debian/control"

# The folder of a package's tree: root PACKAGE.
root() { echo "$stage/debian/$1"; }

# A man page, gzipped as Debian has them: man_page PACKAGE PAGE.
man_page() {
  install -d "$(root "$1")/usr/share/man/man1"
  gzip -9n < "Resources/man/$2" > "$(root "$1")/usr/share/man/man1/$2.gz"
}

# /usr/share/doc/PACKAGE: the DEP-5 copyright, the Debian changelog, the upstream changelog, and
# DEPENDENCIES, what the package's program was built from (its `--version --verbose`).
docs() {
  local doc
  doc=$(root "$1")/usr/share/doc/$1
  install -d "$doc"
  install -m 644 "$debian/copyright" "$doc/copyright"
  env -i "$(root "$1")/usr/bin/$1" --version --verbose > "$doc/DEPENDENCIES"
  gzip -9n < CHANGELOG.md > "$doc/changelog.gz"
  {
    echo "$1 ($VERSION) unstable; urgency=medium"
    echo
    echo "  * Release $VERSION; its changes are in /usr/share/doc/$1/changelog.gz."
    echo
    echo " -- $maintainer  $(date -u -R -d "@$SOURCE_DATE_EPOCH")"
  } | gzip -9n > "$doc/changelog.Debian.gz"
}

# The source packages whose static archives ctfo takes in, for Built-Using: their licences
# (glibc's LGPL among them) ask that their sources stay available.
static_built_using() {
  local multiarch archive package
  multiarch=$(gcc -print-multiarch 2>/dev/null || echo x86_64-linux-gnu)
  for archive in libc.a libsqlite3.a libssl.a libcrypto.a libz.a libncursesw.a; do
    echo "/usr/lib/$multiarch/$archive"
  done | { cat; gcc -print-file-name=libstdc++.a 2>/dev/null || true; } |
    while read -r archive; do
      [ -f "$archive" ] || continue
      package=$(dpkg -S "$(realpath "$archive")" 2>/dev/null | head -1 | cut -d: -f1) || continue
      [ -n "$package" ] &&
        dpkg-query -W -f='${source:Package} (= ${source:Version})\n' "$package"
    done | sort -u | paste -sd, | sed 's/,/, /g'
}

# The Debian packages of a binary's shared libraries. A library no Debian package has (the
# Swift runtime of a server built without --static-swift-stdlib) would be missing wherever
# the package is installed: that is an error unless DEB_ALLOW_UNPACKAGED_LIBS=1.
shlib_depends() {
  local binary=$1 lib path unpackaged=()
  while read -r lib path; do
    dpkg -S "$(realpath "$path")" >/dev/null 2>&1 || dpkg -S "$path" >/dev/null 2>&1 ||
      unpackaged+=("$lib ($path)")
  done < <(ldd "$binary" 2>/dev/null | awk '$2 == "=>" && $3 ~ /^\// { print $1, $3 }')
  if [ ${#unpackaged[@]} -gt 0 ]; then
    echo "$0: $binary needs libraries no Debian package provides: ${unpackaged[*]}" >&2
    if [ "${DEB_ALLOW_UNPACKAGED_LIBS:-0}" != 1 ]; then
      echo "  build it with --static-swift-stdlib (or set DEB_ALLOW_UNPACKAGED_LIBS=1)" >&2
      exit 1
    fi
  fi
  (cd "$stage" && dpkg-shlibdeps -O --ignore-missing-info "${binary#"$stage"/}" 2>/dev/null) |
    sed -n 's/^shlibs:Depends=//p'
}

# DEBIAN/control, after the files are in place: control PACKAGE FIELDS (one a line).
control() {
  local dir size
  dir=$(root "$1")
  size=$(du -s -k --apparent-size "$dir" | cut -f1)
  install -d "$dir/DEBIAN"
  {
    echo "Package: $1"
    echo "Version: $VERSION"
    echo "Architecture: $arch"
    echo "Maintainer: $maintainer"
    echo "Installed-Size: $size"
    cat
  } > "$dir/DEBIAN/control"
}

# Fixed modes and the commit's time on every file, then the package: build PACKAGE.
build() {
  local dir out
  dir=$(root "$1")
  find "$dir" -type d -exec chmod 755 {} +
  find "$dir" -type f ! -path "*/usr/bin/*" ! -path "*/DEBIAN/p*" -exec chmod 644 {} +
  (cd "$dir" && find . -type f ! -path './DEBIAN/*' -printf '%P\n' | sort | xargs -d '\n' md5sum) \
    > "$dir/DEBIAN/md5sums"
  chmod 644 "$dir/DEBIAN/md5sums"
  stamp "$dir"
  out=$DIST_DIR/${1}_${VERSION}_$arch.deb
  dpkg-deb --root-owner-group -Zxz --build "$dir" "$out" >/dev/null
  echo "$out"
}

# ctfo: the program, the bundled decks, its man page and completions.
ctfo=$(root ctfo)
install -d "$ctfo/usr/bin" "$ctfo/usr/share/ctfo/decks" \
  "$ctfo/usr/share/bash-completion/completions" "$ctfo/usr/share/zsh/vendor-completions" \
  "$ctfo/usr/share/fish/vendor_completions.d"
strip_to "$CTFO_BIN" "$ctfo/usr/bin/ctfo"
install -m 644 Resources/decks/*.jsonl "$ctfo/usr/share/ctfo/decks/"
# Without the generator's #! line: a completion file is sourced, not run.
complete() {
  env -i HOME="$stage" "$ctfo/usr/bin/ctfo" --generate-completion-script "$1" | sed '1{/^#!/d}' \
    > "$2"
}
complete bash "$ctfo/usr/share/bash-completion/completions/ctfo"
complete zsh "$ctfo/usr/share/zsh/vendor-completions/_ctfo"
complete fish "$ctfo/usr/share/fish/vendor_completions.d/ctfo.fish"
man_page ctfo ctfo.1
docs ctfo
gzip -9n < README.md > "$ctfo/usr/share/doc/ctfo/README.md.gz"
install -d "$ctfo/usr/share/lintian/overrides"
install -m 644 "$debian/ctfo.lintian-overrides" "$ctfo/usr/share/lintian/overrides/ctfo"
depends=$(shlib_depends "$ctfo/usr/bin/ctfo")
built_using=$(static_built_using)
control ctfo <<CONTROL
Section: utils
Priority: optional
${depends:+Depends: $depends
}${built_using:+Built-Using: $built_using
}Suggests: xdg-utils
Description: card feed for the terminal, like fortune that you can swipe
 ctfo shows one short card at a time: a fact, a rare word, a trivia question,
 a developer tip, a haiku, a joke, or a card of your own JSON Lines decks.
 Each arrow key answers the card and brings the next. Every card type comes up
 equally often, and no card repeats until its type has run out.
 .
 "ctfo next" prints the next card on its own, as fortune does, for shell
 start-up files. With a CTFO server (package ctfo-server), cards, scores and
 notifications come from it too.
CONTROL

# ctfo-server: the server, its man page, its systemd units, its user and its store.
server=$(root ctfo-server)
install -d "$server/usr/bin" "$server/usr/lib/systemd/system"
strip_to "$CTFO_SERVER_BIN" "$server/usr/bin/ctfo-server"
install -m 644 Resources/systemd/ctfo-server.service Resources/systemd/ctfo-server@.service \
  "$server/usr/lib/systemd/system/"
man_page ctfo-server ctfo-server.1
docs ctfo-server
depends=$(shlib_depends "$server/usr/bin/ctfo-server")
install -d "$server/DEBIAN"
for script in postinst prerm postrm; do
  install -m 755 "$debian/ctfo-server.$script" "$server/DEBIAN/$script"
done
control ctfo-server <<CONTROL
Section: net
Priority: optional
Depends: adduser${depends:+, $depends}
Recommends: ctfo (= $VERSION)
Description: CTFO server: cards, scores and notifications for ctfo
 ctfo-server serves the CTFO API to ctfo clients: the cards of its decks (by
 default the decks bundled with ctfo, which it recommends), their scores,
 notifications, and the clients' analytics events, with rate limits per
 install and per address. Its store is SQLite, or PostgreSQL shared by several
 servers.
 .
 The package runs it as the service ctfo-server on 127.0.0.1:8080, as the
 system user ctfo-server, with its store in /var/lib/ctfo-server;
 ctfo-server@PORT runs one server per port.
CONTROL

mkdir -p "$DIST_DIR"
debs=("$(build ctfo)" "$(build ctfo-server)")
printf '%s\n' "${debs[@]}"
# DEB_LINTIAN=0 skips the check (scripts/dist-test.sh, which runs it on the first build).
[ "${DEB_LINTIAN:-1}" = 0 ] || lintian --fail-on error "${debs[@]}"
