#!/usr/bin/env python3
"""Writes an OpenAPI 3.0 description for the import bench: OPERATIONS operations (four per path), each with
parameters, a request body and four responses, over 200 schemas that refer to one another with $ref (nested
objects, arrays of other schemas, allOf, oneOf, one optional self-reference that the import cuts) and a few
named examples; descriptions make it about 5 KB per operation (about 5 MB for 1000). The same arguments
always give the same bytes.

Usage: make_openapi.py --operations 1000 --out FILE [--format yaml|json]
"""
import argparse
import json
import random

SCHEMAS = 200
WORDS = ("espresso latte cortado ristretto lungo macchiato doppio affogato crema bean roast grind tamp brew "
         "shot milk foam cup order barista counter queue price size origin farm harvest").split()


def text(rng, words):
    return " ".join(rng.choice(WORDS) for _ in range(words)).capitalize() + "."


def schema(rng, index):
    """Schema number index: refers only to schemas with lower numbers (and once to itself), so that the
    nesting stays a few levels deep."""
    properties = {
        "id": {"type": "integer", "format": "int64", "minimum": 1, "description": text(rng, 12)},
        "name": {"type": "string", "minLength": 3, "maxLength": 40, "description": text(rng, 12)},
        "created": {"type": "string", "format": "date-time", "description": text(rng, 10)},
        "status": {"type": "string", "enum": ["draft", "active", "retired"], "description": text(rng, 10)},
        "price": {"type": "number", "minimum": 0, "multipleOf": 0.01, "description": text(rng, 10)},
        "code": {"type": "string", "pattern": "^[A-Z]{3}-[0-9]{4}$", "description": text(rng, 8)},
        "tags": {"type": "array", "items": {"type": "string", "maxLength": 20}, "description": text(rng, 8)},
        "details": {
            "type": "object",
            "description": text(rng, 10),
            "properties": {
                "origin": {"type": "string", "description": text(rng, 8)},
                "weight": {"type": "integer", "minimum": 0, "maximum": 1000},
                "notes": {"type": "object", "properties": {
                    "text": {"type": "string"}, "author": {"type": "string", "format": "email"},
                }},
            },
        },
        "parent": {"$ref": "#/components/schemas/Model%d" % index},
    }
    if index > 0:
        properties["related"] = {"type": "array", "maxItems": 3, "items": {"$ref": "#/components/schemas/Model%d" % (index // 2)}}
    if index > 2:
        properties["variant"] = {"oneOf": [{"type": "string", "description": text(rng, 6)},
                                           {"$ref": "#/components/schemas/Model%d" % (index // 3)}]}
    own = {"type": "object", "required": ["id", "name"], "description": text(rng, 30), "properties": properties}
    if index % 10 == 5:
        return {"allOf": [{"$ref": "#/components/schemas/Base"}, own]}
    return own


def operation(rng, number, method, model):
    reference = {"$ref": "#/components/schemas/Model%d" % model}
    success = {"description": text(rng, 20), "headers": {
        "X-Rate-Limit": {"description": text(rng, 8), "schema": {"type": "integer"}, "example": 100},
    }, "content": {"application/json": {"schema": reference if method != "get" or number % 2 else
                                         {"type": "array", "items": reference}}}}
    if number % 7 == 0:
        shape = (lambda value: [value]) if method == "get" and not number % 2 else (lambda value: value)
        success["content"]["application/json"]["examples"] = {
            "first": {"summary": text(rng, 5), "value": shape({"id": number + 1, "name": "first of %d" % number})},
            "second": {"summary": text(rng, 5), "value": shape({"id": number + 2, "name": "second of %d" % number})},
        }
    result = {
        "operationId": "%s%d" % (method, number),
        "summary": text(rng, 8),
        "description": "\n".join(text(rng, 25) for _ in range(14)),
        "tags": [rng.choice(WORDS)],
        "parameters": [
            {"name": "id", "in": "path", "required": True, "description": text(rng, 10), "schema": {"type": "integer"}},
            {"name": "limit", "in": "query", "description": text(rng, 10), "schema": {"type": "integer", "maximum": 100}},
            {"name": "X-Request-Id", "in": "header", "description": text(rng, 10), "schema": {"type": "string", "format": "uuid"}},
        ],
        "responses": {
            "200" if method != "post" else "201": success,
            "400": {"$ref": "#/components/responses/BadRequest"},
            "404": {"$ref": "#/components/responses/NotFound"},
            "default": {"$ref": "#/components/responses/Error"},
        },
    }
    if method in ("post", "put"):
        result["requestBody"] = {"required": True, "content": {"application/json": {"schema": reference}}}
    return result


def description(operations):
    rng = random.Random(29)
    paths = {}
    methods = ["get", "put", "post", "delete"]
    for number in range(operations):
        path = "/api/v1/resource%d/{id}" % (number // len(methods))
        paths.setdefault(path, {})[methods[number % len(methods)]] = operation(rng, number, methods[number % len(methods)], number % SCHEMAS)
    error = {"type": "object", "required": ["code", "message"], "properties": {
        "code": {"type": "integer", "format": "int32"}, "message": {"type": "string"},
        "details": {"type": "array", "items": {"type": "string"}}}}
    schemas = {"Base": {"type": "object", "properties": {"revision": {"type": "integer", "minimum": 1}}},
               "Error": error}
    for index in range(SCHEMAS):
        schemas["Model%d" % index] = schema(rng, index)
    responses = {name: {"description": text(rng, 10), "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}}
                 for name in ("BadRequest", "NotFound", "Error")}
    return {
        "openapi": "3.0.3",
        "info": {"title": "Import bench", "version": "1.0", "description": text(rng, 40)},
        "servers": [{"url": "https://api.example.com/{base}", "variables": {"base": {"default": "bench"}}}],
        "paths": paths,
        "components": {"schemas": schemas, "responses": responses},
    }


def yaml_lines(value, indent, out):
    """Block-style YAML; strings double-quoted as JSON writes them (valid YAML)."""
    pad = "  " * indent
    if isinstance(value, dict):
        for key, item in value.items():
            if isinstance(item, (dict, list)) and item:
                out.append("%s%s:" % (pad, json.dumps(key)))
                yaml_lines(item, indent + 1, out)
            else:
                out.append("%s%s: %s" % (pad, json.dumps(key), json.dumps(item)))
    else:
        for item in value:
            if isinstance(item, (dict, list)) and item:
                start = len(out)
                yaml_lines(item, indent + 1, out)
                out[start] = pad + "- " + out[start].lstrip()
            else:
                out.append("%s- %s" % (pad, json.dumps(item)))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--operations", type=int, default=1000)
    parser.add_argument("--out", required=True)
    parser.add_argument("--format", choices=["yaml", "json"], default="yaml")
    arguments = parser.parse_args()
    document = description(arguments.operations)
    with open(arguments.out, "w", encoding="utf-8") as handle:
        if arguments.format == "json":
            json.dump(document, handle, indent=1)
        else:
            lines = []
            yaml_lines(document, 0, lines)
            handle.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
