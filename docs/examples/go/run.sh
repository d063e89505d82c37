#!/bin/sh
# Generates Go types from schema/event.schema.json with quicktype, compiles them with the Go
# standard library only (no module downloads), and round-trips every document given (default:
# corpus/valid/*.json): each must decode into the generated Event and encode back with every
# member intact. Exit status: 0 all survived, 1 a member was lost or changed, 2 a tool failed.
#
#   docs/examples/go/run.sh [FILE...]
set -eu
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../.." && pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/l9kit-go.XXXXXX")
trap 'chmod -R u+w "$work" 2>/dev/null; rm -rf "$work"' EXIT INT TERM

"$root/node_modules/.bin/quicktype" --src-lang schema --lang go --package main --top-level Event \
  --just-types-and-package -o "$work/event.go" "$root/schema/event.schema.json" || exit 2
cp "$here/main.go" "$here/go.mod" "$work/"

# No network: modules off the proxy, caches inside the temp folder.
export GOFLAGS=-mod=mod GOPROXY=off GOCACHE="$work/cache" GOPATH="$work/gopath" GOTOOLCHAIN=local
(cd "$work" && go build -o roundtrip .) || exit 2

if [ "$#" -eq 0 ]; then set -- "$root"/corpus/valid/*.json; fi
"$work/roundtrip" "$@"
