#!/usr/bin/env python3
"""Write an espressomartini tree of N exchanges for the benchmark.

    bench/make_tree.py --exchanges 10000 --out /tmp/espressomartini-bench/tree-10000 --blob BLOB

OUT/network-exchanges/ always holds these probes (the paths bench/run.sh loads):

    GET /api/v1/hello                                 the 101-byte JSON of bench/ceiling.c (response_file)
    GET /api/v2/svc5/deep/l1/l2/l3/l4/l5/l6/target    a deep literal route (11 segments)
    GET /api/v1/users/{id}/profile                    a {id} route  (probe: /api/v1/users/12345/profile)
    GET /api/v1/files/**                              a ** route    (probe: /api/v1/files/a/b/c.txt)
    GET /api/v1/big                                   the 1 MiB file BLOB (hard-linked, else copied)

and filler exchanges up to N: GET/POST/PUT/DELETE on paths 3 to 6 segments deep, every 7th path behind a
`*` or `{id}` folder and a few ending in `**`. OUT/configuration.json (log_level ERROR) and
OUT/configuration-info.json (log_level INFO) are the server configurations; the port is given on the
command line.
"""
import argparse
import json
import os
import shutil

METHODS = ["GET", "POST", "PUT", "DELETE"]
BODY = {"id": 42, "name": "espresso", "kind": "martini", "ok": True,
        "tags": ["a", "b", "c"], "score": 3.14159, "n": None}


def json_text(value):
    return json.dumps(value, separators=(",", ":")) + "\n"


def write(path, text):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write(text)


def exchange(root, route, method, body, status=200):
    """One method folder answering with response.json."""
    folder = os.path.join(root, route, method)
    write(os.path.join(folder, "configuration.json"),
          json.dumps({"status_code": status, "response_file": "response.json"}, indent=2) + "\n")
    write(os.path.join(folder, "response.json"), body)


def filler_route(group):
    """The path of filler group `group`: a few levels deep, some behind `*` or `{id}`, a few `**`."""
    version, service = 1 + group % 3, group % 37
    base = "api/v%d/svc%d" % (version, service)
    if group % 7 == 3:
        # One kind of wildcard per service folder: a `*` beside a `{id}` at the same place is only
        # allowed when their routes differ, and this keeps every tree valid whatever N is.
        wildcard = "{id}" if service % 2 == 0 else "*"
        return "%s/%s/res%d" % (base, wildcard, group)
    if group % 97 == 50:
        return "%s/res%d/**" % (base, group)
    extra = ["item%d" % (group % 10), "detail", "more"][: group % 4]
    return "/".join([base, "res%d" % group] + extra)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--exchanges", type=int, required=True, help="total number of exchanges (at least 5)")
    parser.add_argument("--out", required=True, help="the folder to (re)create")
    parser.add_argument("--blob", required=True, help="the 1 MiB file served by GET /api/v1/big (written if missing)")
    args = parser.parse_args()

    out = os.path.abspath(args.out)
    if os.path.exists(out):
        shutil.rmtree(out)
    root = os.path.join(out, "network-exchanges")
    for name, level in (("configuration.json", "ERROR"), ("configuration-info.json", "INFO")):
        write(os.path.join(out, name),
              json.dumps({"hostname": "127.0.0.1", "log_level": level}, indent=2) + "\n")

    probes = [
        ("api/v1/hello", json_text(BODY)),
        ("api/v2/svc5/deep/l1/l2/l3/l4/l5/l6/target", json_text(dict(BODY, id=7))),
        ("api/v1/users/{id}/profile", json_text(dict(BODY, id=8))),
        ("api/v1/files/**", json_text(dict(BODY, id=9))),
    ]
    for route, body in probes:
        exchange(root, route, "GET", body)
    if not os.path.isfile(args.blob) or os.path.getsize(args.blob) != 1 << 20:
        os.makedirs(os.path.dirname(os.path.abspath(args.blob)), exist_ok=True)
        with open(args.blob, "wb") as f:
            f.write(bytes(range(256)) * 4096)  # 1 MiB, the same bytes every run
    big = os.path.join(root, "api/v1/big/GET")
    write(os.path.join(big, "configuration.json"), json.dumps({"response_file": "payload.bin"}, indent=2) + "\n")
    try:
        os.link(args.blob, os.path.join(big, "payload.bin"))
    except OSError:
        shutil.copyfile(args.blob, os.path.join(big, "payload.bin"))
    count = len(probes) + 1

    index = 0
    while count < args.exchanges:
        group, method = divmod(index, len(METHODS))
        exchange(root, filler_route(group), METHODS[method], json_text(dict(BODY, id=1000 + index)),
                 status=201 if METHODS[method] == "POST" else 200)
        count += 1
        index += 1
    print(json.dumps({"tree": out, "exchanges": count}))


if __name__ == "__main__":
    main()
