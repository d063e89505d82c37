#!/usr/bin/env bash
# The lookup API with curl against `l9kit serve` (demo data and demo keys): a host lookup, a
# domain lookup with a key, subdomains, an error answer, and the web view's page for a browser.
# The anonymous plan is rate-limited (429 with x-limited-for), so most calls use the demo pro key.
set -euo pipefail
. "$(dirname "$0")/serve-helper.sh"

echo "== GET /host/:ip (anonymous)"
curl -fsS "$BASE_URL/host/192.0.2.10" | cut -c1-300

echo "== GET /domain/:domain with the demo registered key"
curl -fsS -H 'api-key: l9kit-demo-registered' "$BASE_URL/domain/example.com" | cut -c1-300

echo "== GET /api/subdomains/:domain"
curl -fsS -H 'api-key: l9kit-demo-pro' "$BASE_URL/api/subdomains/example.com" | cut -c1-300

echo "== a malformed IP is 400 with a JSON error body"
answer=$(curl -sS -w '\n%{http_code}' -H 'api-key: l9kit-demo-pro' "$BASE_URL/host/300.1.1.1")
status=${answer##*$'\n'}
echo "${answer%$'\n'*}"
[ "$status" = 400 ] || { echo "expected 400, got $status" >&2; exit 1; }

echo "== the same lookup from a browser is a page"
type=$(curl -fsS -o /dev/null -w '%{content_type}' -H 'accept: text/html' "$BASE_URL/host/192.0.2.11")
echo "$type"; case "$type" in text/html*) ;; *) echo "expected text/html" >&2; exit 1 ;; esac
