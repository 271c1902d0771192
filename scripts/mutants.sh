#!/usr/bin/env bash
# Puts each small bug of Tests/Mutants/*.patch into a scratch copy of the tree, one at a time,
# runs the unit suites that cover it, and says whether they caught it. Usage:
#   scripts/mutants.sh [PREFIX...]     (every mutant when none is named; e.g. `03 17`)
# A patch is `git diff` output after two header lines:
#   Mutant: what the bug does
#   Tests: the `swift test --filter` expression of the suites that cover the code
# The copy is .build-mutants/tree, its build folder .build-mutants/build: both persist, so each
# mutant costs an incremental build. Logs in .build-mutants/logs. Each mutant is "killed",
# "SURVIVED", "did not build" or "DID NOT APPLY" (the code moved on: refresh the patch). Exits 1
# when any survived, 2 when the tree itself does not build or its suites fail unmutated.
set -uo pipefail
cd "$(dirname "$0")/.."
root=$PWD
swift=${SWIFT:-swift}
work=$root/.build-mutants
tree=$work/tree
scratch=$work/build
logs=$work/logs
# A mutant that makes a suite loop forever is caught by the clock.
limit=${MUTANT_TEST_SECONDS:-900}
mkdir -p "$tree" "$logs"
rm -f "$logs"/*.log

# The files of the working tree (tracked, and new files not ignored) and the resolved versions.
files() {
  git ls-files -co --exclude-standard | while read -r f; do [ -f "$f" ] && echo "$f"; done
  [ -f Package.resolved ] && echo Package.resolved
}

# Makes the copy equal to the working tree, copying only what differs: a file copied again gets
# a new inode, which the build takes for a change, and a whole copy would rebuild everything.
sync_tree() {
  files | sort > "$work/files"
  while read -r f; do
    if ! cmp -s "$f" "$tree/$f"; then
      mkdir -p "$tree/$(dirname "$f")"
      cp -p "$f" "$tree/$f"
    fi
  done < "$work/files"
  (cd "$tree" && find . -type f | sed 's|^\./||' | sort) \
    | comm -23 - "$work/files" | while read -r f; do rm -f "$tree/$f"; done
}

# Puts back the files a patch changed.
restore() {
  for f in $(sed -n 's|^+++ b/||p' "$1"); do cp -p "$f" "$tree/$f" 2> /dev/null; done
}

build() {
  (cd "$tree" && "$swift" build --scratch-path "$scratch" --product ctfoPackageTests) > "$1" 2>&1
}

unit() {
  (cd "$tree" && timeout "$limit" "$swift" test --scratch-path "$scratch" --skip-build \
    --skip EndToEndTests --filter "$1") > "$2" 2>&1
}

field() { sed -n "s/^$1: //p" "$2" | head -n 1; }

patches=()
if [ $# -eq 0 ]; then
  patches=(Tests/Mutants/*.patch)
else
  for prefix in "$@"; do patches+=(Tests/Mutants/"$prefix"*.patch); done
fi

start=$(date +%s)
echo "syncing $tree"
sync_tree
echo "building the unmutated tree (log: $logs/baseline-build.log)"
if ! build "$logs/baseline-build.log"; then
  tail -n 30 "$logs/baseline-build.log" >&2
  echo "the unmutated tree does not build" >&2
  exit 2
fi
# Every filter must name some tests, and those tests must pass before any mutant is judged.
(cd "$tree" && "$swift" test list --scratch-path "$scratch" --skip-build) > "$work/tests" 2>&1
filters=()
for patch in "${patches[@]}"; do
  filter=$(field Tests "$patch")
  if [ -z "$filter" ] || ! grep -Eq "$filter" "$work/tests"; then
    echo "$patch: its Tests line '$filter' names no test" >&2
    exit 2
  fi
  filters+=("$filter")
done
union=$(printf '%s\n' "${filters[@]}" | sort -u | paste -sd '|')
echo "running the suites of the mutants on the unmutated tree (log: $logs/baseline-test.log)"
if ! unit "$union" "$logs/baseline-test.log"; then
  tail -n 30 "$logs/baseline-test.log" >&2
  echo "the suites fail without a mutant: fix them first" >&2
  exit 2
fi

killed=0 survived=0 unbuilt=0 unapplied=0
for patch in "${patches[@]}"; do
  name=$(basename "$patch" .patch)
  filter=$(field Tests "$patch")
  began=$(date +%s)
  # A patch is applied in the copy alone: the ceiling keeps git from finding the repository
  # around it.
  if ! GIT_CEILING_DIRECTORIES=$work git -C "$tree" apply "$root/$patch" \
    > "$logs/$name.log" 2>&1; then
    fate="DID NOT APPLY"
    unapplied=$((unapplied + 1))
  elif ! build "$logs/$name.build.log"; then
    fate="did not build"
    unbuilt=$((unbuilt + 1))
  else
    unit "$filter" "$logs/$name.log"
    case $? in
      0) fate="SURVIVED" ;;
      124) fate="killed (timed out)" ;;
      *) fate="killed" ;;
    esac
    if [ "$fate" = SURVIVED ]; then survived=$((survived + 1)); else killed=$((killed + 1)); fi
  fi
  restore "$patch"
  printf '%-44s %-18s %4ds  %s\n' "$name" "$fate" $(($(date +%s) - began)) "$(field Mutant "$patch")"
done

judged=$((killed + survived))
echo
echo "$killed killed, $survived survived, $unbuilt did not build, $unapplied did not apply" \
  "($((judged > 0 ? 100 * killed / judged : 0)) % of those that ran killed) in" \
  "$(( ($(date +%s) - start) / 60 )) min"
[ "$unapplied" -eq 0 ] || echo "refresh the patches that did not apply (Tests/Mutants/README.md)"
[ "$survived" -eq 0 ] || exit 1
