#!/usr/bin/env bash
# A validating pipeline: another tool's output (host:port lines) converted to event documents,
# normalised to the canonical form, and validated strictly. Any stage failing fails the whole.
#
#   docs/examples/shell/pipeline.sh [FILE]     (default: three sample lines)
set -euo pipefail
L9KIT=${L9KIT:-l9kit}
sample=$'192.0.2.10:443\nwww.example.com:8080\n[2001:db8::1]:22\n'

if [ "$#" -eq 0 ]; then printf '%s' "$sample"; else cat "$1"; fi \
  | $L9KIT convert --from hostport --run-start 2026-01-02T03:04:05Z \
  | $L9KIT normalize \
  | $L9KIT validate --profile strict
