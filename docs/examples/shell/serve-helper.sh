# Shared by the shell examples (sourced, not run): starts `l9kit serve` on a free loopback
# port with its built-in demo data, sets BASE_URL, and stops the server on exit.
# L9KIT names the command (default: l9kit; the tests use `node dist/cli/main.js`).
L9KIT=${L9KIT:-l9kit}
serve_log=$(mktemp "${TMPDIR:-/tmp}/l9kit-serve.XXXXXX")
$L9KIT serve --port 0 >"$serve_log" 2>&1 &
serve_pid=$!
trap 'kill "$serve_pid" 2>/dev/null; wait "$serve_pid" 2>/dev/null; rm -f "$serve_log"' EXIT INT TERM
# The first line is 'listening on http://HOST:PORT'; wait for it at most 20 s.
BASE_URL=''
for _ in $(seq 1 200); do
  BASE_URL=$(sed -n 's/^listening on //p' "$serve_log")
  [ -n "$BASE_URL" ] && break
  kill -0 "$serve_pid" 2>/dev/null || break
  sleep 0.1
done
if [ -z "$BASE_URL" ]; then
  echo "l9kit serve did not start:" >&2
  cat "$serve_log" >&2
  exit 2
fi
