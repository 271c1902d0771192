# Sourced by scripts/dist.sh, deb.sh and dist-test.sh: the binaries a release takes, its version
# and its timestamp. The binaries are the ones `make build` leaves; nothing here builds.
CTFO_BIN=${CTFO_BIN:-.build/release/ctfo}
CTFO_SERVER_BIN=${CTFO_SERVER_BIN:-.build/server/release/ctfo-server}
# Where the archive and the packages go (scripts/dist-test.sh builds them again elsewhere).
DIST_DIR=${DIST_DIR:-dist}
for bin in "$CTFO_BIN" "$CTFO_SERVER_BIN"; do
  [ -x "$bin" ] || { echo "$0: $bin is missing: run make build first" >&2; exit 1; }
done
# `ctfo --version` prints `0.3.0 (abc1234)`: the version is its first word.
VERSION=$(env -i "$CTFO_BIN" --version | awk 'NR == 1 { print $1 }')
case $VERSION in
  [0-9]*.[0-9]*) ;;
  *) echo "$0: $CTFO_BIN --version printed no version" >&2; exit 1 ;;
esac
# Both binaries must say what they were built from, and say the same (scripts/build-info.sh).
DEPENDENCIES=$(env -i "$CTFO_BIN" --version --verbose)
if [ "$(printf '%s\n' "$DEPENDENCIES" | wc -l)" -lt 3 ]; then
  echo "$0: $CTFO_BIN --version --verbose lists no dependencies: build it with make" >&2
  exit 1
elif [ "$(env -i "$CTFO_SERVER_BIN" --version --verbose)" != "$DEPENDENCIES" ]; then
  echo "$0: $CTFO_BIN and $CTFO_SERVER_BIN were built from different commits or packages" \
    "(--version --verbose): run make build" >&2
  exit 1
fi
# Every file of a release takes the last commit's time, so that one commit gives the same bytes
# (outside git, as in an unpacked source archive: CHANGELOG.md's time).
SOURCE_DATE_EPOCH=${SOURCE_DATE_EPOCH:-$(
  git log -1 --format=%ct 2>/dev/null || stat -c %Y CHANGELOG.md)}
export SOURCE_DATE_EPOCH
# Bytes that do not depend on the locale or the umask of the machine that packs them.
export LC_ALL=C TZ=UTC
umask 022

# Installs the Debian packages of the commands missing, as scripts/install-deps.sh does (apt-get
# when run as root): need COMMAND:PACKAGE...
need() {
  local pair missing=()
  for pair in "$@"; do
    command -v "${pair%%:*}" >/dev/null || missing+=("${pair#*:}")
  done
  [ ${#missing[@]} -eq 0 ] && return
  if [ "$(id -u)" -ne 0 ]; then
    echo "$0: missing system packages: ${missing[*]}" >&2
    echo "install them with: sudo apt-get install ${missing[*]}" >&2
    exit 1
  fi
  echo "installing: ${missing[*]}"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
}
need strip:binutils

# Copies a binary without its symbols and debug sections: strip_to SOURCE DEST.
strip_to() {
  strip --strip-all --remove-section=.comment --remove-section=.note -o "$2" "$1"
  chmod 755 "$2"
}

# Gives every file and folder under a tree the release's time: stamp DIR.
stamp() {
  find "$1" -exec touch -h -d "@$SOURCE_DATE_EPOCH" {} +
}
