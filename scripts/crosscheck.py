#!/usr/bin/python3
"""Second, independent validator for the published event schemas (not ajv).

Loads schema/event.schema.json (strict) and schema/event.lenient.schema.json, checks that each
is a valid JSON Schema draft 2020-12 document, then validates every corpus document under both
profiles and prints one JSON object per document:

    {"file": "corpus/valid/x.json", "strict": true, "lenient": true}

test/corpus/crosscheck.test.ts compares these verdicts with the TypeScript validators'.
Run with Debian's interpreter and its python3-jsonschema package:

    /usr/bin/python3 scripts/crosscheck.py [--schema-dir DIR] [PATH ...]

PATH is a corpus directory or a document; the default is corpus/valid and corpus/invalid.
Files named *.expected.json (expected errors of invalid documents) are not documents.
Exit status: 0 when every document was checked (whatever the verdicts), 1 when a schema is not
valid 2020-12 or a document cannot be read, 3 when the jsonschema package is missing.
"""

import argparse
import json
import os
import sys

try:
    from jsonschema import Draft202012Validator
    from jsonschema.exceptions import SchemaError
except ImportError:  # reported with its own status so the caller can tell it from a failure
    print("crosscheck: the Python package 'jsonschema' is missing (apt-get install python3-jsonschema)", file=sys.stderr)
    sys.exit(3)

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PROFILES = (("strict", "event.schema.json"), ("lenient", "event.lenient.schema.json"))


def load_json(path):
    with open(path, "r", encoding="utf-8") as handle:
        return json.load(handle)


def validators(schema_dir):
    """One validator per profile, after checking each schema against the 2020-12 meta-schema."""
    out = {}
    for profile, name in PROFILES:
        path = os.path.join(schema_dir, name)
        schema = load_json(path)
        if schema.get("$schema") != "https://json-schema.org/draft/2020-12/schema":
            raise SchemaError("%s: $schema is not draft 2020-12: %r" % (path, schema.get("$schema")))
        Draft202012Validator.check_schema(schema)
        # No format checker: the schemas use patterns only, so verdicts do not depend on plug-ins.
        # The stock validator (re.search, where `$` also matches before a final newline): the
        # schemas' patterns carry a guard that makes that difference harmless (docs/format.md).
        out[profile] = Draft202012Validator(schema)
    return out


def documents(paths):
    for path in paths:
        if os.path.isdir(path):
            for name in sorted(os.listdir(path)):
                if name.endswith(".json") and not name.endswith(".expected.json"):
                    yield os.path.join(path, name)
        else:
            yield path


def main(argv):
    parser = argparse.ArgumentParser(description="Validate corpus documents with python-jsonschema.")
    parser.add_argument("--schema-dir", default=os.path.join(ROOT, "schema"))
    parser.add_argument("paths", nargs="*")
    args = parser.parse_args(argv)
    paths = args.paths or [os.path.join(ROOT, "corpus", "valid"), os.path.join(ROOT, "corpus", "invalid")]
    try:
        checks = validators(args.schema_dir)
    except (OSError, ValueError, SchemaError) as error:
        print("crosscheck: %s" % error, file=sys.stderr)
        return 1
    status = 0
    for path in documents(paths):
        shown = os.path.relpath(os.path.abspath(path), ROOT).replace(os.sep, "/")
        try:
            doc = load_json(path)
        except (OSError, ValueError) as error:
            print("crosscheck: %s: %s" % (shown, error), file=sys.stderr)
            status = 1
            continue
        verdicts = {profile: checks[profile].is_valid(doc) for profile, _ in PROFILES}
        print(json.dumps({"file": shown, "strict": verdicts["strict"], "lenient": verdicts["lenient"]}))
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
