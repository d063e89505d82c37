#!/usr/bin/python3
"""The Python side of test/languages/python.test.ts, with the generated module
schema/types/python/l9kit_types.py (standard library only).

    roundtrip.py event|lookup|subdomains|aggregation|error|report   each line of stdin a JSON document: from_dict, then
                                           to_dict, written as one JSON line; a document that
                                           does not decode prints "error: ..." instead
    roundtrip.py patterns                  the pattern matrix (test/languages/support.ts) with
                                           re.search, as python-jsonschema applies `pattern`
"""

import json
import os
import re
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "schema", "types", "python"))
sys.dont_write_bytecode = True  # no __pycache__ inside schema/types/python
import l9kit_types  # noqa: E402


def round_trip(kind, line):
    data = json.loads(line)
    if kind == "event":
        return l9kit_types.Event.from_dict(data).to_dict()
    if kind == "lookup":
        return l9kit_types.LookupResult.from_dict(data).to_dict()
    if kind == "aggregation":
        return l9kit_types.Aggregation.from_dict(data).to_dict()
    if kind == "error":
        return l9kit_types.ErrorBody.from_dict(data).to_dict()
    if kind == "report":
        return l9kit_types.ConformReport.from_dict(data).to_dict()
    if not isinstance(data, list):
        raise l9kit_types.DecodeError("/: expected an array")
    return [l9kit_types.Subdomain.from_dict(item).to_dict() for item in data]


def patterns(lines):
    count = int(lines[0])
    texts = [bytes.fromhex(line).decode("utf-8") for line in lines[1 + count:]]
    for line in lines[1:1 + count]:
        compiled = re.compile(bytes.fromhex(line).decode("utf-8"))
        print("".join("1" if compiled.search(text) else "0" for text in texts))


def main(kind):
    lines = sys.stdin.read().split("\n")[:-1]
    if kind == "patterns":
        return patterns(lines)
    out = []
    for line in lines:
        try:
            out.append(json.dumps(round_trip(kind, line), ensure_ascii=False, separators=(",", ":")))
        except l9kit_types.DecodeError as error:
            out.append("error: %s" % error)
    sys.stdout.write("".join(line + "\n" for line in out))


if __name__ == "__main__":
    main(sys.argv[1])
