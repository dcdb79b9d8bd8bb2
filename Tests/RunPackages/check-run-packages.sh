#!/usr/bin/env bash
# Does `make run` install every Debian package the example tree needs at run time? The binary links few
# libraries and loads others with dlopen only when a tree needs them (JavaScriptCore for scripts, libyaml
# for a YAML body), so a machine that has run `make test` has them all and cannot tell. This check serves the
# example tree with BINARY, makes it load what it loads for the tree's scripts and a YAML body (and imports a YAML
# OpenAPI description, which needs the same libyaml), lists the
# shared libraries mapped into the process, and fails for each one whose Debian package `make run` does not
# install (named in its package lists, or pulled in by one of them, or part of every Debian system).
# Usage: check-run-packages.sh BINARY   (from the repository root; needs dpkg and apt-cache)
set -euo pipefail
binary=${1:?usage: check-run-packages.sh BINARY}
work=$(mktemp -d)
server=""
cleanup() { [ -n "$server" ] && kill "$server" 2>/dev/null; rm -rf "$work"; }
trap cleanup EXIT

# What `make run` installs: every package list it hands to apt.
make -n run 2>/dev/null | grep -o 'PACKAGES="[^"]*"' | sed 's/PACKAGES="\(.*\)"/\1/' | tr ' ' '\n' | sed '/^$/d' | sort -u > "$work/named"
[ -s "$work/named" ] || { echo "check-run-packages: 'make -n run' names no package to install"; exit 1; }
# ... and what those pull in, and what every Debian system has (priority required).
apt-cache depends --recurse --no-recommends --no-suggests --no-conflicts --no-breaks --no-replaces --no-enhances \
  $(cat "$work/named") 2>/dev/null | grep -v '^ ' | grep -v '^<' | sed 's/:.*//' > "$work/installed"
dpkg-query -W -f='${Package} ${Priority}\n' | awk '$2 == "required" { print $1 }' >> "$work/installed"
sort -u -o "$work/installed" "$work/installed"

# The example tree, served on a free port; its scripts load JavaScriptCore at once.
"$binary" run --port 0 --log-level ERROR > "$work/out" 2> "$work/err" &
server=$!
for _ in $(seq 1 100); do grep -q 'listening on' "$work/out" && break; kill -0 "$server" 2>/dev/null || break; sleep 0.1; done
url=$(sed -n 's/^espressomartini listening on //p' "$work/out")
[ -n "$url" ] || { echo "check-run-packages: the example tree was not served:"; cat "$work/err"; exit 1; }
status() { curl -s -o /dev/null -w '%{http_code}' --max-time 5 "$@"; }
# A script answers; the session's login, then a YAML body for the cart (libyaml is loaded for it).
[ "$(status "$url/api/v1/me")" = 401 ] || { echo "check-run-packages: GET /api/v1/me is not the script's 401"; exit 1; }
[ "$(status --json '{"username":"ada","password":"espresso"}' "$url/api/v1/session")" = 201 ] \
  || { echo "check-run-packages: POST /api/v1/session did not log in"; exit 1; }
yaml_status=$(status -H 'Content-Type: application/yaml' --data-binary $'id: espresso-cup\nquantity: 2\n' "$url/api/v1/me/cart")
[ "$yaml_status" = 200 ] || { echo "check-run-packages: a YAML cart item got $yaml_status, not 200"; exit 1; }

# `import openapi` reads a YAML description with the same libyaml, loaded the same way.
"$binary" import openapi Tests/OpenAPI/Fixtures/oai/v3.0/petstore.yaml --requests-folder "$work/imported" > /dev/null 2> "$work/import-err" \
  || { echo "check-run-packages: import openapi of a YAML description failed:"; cat "$work/import-err"; exit 1; }

# Every shared library mapped, by package; the Swift toolchain's own (a debug build's runtime) are the
# toolchain's business, not apt's.
toolchain=$(dirname "$(dirname "$(readlink -f "$(command -v swift)")")")
missing=0
needed=""
for library in $(grep -o '/[^ ]*\.so[^ ]*' "/proc/$server/maps" | sort -u); do
  case "$library" in "$toolchain"/*) continue ;; esac
  owner=$(dpkg -S "$library" 2>/dev/null || dpkg -S "${library#/usr}" 2>/dev/null || true)
  package=${owner%%:*}
  if [ -z "$package" ]; then
    echo "check-run-packages: $library belongs to no Debian package"; missing=1; continue
  fi
  needed="$needed $package"
  grep -qx "$package" "$work/installed" || {
    echo "check-run-packages: the example tree loads $library from $package, which 'make run' does not install: add it to RUN_PACKAGES in the Makefile"
    missing=1
  }
done
echo "check-run-packages: the example tree loads libraries from:$(echo "$needed" | tr ' ' '\n' | sort -u | tr '\n' ' ')"
exit $missing
