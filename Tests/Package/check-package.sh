#!/usr/bin/env bash
# Checks a built espressomartini .deb the way an admin would meet it: the files it installs, the
# binary it ships (run with the Swift toolchain out of reach), the systemd unit, lintian, the man
# page against the real CLI, and the readiness notification to systemd.
#   tests/package/check-package.sh dist/espressomartini_VERSION_ARCH.deb
set -euo pipefail
deb=$1
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failures=0
pass() { echo "ok: $*"; }
fail() { echo "FAIL: $*" >&2; failures=$((failures + 1)); }

echo "== contents of $deb"
contents=$(dpkg-deb -c "$deb" | awk '{print $6}')
for path in \
  ./usr/bin/espressomartini \
  ./lib/systemd/system/espressomartini.service \
  ./etc/espressomartini/configuration.json \
  ./etc/espressomartini/network-exchanges/api/hello/GET/configuration.json \
  ./usr/share/man/man1/espressomartini.1.gz \
  ./usr/share/bash-completion/completions/espressomartini \
  ./usr/share/zsh/vendor-completions/_espressomartini \
  ./usr/share/fish/vendor_completions.d/espressomartini.fish \
  ./usr/share/doc/espressomartini/copyright; do
  grep -qx -- "$path" <<<"$contents" && pass "ships $path" || fail "does not ship $path"
done
dpkg-deb -e "$deb" "$work/control"
grep -qx /etc/espressomartini/configuration.json "$work/control/conffiles" && pass "configuration.json is a conffile" || fail "configuration.json is not a conffile"
grep -q 'deb-systemd-helper enable espressomartini.service\|deb-systemd-helper.*enable.*espressomartini.service' "$work/control/postinst" \
  && pass "the unit is enabled on install" || fail "postinst does not enable the unit"

echo "== the shipped binary, without the Swift toolchain"
dpkg-deb -x "$deb" "$work/root"
binary=$work/root/usr/bin/espressomartini
if ldd "$binary" | grep -qi swift; then fail "links Swift libraries: $(ldd "$binary" | grep -i swift)"; else pass "ldd shows no Swift library"; fi
# A clean environment without the toolchain on PATH; where a private mount namespace is possible,
# the toolchain folder is also hidden behind an empty one.
swift_root=$(dirname "$(dirname "$(dirname "$(readlink -f "$(command -v swift 2>/dev/null || echo /nonexistent/x/y/z)")")")")
run_isolated() {
  if [ -d "$swift_root" ] && [ "$swift_root" != / ] && unshare --mount true 2>/dev/null; then
    unshare --mount sh -c 'mount -t tmpfs none "$0" && exec env -i PATH=/usr/bin:/bin "$@"' "$swift_root" "$@"
  else
    env -i PATH=/usr/bin:/bin "$@"
  fi
}
package_version=$(dpkg-deb -f "$deb" Version)
binary_version=$(run_isolated "$binary" --version)
[ "$binary_version" = "$package_version" ] && pass "--version $binary_version matches the package version" \
  || fail "--version says '$binary_version', the package '$package_version'"
configuration=$work/root/etc/espressomartini/configuration.json
if listing=$(run_isolated "$binary" endpoints --configuration "$configuration") && grep -q '^GET  *\/api\/hello' <<<"$listing"; then
  pass "endpoints lists the shipped example tree"
else
  fail "endpoints on the shipped tree: $listing"
fi
if run_isolated python3 "$here/notify_ready.py" "$binary" "$configuration"; then
  pass "READY=1 reaches NOTIFY_SOCKET once the port answers; STOPPING=1 and exit 0 on SIGTERM"
else
  fail "readiness notification / short run"
fi

echo "== the systemd unit"
unit=$work/root/lib/systemd/system/espressomartini.service
# verify wants the ExecStart binary to exist: check a copy pointing at the extracted one.
sed "s|/usr/bin/espressomartini|$binary|" "$unit" > "$work/espressomartini.service"
verify=$(systemd-analyze verify --man=no "$work/espressomartini.service" 2>&1 || true)
[ -z "$verify" ] && pass "systemd-analyze verify prints nothing" || fail "systemd-analyze verify: $verify"
security=$(systemd-analyze security --offline=true "$unit" 2>&1 | tail -n 1)
exposure=$(sed -n 's/.*exposure level for [^:]*: *\([0-9.]*\).*/\1/p' <<<"$security")
if [ -n "$exposure" ] && awk -v e="$exposure" 'BEGIN { exit !(e <= 2.0) }'; then
  pass "exposure $exposure (at most 2.0)"
else
  fail "exposure: $security"
fi

echo "== lintian"
if lintian_output=$(lintian --fail-on error,warning "$deb" 2>&1) && ! grep -qE '^[EW]: ' <<<"$lintian_output"; then
  pass "lintian: no errors, no warnings"
else
  fail "lintian: $lintian_output"
fi

echo "== the man page against the real CLI"
man_flags=$(zcat "$work/root/usr/share/man/man1/espressomartini.1.gz" | sed 's/\\-/-/g' | grep -o -- '--[a-z][a-z-]*' | sort -u)
help_flags=$(for command in "" run endpoints; do run_isolated "$binary" $command --help; done | grep -o -- '--[a-z][a-z-]*' | sort -u)
missing_in_man=$(comm -13 <(echo "$man_flags") <(echo "$help_flags"))
unknown_in_man=$(comm -23 <(echo "$man_flags") <(echo "$help_flags"))
[ -z "$missing_in_man" ] && pass "the man page documents every flag" || fail "flags missing from the man page: $missing_in_man"
[ -z "$unknown_in_man" ] && pass "the man page names no flag the CLI lacks" || fail "flags in the man page the CLI lacks: $unknown_in_man"

echo
if [ "$failures" -eq 0 ]; then echo "check-package: all checks passed"; else echo "check-package: $failures check(s) failed"; exit 1; fi
