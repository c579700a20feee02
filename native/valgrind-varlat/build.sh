#!/usr/bin/env bash
# Builds the variable-latency memcheck (ngcc-varlat.patch on Debian's valgrind 3.19.0-1) under a prefix of the
# project's own, /opt/ngcc-valgrind unless NGCC_VARLAT_PREFIX says otherwise; the system valgrind is not touched.
# Cached: the prefix holds a stamp naming the source version and the patch's SHA-256, and nothing is rebuilt while
# the stamp matches and the installed memcheck accepts --variable-latency-errors=yes. Only what the constant-time
# step runs is built (the core, memcheck, 64-bit only): a few minutes on 2 cores. The new tree is staged beside the
# prefix and renamed into place, so an interrupted build leaves the old one (or none), never half of one.
# As root on Debian 12 (bookworm). Usage: native/valgrind-varlat/build.sh [--check]
#   --check  only say whether the cached build is current (exit 0) or not (exit 1)
set -euo pipefail

here="$(cd "$(dirname "$0")" && pwd)"
prefix="${NGCC_VARLAT_PREFIX:-/opt/ngcc-valgrind}"
version="1:3.19.0-1"
patch_file="$here/ngcc-varlat.patch"
key="valgrind $version; ngcc-varlat.patch $(sha256sum "$patch_file" | cut -d' ' -f1)"
stamp="$prefix/ngcc-varlat.stamp"

current() {
  [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$key" ] &&
    "$prefix/bin/valgrind" --tool=memcheck --variable-latency-errors=yes -q /bin/true >/dev/null 2>&1
}

if current; then
  echo "ngcc-varlat: $prefix is current ($key)"
  exit 0
fi
if [ "${1:-}" = "--check" ]; then
  echo "ngcc-varlat: $prefix is missing or out of date (want: $key)"
  exit 1
fi

echo "ngcc-varlat: building memcheck with the variable-latency patch into $prefix ($key)"
export DEBIAN_FRONTEND=noninteractive
# Debian's source of valgrind: a deb-src entry for this release's suites, unless one is configured already.
if ! grep -rqsE '^(Types:.*deb-src|deb-src )' /etc/apt/sources.list /etc/apt/sources.list.d/; then
  codename="$(. /etc/os-release && echo "${VERSION_CODENAME:?no VERSION_CODENAME in /etc/os-release}")"
  printf 'Types: deb-src\nURIs: http://deb.debian.org/debian\nSuites: %s %s-updates\nComponents: main\nSigned-By: /usr/share/keyrings/debian-archive-keyring.gpg\n' \
    "$codename" "$codename" >/etc/apt/sources.list.d/ngcc-perf-src.sources
fi
apt-get update -qq
# dpkg-dev unpacks the source package (dpkg-source); the build needs only a C compiler and make: configure is
# shipped generated, and the parts that need more (documentation, 32-bit, the other tools) are not built.
apt-get install -y -qq --no-install-recommends dpkg-dev gcc libc6-dev make patch >/dev/null

work="$(mktemp -d /tmp/ngcc-varlat.XXXXXX)"
stage="$prefix.staging.$$"
trap 'rm -rf "$work" "$stage"' EXIT
log="$work/build.log"
# The compiler's output goes to a log, shown (its end) only when a step fails.
quiet() {
  "$@" >>"$log" 2>&1 || {
    tail -n 40 "$log" >&2
    echo "ngcc-varlat: failed: $*" >&2
    exit 1
  }
}
cd "$work"
apt-get source -qq "valgrind=$version" >/dev/null 2>&1 || apt-get source -qq "valgrind=${version#1:}" >/dev/null
cd valgrind-3.19.0
quiet patch -p1 --forward -i "$patch_file"
# Makefiles must not try to regenerate configure (the patch does not touch the build system).
find . \( -name 'configure' -o -name 'Makefile.in' -o -name 'config.h.in' -o -name 'aclocal.m4' \) -exec touch {} +
quiet ./configure --prefix="$prefix" --enable-only64bit
jobs="$(nproc 2>/dev/null || echo 2)"
# The generated files the top level makes (the version header, the default suppressions), then the subfolders
# in the top level's order; installed the same way, the suppressions into the tools' folder.
quiet make include/vgversion.h default.supp
for dir in include VEX coregrind memcheck; do
  quiet make -j"$jobs" -C "$dir"
done
for dir in include VEX coregrind memcheck; do
  quiet make -C "$dir" install DESTDIR="$stage"
done
quiet make install-vglibDATA DESTDIR="$stage"
built="$stage$prefix"
printf '%s\n' "$key" >"$built/ngcc-varlat.stamp"
# The build is checked where it will live: the launcher has the prefix compiled in, so VALGRIND_LIB points it at
# the staged tools until the rename.
VALGRIND_LIB="$built/libexec/valgrind" "$built/bin/valgrind" --tool=memcheck --variable-latency-errors=yes -q /bin/true
old="$prefix.old.$$"
if [ -e "$prefix" ]; then mv "$prefix" "$old"; fi
mv "$built" "$prefix"
rm -rf "$old"
current || {
  echo "ngcc-varlat: the installed build does not run" >&2
  exit 1
}
echo "ngcc-varlat: built $prefix ($key)"
