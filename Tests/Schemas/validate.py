#!/usr/bin/env python3
"""Validates JSON files against espressomartini's JSON Schemas (draft 2020-12) with the `jsonschema`
package (Debian: python3-jsonschema, installed by `make test-deps`).

    validate.py SCHEMAS_FOLDER exchange|server FILE...

Prints one line per file, `FILE: valid` or `FILE: invalid: MESSAGE`, and exits 0; exits 2 when the
schemas themselves are not valid draft 2020-12 schemas, 3 when `jsonschema` is missing.
"""
import json
import os
import sys

try:
    import jsonschema
except ImportError:
    print("the Python module jsonschema is missing: install python3-jsonschema (make test-deps)", file=sys.stderr)
    sys.exit(3)

SCHEMA_FILES = {
    "exchange": "exchange-configuration.schema.json",
    "server": "server-configuration.schema.json",
}


def validators(folder):
    schemas = {}
    for kind, name in SCHEMA_FILES.items():
        with open(os.path.join(folder, name)) as file:
            schemas[kind] = json.load(file)
    for schema in schemas.values():
        try:
            jsonschema.Draft202012Validator.check_schema(schema)
        except jsonschema.SchemaError as error:
            print(f"{schema['$id']}: not a valid draft 2020-12 schema: {error.message}", file=sys.stderr)
            sys.exit(2)
    # The server schema refers to the exchange schema's headers by its relative $id.
    try:
        from referencing import Registry, Resource
        registry = Registry().with_resources(
            [(schema["$id"], Resource.from_contents(schema)) for schema in schemas.values()]
        )
        return {kind: jsonschema.Draft202012Validator(schema, registry=registry) for kind, schema in schemas.items()}
    except ImportError:  # jsonschema before 4.18 (Debian 12 has 4.10)
        store = {schema["$id"]: schema for schema in schemas.values()}
        return {
            kind: jsonschema.Draft202012Validator(schema, resolver=jsonschema.RefResolver.from_schema(schema, store=store))
            for kind, schema in schemas.items()
        }


def main():
    folder, kind, files = sys.argv[1], sys.argv[2], sys.argv[3:]
    validator = validators(folder)[kind]
    for path in files:
        with open(path) as file:
            document = json.load(file)
        errors = sorted(validator.iter_errors(document), key=lambda error: list(error.absolute_path))
        if errors:
            print(f"{path}: invalid: {errors[0].message}")
        else:
            print(f"{path}: valid")


if __name__ == "__main__":
    main()
