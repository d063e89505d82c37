#!/usr/bin/python3
"""Reads documents with the format owner's own model (../shared/peers/l9format-python, l9format
2.0.1, imported unchanged) for test/interop/owner-model.test.ts.

    owner_read.py event|aggregation < documents.jsonl

One line out per line in: the document loaded with L9Event.from_dict (or L9Aggregation.from_dict)
and dumped again with to_dict(), as JSON (times as the model writes them, isoformat), or
"error: ExceptionClass: message" when the model refuses it.
"""

import json
import sys

from l9format import l9format

MODEL = {"event": l9format.L9Event, "aggregation": l9format.L9Aggregation}[sys.argv[1]]

for line in sys.stdin:
    if not line.strip():
        continue
    try:
        print(json.dumps(MODEL.from_dict(json.loads(line)).to_dict()))
    except Exception as e:  # the test judges what was refused
        print(f"error: {type(e).__name__}: {e}")
