# The suites' PATH: a folder of links to exactly the programs a test may start, so that a test which starts
# anything scripts/test did not install fails on this machine as it would on a fresh one. Sourced by
# scripts/test.
#
# What a fresh machine of this kind has: Debian's base (its essential and required packages, what debootstrap's
# minbase installs: coreutils, grep, sed, mawk, util-linux…), the Swift toolchain with what it calls (the linker
# from binutils, which the machine's gcc brings, and git for packages), and CPython. What scripts/test installs: `suite_programs` below,
# each with its Debian package.
# Nothing else is on the suites' PATH: not /usr/local/bin, not the other programs in /usr/bin that this machine
# happens to have (ImageMagick's `convert` was one: it passed here and failed on a fresh machine).

# "program package": what the suites start by name, and the Debian package scripts/test installs it from.
suite_programs=(
  "curl curl"
  "nginx nginx-light"                # two nodes behind nginx (scripts/nodes-test)
  "chromium chromium"                # the browser stories
  "chromedriver chromium-driver"
  "dbus-daemon dbus-daemon"          # the Web Push story's desktop notification server (Tests/Browser)
  "exiftool libimage-exiftool-perl"  # the photo tests write and read metadata
  "pkg-config pkg-config"            # `swift test` reads the package, whose C libraries pkg-config finds
)

# The Debian packages of `suite_programs` whose program is missing.
suite_programs_missing() {
  local entry
  for entry in "${suite_programs[@]}"; do
    set -- $entry
    command -v "$1" >/dev/null 2>&1 || echo "$2"
  done
}

# Makes the folder $1 and fills it with links; prints the PATH the suites run with.
make_suite_path() {
  local dir=$1 entry file found
  mkdir -p "$dir"
  local base
  base=$(dpkg-query -W -f='${Package} ${Essential} ${Priority}\n' \
    | awk '$2 == "yes" || $3 == "required" || $1 ~ /^binutils/ || $1 == "git" { print $1 }')
  # shellcheck disable=SC2086  # one package name a word
  dpkg -L $base 2>/dev/null | grep -E '^(/usr)?/s?bin/[^/]+$' | while read -r file; do
    [ -x "$file" ] && [ ! -d "$file" ] && ln -sf "$file" "$dir/${file##*/}"
  done
  # The names update-alternatives gives those programs (awk for mawk, which for which.debianutils).
  for file in /usr/bin/* /usr/sbin/*; do
    [ -L "$file" ] && [ ! -e "$dir/${file##*/}" ] || continue
    found=$(readlink -f "$file")
    [ -e "$dir/${found##*/}" ] && [ "$(readlink -f "$dir/${found##*/}")" = "$found" ] \
      && ln -s "$found" "$dir/${file##*/}"
  done
  for entry in "${suite_programs[@]}"; do
    set -- $entry
    found=$(command -v "$1") || { echo "scripts/test did not install $1 (Debian's $2)" >&2; return 1; }
    ln -sf "$found" "$dir/$1"
  done
  # CPython as the machine has it (pyenv's shims call pyenv, which is not on this PATH): the interpreter itself.
  found=$(python3 -c 'import sys; print(sys.executable)')
  ln -sf "$found" "$dir/python3"
  ln -sf "$found" "$dir/python"
  echo "$dir:$(dirname "$(readlink -f "$(command -v swift)")")"
}
