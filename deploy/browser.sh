#!/usr/bin/env bash
# Provisions what the page tests need, as deploy/pg-local.sh provisions PostgreSQL:
# a headless Chromium (Debian's `chromium`, with a font so text renders), axe-core,
# the accessibility checker the tests run inside each page, and poppler's `pdftotext`
# and `pdfinfo`, with which the printables' test reads the PDFs Chromium prints. Prints the settings as
# shell assignments for `eval`:
#
#   eval "$(bash deploy/browser.sh)"   # sets YANIV_CHROMIUM and YANIV_AXE_JS
#
# axe-core comes from the npm registry as its published tarball, pinned by version and
# checked against the registry's sha512 (no npm needed), and is kept in .local/.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
log() { printf '[browser] %s\n' "$*" >&2; }
die() { log "error: $*"; exit 1; }
# shellcheck source=deploy/apt-install.sh
source "$ROOT/deploy/apt-install.sh"

AXE_VERSION="4.10.3"
AXE_SHA512="Xm7bpRXnDSX2YE2YFfBk2FnF0ep6tmG7xPh8iHee8MIcrgq762Nkce856dYtJYLkuIoYZvGfTs/PbZhideTcEg=="
AXE_DIR="$ROOT/.local/axe-core-$AXE_VERSION"

chromium="${YANIV_CHROMIUM:-}"
if [ -z "$chromium" ]; then
    for candidate in chromium chromium-browser google-chrome; do
        if command -v "$candidate" >/dev/null 2>&1; then
            chromium="$(command -v "$candidate")"
            break
        fi
    done
fi
if [ -z "$chromium" ]; then
    apt_install "the page tests need a headless Chromium" \
        "install Chromium and set YANIV_CHROMIUM to its path" chromium fonts-dejavu-core
    chromium="$(command -v chromium)" || die "chromium is still not on PATH"
fi
if ! fc-list 2>/dev/null | grep -qi dejavu; then
    apt_install "pages render text in boxes without a font" \
        "install any TrueType font" fonts-dejavu-core
fi

if ! command -v pdftotext >/dev/null 2>&1 || ! command -v pdfinfo >/dev/null 2>&1; then
    apt_install "the printables' test reads their PDFs with pdftotext and pdfinfo" \
        "install poppler's command-line tools" poppler-utils
fi

if [ ! -s "$AXE_DIR/axe.min.js" ]; then
    command -v curl >/dev/null 2>&1 || apt_install "fetching axe-core needs curl" "install curl" curl
    log "fetching axe-core $AXE_VERSION from the npm registry"
    tmp="$(mktemp -d)"
    trap 'rm -rf "$tmp"' EXIT
    curl -fsSL --retry 3 -o "$tmp/axe.tgz" \
        "https://registry.npmjs.org/axe-core/-/axe-core-$AXE_VERSION.tgz" ||
        die "could not download axe-core $AXE_VERSION"
    actual="$(openssl dgst -sha512 -binary "$tmp/axe.tgz" 2>/dev/null | base64 -w0 ||
        python3 -c 'import base64,hashlib,sys; print(base64.b64encode(hashlib.sha512(open(sys.argv[1],"rb").read()).digest()).decode())' "$tmp/axe.tgz")"
    [ "$actual" = "$AXE_SHA512" ] || die "axe-core's tarball does not match its pinned sha512"
    tar -xzf "$tmp/axe.tgz" -C "$tmp" package/axe.min.js
    mkdir -p "$AXE_DIR"
    mv "$tmp/package/axe.min.js" "$AXE_DIR/axe.min.js"
fi

log "chromium: $("$chromium" --version 2>/dev/null || echo "$chromium")"
printf 'export YANIV_CHROMIUM=%q\n' "$chromium"
printf 'export YANIV_AXE_JS=%q\n' "$AXE_DIR/axe.min.js"
