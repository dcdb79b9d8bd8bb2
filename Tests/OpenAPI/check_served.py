#!/usr/bin/env python3
"""Checks a server that serves a tree imported from an OpenAPI description, against the description alone.

Usage: check_served.py SPEC BASE_URL

For every operation of SPEC (OpenAPI 3.0, 3.1 or Swagger 2.0, JSON or YAML, with $refs to relative files) it
sends the request without Prefer, with 'Prefer: code=S' for every documented status (and for the statuses a
'default' response stands for), and with 'Prefer: example=NAME' and 'Prefer: code=S, example=NAME' for every
named example; path parameters are filled with '1'. Each answer must have the status asked for (the lowest
2xx, else 'default' as 200, else the lowest status, without Prefer), a body equal to the example where the
description gives one, else a body valid against the response's schema (python3-jsonschema: draft 4 with
'nullable' for 2.0 and 3.0, 2020-12 for 3.1, formats checked), and the headers whose example is given.
JSON lines are read line by line (an array schema's items are the lines), YAML by 1.2's core schema and by
1.1, which must agree; other media (PDF, octet streams) must carry their Content-Type, and the text of a
string example or no body.
Prints a line per failure, then 'checked N answers of M operations'; exits 1 when anything failed.
"""
import base64
import datetime
import ipaddress
import json
import os
import re
import sys
import urllib.error
import urllib.parse
import urllib.request
import uuid
import warnings

import jsonschema
import yaml

warnings.filterwarnings("ignore", category=DeprecationWarning)

METHODS = ["get", "put", "post", "delete", "options", "head", "patch", "trace"]
DEFAULT_STATUSES = [400, 401, 403, 404, 409, 422, 429, 500, 502, 503, 504]

documents = {}


class YAML12Loader(yaml.SafeLoader):
    """YAML 1.2's core schema, as the server's reader has it: no timestamps, and only true/false as booleans."""


YAML12Loader.yaml_implicit_resolvers = {
    first: [(tag, regexp) for tag, regexp in resolvers if tag not in ("tag:yaml.org,2002:timestamp", "tag:yaml.org,2002:bool")]
    for first, resolvers in yaml.SafeLoader.yaml_implicit_resolvers.items()
}
YAML12Loader.add_implicit_resolver("tag:yaml.org,2002:bool", re.compile(r"^(?:true|True|TRUE|false|False|FALSE)$"), list("tTfF"))


def load(path):
    """A file of the description, parsed once (YAML reads JSON too)."""
    path = os.path.normpath(path)
    if path not in documents:
        with open(path, encoding="utf-8") as handle:
            documents[path] = yaml.load(handle, Loader=YAML12Loader)
    return documents[path]


def unescape(token):
    return urllib.parse.unquote(token).replace("~1", "/").replace("~0", "~")


def escape(token):
    return str(token).replace("~", "~0").replace("/", "~1")


def deref(node, path, pointer):
    """(node, file, pointer) of what a $ref chain leads to."""
    for _ in range(32):
        if not isinstance(node, dict) or not isinstance(node.get("$ref"), str):
            return node, path, pointer
        reference = node["$ref"]
        file_part, _, fragment = reference.partition("#")
        if file_part:
            path = os.path.normpath(os.path.join(os.path.dirname(path), urllib.parse.unquote(file_part)))
        node = load(path)
        pointer = ""
        for token in [unescape(t) for t in fragment.split("/")[1:]] if fragment else []:
            node = node[int(token)] if isinstance(node, list) else node[token]
            pointer += "/" + escape(token)
    raise ValueError("a $ref loop")


def nullable_to_type_lists(node):
    """OpenAPI 3.0's nullable (and Swagger's x-nullable) as JSON Schema says it: null in the type and enum."""
    if isinstance(node, list):
        return [nullable_to_type_lists(item) for item in node]
    if not isinstance(node, dict):
        return node
    result = {key: nullable_to_type_lists(value) for key, value in node.items()}
    if result.get("nullable") is True or result.get("x-nullable") is True:
        if isinstance(result.get("type"), str):
            result["type"] = [result["type"], "null"]
        if isinstance(result.get("enum"), list) and None not in result["enum"]:
            result["enum"] = result["enum"] + [None]
    return result


format_checker = jsonschema.FormatChecker(formats=())


def check_format(name, predicate):
    @format_checker.checks(name, raises=(ValueError, TypeError))
    def check(value):
        return not isinstance(value, str) or bool(predicate(value))


check_format("date-time", lambda v: re.fullmatch(r"\d{4}-\d{2}-\d{2}[Tt]\d{2}:\d{2}:\d{2}(\.\d+)?([Zz]|[+-]\d{2}:\d{2})", v)
             and datetime.datetime.fromisoformat(v.replace("Z", "+00:00").replace("z", "+00:00")))
check_format("date", lambda v: re.fullmatch(r"\d{4}-\d{2}-\d{2}", v) and datetime.date.fromisoformat(v))
check_format("time", lambda v: re.fullmatch(r"\d{2}:\d{2}:\d{2}(\.\d+)?([Zz]|[+-]\d{2}:\d{2})", v))
check_format("email", lambda v: re.fullmatch(r"[^@\s]+@[^@\s]+\.[^@\s]+", v))
check_format("uuid", lambda v: re.fullmatch(r"[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}", v) and uuid.UUID(v))
check_format("uri", lambda v: urllib.parse.urlparse(v).scheme and urllib.parse.urlparse(v).netloc)
check_format("ipv4", lambda v: ipaddress.IPv4Address(v))
check_format("ipv6", lambda v: ipaddress.IPv6Address(v))
check_format("hostname", lambda v: re.fullmatch(r"[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?(\.[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*", v))
check_format("byte", lambda v: base64.b64decode(v, validate=True) is not None)


class Description:
    def __init__(self, path):
        self.path = os.path.normpath(path)
        self.root = load(self.path)
        self.is_swagger = "swagger" in self.root
        self.is_31 = str(self.root.get("openapi", "")).startswith("3.") and not str(self.root.get("openapi")).startswith("3.0")
        transformed = {}

        def handler(uri):
            file_path = urllib.parse.urlparse(uri).path
            if file_path not in transformed:
                transformed[file_path] = self.schema_document(load(file_path))
            return transformed[file_path]

        self.validator_class = jsonschema.Draft202012Validator if self.is_31 else jsonschema.Draft4Validator
        self.resolver = jsonschema.RefResolver(
            base_uri="file://" + os.path.abspath(self.path), referrer=self.schema_document(self.root), handlers={"file": handler}
        )

    def schema_document(self, document):
        return document if self.is_31 else nullable_to_type_lists(document)

    def validate(self, value, path, pointer):
        """The first problem of value against the schema at pointer in file path, or None."""
        schema = {"$ref": "file://" + os.path.abspath(path) + "#" + pointer}
        validator = self.validator_class(schema, resolver=self.resolver, format_checker=format_checker)
        error = next(iter(validator.iter_errors(value)), None)
        return None if error is None else f"{list(error.absolute_path)}: {error.message}"

    def base_path(self, operation, item):
        if self.is_swagger:
            return self.root.get("basePath", "").rstrip("/")
        for owner in (operation, item, self.root):
            servers = owner.get("servers") or []
            if servers:
                server = servers[0]
                url = server["url"]
                for name, variable in (server.get("variables") or {}).items():
                    default = variable.get("default", (variable.get("enum") or [None])[0])
                    if default is not None:
                        url = url.replace("{" + name + "}", str(default))
                if "://" in url:
                    url = url.split("://", 1)[1]
                    url = url[url.find("/"):] if "/" in url else ""
                return url.split("?")[0].rstrip("/")
        return ""

    @staticmethod
    def media_choice(names):
        """The first JSON media type, else text, else JSON lines or YAML, else any other."""
        order = {"json": 0, "text": 1, "jsonl": 2, "yaml": 2, "other": 3}
        names = list(names)
        return min(names, key=lambda n: (order[media_kind(n)], names.index(n))) if names else None

    def expectations(self, operation, file, pointer):
        """Each documented status: (body rule, named examples, header examples)."""
        responses, file, pointer = deref(operation.get("responses") or {}, file, pointer + "/responses")
        documented, fallback = {}, None
        for key, value in responses.items():
            response, rfile, rpointer = deref(value, file, pointer + "/" + escape(key))
            rule = self.response_rule(response, rfile, rpointer, operation)
            if str(key) == "default":
                fallback = rule
            elif re.fullmatch(r"[2-5]\d\d", str(key)):
                documented[int(key)] = rule
        for key in responses:
            if re.fullmatch(r"[2-5][xX][xX]", str(key)) and int(str(key)[0]) * 100 not in documented:
                response, rfile, rpointer = deref(responses[key], file, pointer + "/" + escape(key))
                documented[int(str(key)[0]) * 100] = self.response_rule(response, rfile, rpointer, operation)
        return documented, fallback

    def response_rule(self, response, file, pointer, operation):
        headers = {}
        for name, header in (response.get("headers") or {}).items():
            header, _, _ = deref(header, file, pointer)
            example = header.get("example", header.get("x-example"))
            if example is None and isinstance(header.get("schema"), dict):
                schema, _, _ = deref(header["schema"], file, pointer)
                example = schema.get("example")
            if example is not None and not isinstance(example, (list, dict)) and name.lower() not in ("content-type", "content-length", "transfer-encoding"):
                headers[name] = example if isinstance(example, str) else json.dumps(example)
        rule = {"headers": headers, "body": None, "examples": {}, "media": None}
        if self.is_swagger:
            produces = operation.get("produces", self.root.get("produces")) or ["application/json"]
            media = self.media_choice(produces)
            if media is None or ("schema" not in response and "examples" not in response):
                return rule
            rule["media"] = media
            examples = response.get("examples") or {}
            if media in examples:
                rule["body"] = ("equals", examples[media])
            elif "schema" in response:
                rule["body"] = self.schema_rule(response["schema"], file, pointer + "/schema")
            return rule
        content = response.get("content") or {}
        media = self.media_choice(content.keys())
        if media is None:
            return rule
        rule["media"] = media
        entry = content[media]
        mpointer = pointer + "/content/" + escape(media)
        for name, example in (entry.get("examples") or {}).items():
            example, efile, _ = deref(example, file, mpointer)
            if "value" in example:
                rule["examples"][name] = example["value"]
            elif "externalValue" in example:
                with open(os.path.join(os.path.dirname(efile), example["externalValue"]), encoding="utf-8") as handle:
                    rule["examples"][name] = json.load(handle)
        if "example" in entry:
            rule["body"] = ("equals", entry["example"])
        elif rule["examples"]:
            rule["body"] = ("equals", next(iter(rule["examples"].values())))
        elif "schema" in entry:
            rule["body"] = self.schema_rule(entry["schema"], file, mpointer + "/schema")
        return rule

    def schema_rule(self, schema, file, pointer):
        target, _, _ = deref(schema, file, pointer)
        if isinstance(target, dict) and "example" in target:
            return ("equals", target["example"])
        if self.is_31 and isinstance(target, dict) and target.get("examples"):
            return ("equals", target["examples"][0])
        return ("valid", file, pointer)


JSON_LINES = {"application/jsonl", "application/x-jsonl", "application/jsonlines", "application/x-jsonlines",
              "application/ndjson", "application/x-ndjson"}
YAML_TYPES = {"application/yaml", "application/x-yaml", "text/yaml", "text/x-yaml"}


def media_kind(name):
    """How the server's import makes a body of this media type: json, jsonl, yaml, text or other."""
    essence = name.split(";")[0].strip().lower()
    if essence == "application/json" or essence.endswith("+json") or essence in ("*/*", "application/*"):
        return "json"
    if essence in JSON_LINES:
        return "jsonl"
    if essence in YAML_TYPES or essence.endswith("+yaml"):
        return "yaml"
    return "text" if essence.startswith("text/") else "other"


def request(url, method, headers):
    request = urllib.request.Request(url, method=method.upper(), headers=headers)
    try:
        with urllib.request.urlopen(request, timeout=10) as answer:
            return answer.status, dict(answer.headers), answer.read()
    except urllib.error.HTTPError as error:
        return error.code, dict(error.headers), error.read()


def main():
    spec, base_url = sys.argv[1], sys.argv[2].rstrip("/")
    description = Description(spec)
    failures, answers, operations = [], 0, 0
    for template, item in (description.root.get("paths") or {}).items():
        item, file, item_pointer = deref(item, description.path, "/paths/" + escape(template))
        for method in METHODS:
            if method not in item:
                continue
            operation, ofile, opointer = deref(item[method], file, item_pointer + "/" + method)
            operations += 1
            documented, fallback = description.expectations(operation, ofile, opointer)
            path = description.base_path(operation, item) + re.sub(r"\{[^}/]*\}", "1", template)
            reachable = dict(documented)
            if fallback is not None:
                reachable.update({status: fallback for status in DEFAULT_STATUSES if status not in documented})
            successes = sorted(s for s in documented if 200 <= s < 300)
            if successes:
                default_status = successes[0]
            elif fallback is not None:
                default_status = 200
            else:
                default_status = min(documented) if documented else 200
            default_rule = reachable.get(default_status, fallback if fallback is not None else {"headers": {}, "body": None, "examples": {}, "media": None})
            asks = [(None, None, default_status, default_rule, None)]
            asks += [(f"code={s}", None, s, rule, None) for s, rule in sorted(reachable.items())]
            for name, value in default_rule["examples"].items():
                asks.append((f"example={name}", None, default_status, default_rule, value))
            for s, rule in sorted(reachable.items()):
                for name, value in rule["examples"].items():
                    asks.append((f"code={s}, example={name}", None, s, rule, value))
            for prefer, _, status, rule, example in asks:
                answers += 1
                label = f"{method.upper()} {path}" + (f" (Prefer: {prefer})" if prefer else "")
                got, headers, body = request(base_url + path, method, {"Prefer": prefer} if prefer else {})
                problem = check(description, got, headers, body, status, rule, example, method)
                if problem:
                    failures.append(f"FAIL {label}: {problem}")
    for failure in failures:
        print(failure)
    print(f"checked {answers} answers of {operations} operations")
    sys.exit(1 if failures else 0)


def check(description, got, headers, body, status, rule, example, method):
    if got != status:
        return f"status {got}, expected {status}"
    for name, value in rule["headers"].items():
        sent = next((v for k, v in headers.items() if k.lower() == name.lower()), None)
        if sent != value:
            return f"header {name} is {sent!r}, expected {value!r}"
    if method == "head" or status in (204, 304):
        return None if not body else f"a body of {len(body)} bytes on a {status}"
    expected = ("equals", example) if example is not None else rule["body"]
    if expected is None:
        return None if not body else f"a body of {len(body)} bytes where the description gives none"
    media = rule["media"].split(";")[0].strip().lower()
    kind = media_kind(media)
    content_type = next((v for k, v in headers.items() if k.lower() == "content-type"), "")
    wanted_type = "application/json" if media in ("*/*", "application/*") else media
    if content_type.split(";")[0].strip().lower() != wanted_type:
        return f"Content-Type {content_type!r}, expected {wanted_type}"
    wanted = expected[1] if expected[0] == "equals" else None
    if kind == "text":
        text = body.decode("utf-8")
        if wanted is not None and text != (wanted if isinstance(wanted, str) else json.dumps(wanted)):
            return f"text body {text[:80]!r}, expected {str(wanted)[:80]!r}"
        return None
    if kind == "other":
        # Bytes that cannot be made from a schema: the text of a string example, else no body.
        text = wanted if isinstance(wanted, str) else ""
        return None if body == text.encode("utf-8") else f"body {body[:80]!r}, expected {text[:80]!r}"
    if kind in ("jsonl", "yaml") and isinstance(wanted, str) and body.decode("utf-8") == wanted:
        return None
    if kind == "yaml":
        text = body.decode("utf-8")
        try:
            value = yaml.load(text, Loader=YAML12Loader)
            # Strings are quoted wherever YAML 1.1 would read them otherwise: its reader agrees.
            if yaml.safe_load(text) != value:
                return f"YAML 1.1 reads the body otherwise: {yaml.safe_load(text)!r}"
        except yaml.YAMLError as error:
            return f"the body is not YAML ({error}): {text[:80]!r}"
        if expected[0] == "equals":
            return None if value == wanted else f"YAML body {value!r:.120}, expected the example {wanted!r:.120}"
        problem = description.validate(value, expected[1], expected[2])
        return None if problem is None else f"YAML body {value!r:.120} breaks its schema: {problem}"
    if kind == "jsonl":
        try:
            lines = [json.loads(line) for line in body.decode("utf-8").splitlines()]
        except ValueError as error:
            return f"a line is not JSON ({error}): {body[:80]!r}"
        if expected[0] == "equals":
            return None if lines == (wanted if isinstance(wanted, list) else [wanted]) else f"lines {lines!r:.120}, expected the example {wanted!r:.120}"
        # An array schema's items are the lines; any other schema is one line's.
        problem = description.validate(lines, expected[1], expected[2])
        if problem is not None and len(lines) == 1:
            problem = description.validate(lines[0], expected[1], expected[2])
        return None if problem is None else f"lines {lines!r:.120} break their schema: {problem}"
    try:
        value = json.loads(body)
    except ValueError as error:
        return f"the body is not JSON ({error}): {body[:80]!r}"
    if expected[0] == "equals":
        wanted = expected[1]
        if isinstance(wanted, str) and not isinstance(value, str):
            try:
                wanted = json.loads(wanted)
            except ValueError:
                pass
        return None if value == wanted else f"body {json.dumps(value)[:120]}, expected the example {json.dumps(wanted)[:120]}"
    problem = description.validate(value, expected[1], expected[2])
    return None if problem is None else f"body {json.dumps(value)[:120]} breaks its schema: {problem}"


if __name__ == "__main__":
    main()
