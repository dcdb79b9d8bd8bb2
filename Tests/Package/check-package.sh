#!/usr/bin/env bash
# Checks a built espressomartini .deb the way an admin would meet it: the files it installs, the
# binary it ships (run with the Swift toolchain out of reach), the systemd unit, lintian, the man
# page against the real CLI, and the readiness notification to systemd.
#   Tests/Package/check-package.sh dist/espressomartini_VERSION_ARCH.deb
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
  ./lib/systemd/system/espressomartini@.service \
  ./usr/share/espressomartini/schemas/exchange-configuration.schema.json \
  ./usr/share/espressomartini/schemas/server-configuration.schema.json \
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
# The template has no instance until the admin names one: nothing may enable or start it.
grep -q 'espressomartini@' "$work/control/postinst" && fail "postinst touches the template unit" || pass "the template unit is left for the admin to instantiate"

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
# One more tree beside it, as an instance of the template would have it: /etc/espressomartini/shop/, whose
# configuration's requests folder resolves against its own folder.
mkdir -p "$work/instances/shop"
cp -r "$work/root/etc/espressomartini/configuration.json" "$work/root/etc/espressomartini/network-exchanges" "$work/instances/shop/"
if listing=$(run_isolated "$binary" endpoints --configuration "$work/instances/shop/configuration.json") && grep -q '^GET  *\/api\/hello' <<<"$listing"; then
  pass "endpoints lists an instance's tree beside its configuration"
else
  fail "endpoints on an instance's tree: $listing"
fi
if run_isolated python3 "$here/notify_ready.py" "$binary" "$configuration"; then
  pass "READY=1 reaches NOTIFY_SOCKET once the port answers; STOPPING=1 and exit 0 on SIGTERM"
else
  fail "readiness notification / short run"
fi
grep -qx 'MemoryDenyWriteExecute=yes' "$work/root/lib/systemd/system/espressomartini.service" \
  && pass "the unit keeps MemoryDenyWriteExecute=yes" || fail "the unit lost MemoryDenyWriteExecute=yes"
# JavaScriptCore is loaded only for a tree with a script, and runs without its JIT under that restriction.
readelf -d "$binary" | grep -q 'NEEDED.*javascriptcore' && fail "the binary links JavaScriptCore; it must load it with dlopen" \
  || pass "the binary does not link JavaScriptCore (loaded with dlopen for trees with scripts)"
dpkg-deb -f "$deb" Recommends | grep -q 'libjavascriptcoregtk-4.1-0' && pass "the package recommends libjavascriptcoregtk-4.1-0" \
  || fail "the package does not recommend libjavascriptcoregtk-4.1-0"
mdwe_status=0
run_isolated python3 "$here/script_under_mdwe.py" "$binary" || mdwe_status=$?
case $mdwe_status in
  0) pass "a script answers with memory denied write+execute, as under MemoryDenyWriteExecute=yes" ;;
  2) echo "skip: this kernel cannot deny write+execute memory (PR_SET_MDWE, Linux 6.3)" ;;
  *) fail "a script under MemoryDenyWriteExecute's restriction" ;;
esac
# Without the library, a tree with a script is a load error that names the package to install.
library=$(ldconfig -p | sed -n 's/.*libjavascriptcoregtk-4\.1\.so\.0 .*=> //p' | head -n 1)
if [ -n "$library" ] && unshare --mount true 2>/dev/null; then
  mkdir -p "$work/scripted/network-exchanges/GET"
  echo '{"javascript": "function response() { return Response.ok(); }"}' > "$work/scripted/network-exchanges/GET/configuration.json"
  missing=$(cd "$work/scripted" && unshare --mount sh -c 'mount --bind /dev/null "$0" && exec env -i PATH=/usr/bin:/bin "$@"' \
    "$library" "$binary" endpoints 2>&1 || true)
  grep -q 'install the Debian package libjavascriptcoregtk-4.1-0' <<<"$missing" \
    && pass "without JavaScriptCore, a tree with a script is a load error naming the package" || fail "without JavaScriptCore: $missing"
else
  echo "skip: cannot hide JavaScriptCore here (needs the library installed and a private mount namespace)"
fi

echo "== the systemd units"
# verify wants the ExecStart binary to exist: check copies pointing at the extracted one. The template
# is checked as it is and as the instance espressomartini@shop.
units=$work/units
mkdir -p "$units"
for name in espressomartini.service espressomartini@.service espressomartini@shop.service; do
  source_unit=$work/root/lib/systemd/system/${name/@shop/@}
  sed "s|/usr/bin/espressomartini|$binary|" "$source_unit" > "$units/$name"
  verify=$(systemd-analyze verify --man=no "$units/$name" 2>&1 || true)
  [ -z "$verify" ] && pass "$name: systemd-analyze verify prints nothing" || fail "$name: systemd-analyze verify: $verify"
  security=$(systemd-analyze security --offline=true "$units/$name" 2>&1 | tail -n 1)
  exposure=$(sed -n 's/.*exposure level for [^:]*: *\([0-9.]*\).*/\1/p' <<<"$security")
  if [ -n "$exposure" ] && awk -v e="$exposure" 'BEGIN { exit !(e <= 2.0) }'; then
    pass "$name: exposure $exposure (at most 2.0)"
  else
    fail "$name: exposure: $security"
  fi
done
grep -qx 'ExecStart=/usr/bin/espressomartini run --configuration /etc/espressomartini/%i/configuration.json' \
  "$work/root/lib/systemd/system/espressomartini@.service" \
  && pass "espressomartini@NAME serves /etc/espressomartini/NAME/configuration.json" || fail "the template's ExecStart"
# Both units harden alike: the template differs only in its comments, Description and ExecStart.
hardening() { grep -v -e '^#' -e '^Description=' -e '^ExecStart=' "$1"; }
if diff <(hardening "$work/root/lib/systemd/system/espressomartini.service") <(hardening "$work/root/lib/systemd/system/espressomartini@.service") >/dev/null; then
  pass "the template unit has the plain unit's settings"
else
  fail "the template unit's settings differ from the plain unit's"
fi

# A ceiling on the service's memory, below which each script call is bounded by script_memory.
if grep -qx 'MemoryHigh=1G' "$work/root/lib/systemd/system/espressomartini.service" \
  && grep -qx 'MemoryMax=2G' "$work/root/lib/systemd/system/espressomartini.service"; then
  pass "the units bound the service's memory (MemoryHigh=1G, MemoryMax=2G)"
else
  fail "the unit lost MemoryHigh=1G or MemoryMax=2G"
fi

echo "== lintian"
if lintian_output=$(lintian --fail-on error,warning "$deb" 2>&1) && ! grep -qE '^[EW]: ' <<<"$lintian_output"; then
  pass "lintian: no errors, no warnings"
else
  fail "lintian: $lintian_output"
fi

echo "== the man page against the real CLI"
man_flags=$(zcat "$work/root/usr/share/man/man1/espressomartini.1.gz" | sed 's/\\-/-/g' | grep -o -- '--[a-z][a-z-]*' | sort -u)
# Every subcommand the top-level help lists, so that a new one is checked without a change here.
commands=$(run_isolated "$binary" --help | sed -n '/^SUBCOMMANDS:/,/^$/s/^  \([a-z][a-z-]*\) .*/\1/p')
help_flags=$(for command in "" $commands; do run_isolated "$binary" $command --help; done | grep -o -- '--[a-z][a-z-]*' | sort -u)
missing_in_man=$(comm -13 <(echo "$man_flags") <(echo "$help_flags"))
unknown_in_man=$(comm -23 <(echo "$man_flags") <(echo "$help_flags"))
[ -z "$missing_in_man" ] && pass "the man page documents every flag" || fail "flags missing from the man page: $missing_in_man"
[ -z "$unknown_in_man" ] && pass "the man page names no flag the CLI lacks" || fail "flags in the man page the CLI lacks: $unknown_in_man"

echo
if [ "$failures" -eq 0 ]; then echo "check-package: all checks passed"; else echo "check-package: $failures check(s) failed"; exit 1; fi
