#!/usr/bin/python3
"""Validates event documents against l9kit's published JSON Schema with Python's jsonschema
package (Debian: python3-jsonschema), the way a Python project imports the schema.

    /usr/bin/python3 docs/examples/python/validate.py [--schema FILE] FILE...

Prints one line per document, `FILE: valid` or `FILE: invalid: POINTER: MESSAGE` (first problem),
and exits 1 when any document is invalid, 2 when a file cannot be read.
"""

import argparse
import json
import os
import re
import sys

from jsonschema import Draft202012Validator, validators
from jsonschema.exceptions import ValidationError

HERE = os.path.dirname(os.path.abspath(__file__))
DEFAULT_SCHEMA = os.path.join(HERE, "..", "..", "..", "schema", "event.schema.json")


def ecma_pattern(validator, pattern, instance, schema):
    """JSON Schema patterns are ECMA-262, where a final `$` matches only at the very end; in
    Python's `re` it also matches before a final newline, so it is read as `\\Z` here."""
    python_pattern = pattern[:-1] + "\\Z" if pattern.endswith("$") and not pattern.endswith("\\$") else pattern
    if validator.is_type(instance, "string") and not re.search(python_pattern, instance):
        yield ValidationError("%r does not match %r" % (instance, pattern))


Validator = validators.extend(Draft202012Validator, {"pattern": ecma_pattern})


def pointer(path):
    return "".join("/" + str(part).replace("~", "~0").replace("/", "~1") for part in path)


def main():
    parser = argparse.ArgumentParser(description="Validate event documents against schema/event.schema.json")
    parser.add_argument("--schema", default=DEFAULT_SCHEMA)
    parser.add_argument("files", nargs="+")
    args = parser.parse_args()
    with open(args.schema, encoding="utf-8") as handle:
        schema = json.load(handle)
    Draft202012Validator.check_schema(schema)
    validator = Validator(schema)
    invalid = 0
    for name in args.files:
        try:
            with open(name, encoding="utf-8") as handle:
                document = json.load(handle)
        except (OSError, ValueError) as error:
            print("%s: cannot read: %s" % (name, error), file=sys.stderr)
            return 2
        problem = next(iter(sorted(validator.iter_errors(document), key=lambda e: [str(part) for part in e.absolute_path])), None)
        if problem is None:
            print("%s: valid" % name)
        else:
            invalid += 1
            print("%s: invalid: %s: %s" % (name, pointer(problem.absolute_path) or "(document)", problem.message))
    return 1 if invalid else 0


if __name__ == "__main__":
    sys.exit(main())
