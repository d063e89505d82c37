#!/usr/bin/env bash
# `l9kit conform` against a server: here `l9kit serve` itself, which must pass. Point
# --base-url at your own server to judge it (see docs/conformance.md).
set -euo pipefail
. "$(dirname "$0")/serve-helper.sh"
# The demo pro key lifts the anonymous rate limit, so the run is quick.
$L9KIT conform --base-url "$BASE_URL" --api-key l9kit-demo-pro --domain example.com --rate auto --max-examples 3 "$@"
