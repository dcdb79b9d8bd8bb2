#!/usr/bin/env python3
"""Write an espressomartini tree of N exchanges for the benchmark.

    bench/make_tree.py --exchanges 10000 --out /tmp/espressomartini-bench/tree-10000 --blob BLOB

OUT/network-exchanges/ always holds these probes (the paths bench/run.sh loads):

    GET /api/v1/hello                                 the 101-byte JSON of bench/ceiling.c (response_file)
    GET /api/v2/svc5/deep/l1/l2/l3/l4/l5/l6/target    a deep literal route (11 segments)
    GET /api/v1/users/{id}/profile                    a {id} route  (probe: /api/v1/users/12345/profile)
    GET /api/v1/files/**                              a ** route    (probe: /api/v1/files/a/b/c.txt)
    GET /api/v1/big                                   the 1 MiB file BLOB (hard-linked, else copied)
    GET /api/v1/variants                              4 variants; the probe (header X-Client: bench, query
                                                      page=2) matches only the last: variant-4.json
    POST /api/v1/orders                               2 variants; the probe POSTs OUT/order.json (1 KiB) whose
                                                      /customer/tier is "gold": the first, gold.json (so does
                                                      OUT/order-256.json, 256 bytes, which fills the journal
                                                      that the count of requests reads)
    GET /api/v1/greetings/{id}                        a templated JSON body (hello's shape) with three values
                                                      from the request: the path parameter, the query
                                                      parameter name and the header X-Client; the probe
                                                      (/api/v1/greetings/42?name=espresso, X-Client: bench)
                                                      must get OUT/greeting.json
    GET /api/v1/scripted/{id}                         a trivial script: {"id": ID}; the probe asks for
                                                      /api/v1/scripted/42 and gets scripted.json
    POST /api/v1/scripted-orders                      a script reading a 2 KiB JSON body (OUT/order-2k.json) and
                                                      answering part of it: scripted-order.json

The variant answers are JSON of the same size as hello's, each with its own "id", so that only the decision
differs from hello and a check can tell which variant answered. Then
filler exchanges up to N: GET/POST/PUT/DELETE on paths 3 to 6 segments deep, every 7th path behind a
`*` or `{id}` folder and a few ending in `**`. OUT/configuration.json (log_level ERROR),
OUT/configuration-info.json (log_level INFO) and OUT/configuration-journal.json and
OUT/configuration-journal-1.json (journal_size 100000 and 1) are the server configurations; the port is given on the
command line. With --plain, the tree has none of the variant, template and script probes: only keys every
version of espressomartini reads, for `make bench BASELINE=REF`.
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


def variants_exchange(root, route, method, variants):
    """One method folder answering with {"variants": [...]}; each variant is (when or None, file name, body)."""
    folder = os.path.join(root, route, method)
    listed = []
    for when, name, body in variants:
        variant = {"when": when} if when is not None else {}
        variant["responses"] = {"response_file": name}
        listed.append(variant)
        write(os.path.join(folder, name), body)
    write(os.path.join(folder, "configuration.json"), json.dumps({"variants": listed}, indent=2) + "\n")


def large_order():
    """The script probe's request body: an order of exactly 2048 bytes, and what its script answers."""
    order = json.loads(order_body())
    order["items"] += [dict(item, sku=item["sku"] + "-B") for item in order["items"]]
    order["note"] = ""
    order["note"] = "x" * (2048 - len(json_text(order)))
    text = json_text(order)
    assert len(text) == 2048, len(text)
    answer = {"order": order["order_id"], "customer": order["customer"]["id"], "lines": len(order["items"]),
              "quantity": sum(item["quantity"] for item in order["items"])}
    return text, json_text(answer).rstrip("\n")  # the script's answer, compact JSON without a newline


def order_body():
    """The JSON Pointer probe's request body: an order of exactly 1024 bytes, /customer/tier "gold"."""
    order = {
        "order_id": "ord-20240611-000123",
        "customer": {"id": 98765, "name": "Ada Lovelace", "email": "ada@example.com", "tier": "gold"},
        "items": [{"sku": "SKU-%04d" % n, "name": "Item number %d" % n, "quantity": n % 3 + 1,
                   "unit_price_cents": 999 + 100 * n} for n in range(8)],
        "shipping": {"street": "1 Analytical Way", "city": "London", "postcode": "N1 9GU", "country": "GB"},
        "note": "",
    }
    order["note"] = "x" * (1024 - len(json_text(order)))
    text = json_text(order)
    assert len(text) == 1024, len(text)
    return text


def small_order():
    """The journal count's request body: an order of exactly 256 bytes, /customer/tier "gold", the size of
    what an app commonly posts."""
    order = {
        "order_id": "ord-20240611-000123",
        "customer": {"id": 98765, "name": "Ada Lovelace", "tier": "gold"},
        "items": [{"sku": "SKU-0001", "quantity": 2, "unit_price_cents": 1099}, {"sku": "SKU-0002", "quantity": 1, "unit_price_cents": 2490}],
        "currency": "EUR",
        "note": "",
    }
    order["note"] = "x" * (256 - len(json_text(order)))
    text = json_text(order)
    assert len(text) == 256, len(text)
    return text


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
    parser.add_argument("--exchanges", type=int, required=True, help="total number of exchanges (at least 7)")
    parser.add_argument("--out", required=True, help="the folder to (re)create")
    parser.add_argument("--blob", required=True, help="the 1 MiB file served by GET /api/v1/big (written if missing)")
    parser.add_argument("--plain", action="store_true",
                        help="no variants, templates or scripts: a tree any version can load (the baseline comparison)")
    args = parser.parse_args()

    out = os.path.abspath(args.out)
    if os.path.exists(out):
        shutil.rmtree(out)
    root = os.path.join(out, "network-exchanges")
    for name, level in (("configuration.json", "ERROR"), ("configuration-info.json", "INFO")):
        write(os.path.join(out, name),
              json.dumps({"hostname": "127.0.0.1", "log_level": level}, indent=2) + "\n")
    # The journal of 100 000 requests the count reads, and one of a single request beside it for its memory.
    for name, size in (("configuration-journal.json", 100000), ("configuration-journal-1.json", 1)):
        write(os.path.join(out, name),
              json.dumps({"hostname": "127.0.0.1", "log_level": "ERROR", "journal_size": size, "watch": False}, indent=2) + "\n")

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
    if not args.plain:
        count += decision_probes(root, out)

    index = 0
    while count < args.exchanges:
        group, method = divmod(index, len(METHODS))
        exchange(root, filler_route(group), METHODS[method], json_text(dict(BODY, id=1000 + index)),
                 status=201 if METHODS[method] == "POST" else 200)
        count += 1
        index += 1
    print(json.dumps({"tree": out, "exchanges": count}))


def decision_probes(root, out):
    """The probes of variants, templates and scripts; returns how many exchanges they are."""
    # Decision probes: the variant that answers is the last of four (matched on a header and a query
    # parameter), or the one whose JSON Pointer condition holds on a 1 KiB body.
    variants_exchange(root, "api/v1/variants", "GET", [
        ({"headers": {"X-Client": "mobile"}, "query": {"page": "2"}}, "variant-1.json", json_text(dict(BODY, id=11))),
        ({"headers": {"X-Client": "bench"}, "query": {"page": "1"}}, "variant-2.json", json_text(dict(BODY, id=12))),
        ({"headers": {"X-Client": {"prefix": "web"}}, "query": {"page": "2"}}, "variant-3.json", json_text(dict(BODY, id=13))),
        ({"headers": {"X-Client": "bench"}, "query": {"page": "2"}}, "variant-4.json", json_text(dict(BODY, id=14))),
    ])
    variants_exchange(root, "api/v1/orders", "POST", [
        ({"json": {"/customer/tier": "gold"}}, "gold.json", json_text(dict(BODY, id=21))),
        (None, "other.json", json_text(dict(BODY, id=22))),
    ])
    write(os.path.join(out, "order.json"), order_body())
    write(os.path.join(out, "order-256.json"), small_order())
    # The template probe: hello's body with three of its values taken from the request.
    template = dict(BODY, id="{{request.pathParameters.id}}", name="{{request.queryParameters.name}}",
                    kind="{{request.headers.x-client}}")
    folder = os.path.join(root, "api/v1/greetings/{id}/GET")
    write(os.path.join(folder, "configuration.json"), json.dumps({"template": True, "body": template}, indent=2) + "\n")
    with open(os.path.join(out, "greeting.json"), "w") as f:
        f.write(json.dumps(dict(BODY, id="42", name="espresso", kind="bench"), separators=(",", ":")))
    # Script probes: a trivial script, and one that reads a 2 KiB JSON body and answers part of it.
    scripted = os.path.join(root, "api/v1/scripted/{id}/GET")
    write(os.path.join(scripted, "configuration.json"), json.dumps({
        "javascript": "function response(request) { return Response.ok(Body.json({id: request.pathParameters.id})); }"}) + "\n")
    write(os.path.join(out, "scripted.json"), '{"id":"42"}')
    large, answer = large_order()
    scripted_orders = os.path.join(root, "api/v1/scripted-orders/POST")
    write(os.path.join(scripted_orders, "configuration.json"), json.dumps({"javascript_file": "order.js"}) + "\n")
    write(os.path.join(scripted_orders, "order.js"), """function response(request) {
    const order = request.bodyJSON;
    return Response.ok(Body.json({order: order.order_id, customer: order.customer.id, lines: order.items.length,
        quantity: order.items.reduce((sum, item) => sum + item.quantity, 0)}));
}
""")
    write(os.path.join(out, "order-2k.json"), large)
    write(os.path.join(out, "scripted-order.json"), answer)
    return 5


if __name__ == "__main__":
    main()
