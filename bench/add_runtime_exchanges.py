#!/usr/bin/env python3
"""add_runtime_exchanges.py PORT: gives the server on 127.0.0.1:PORT 1000 runtime exchanges over 100 sessions
(bench-1 … bench-100, ten each: literal and {id} routes under /api/v1/runtime/), and one for every request,
GET /api/v1/runtime-hello, answering hello's file (the tree's own response.json) as the tree's hello does.
Exits 1 naming the first exchange the server refused."""
import json
import sys
import urllib.request

port = int(sys.argv[1])


def add(body, session=None):
    url = "http://127.0.0.1:%d/__espressomartini/exchanges" % port
    if session:
        url += "?session=" + session
    request = urllib.request.Request(url, data=json.dumps(body).encode(), method="POST",
                                     headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(request, timeout=10) as answer:
            if answer.status != 201:
                sys.exit("refused (%d): %s" % (answer.status, body))
    except urllib.error.HTTPError as error:
        sys.exit("refused (%d): %s: %s" % (error.code, body, error.read()[:300]))


for session in range(1, 101):
    for n in range(10):
        route = "/api/v1/runtime/%d/items/%s" % (n, "{id}" if n % 2 else "list")
        add({"method": "GET", "route": route, "configuration": {"body": {"session": session, "n": n}}},
            "bench-%d" % session)
add({"method": "GET", "route": "/api/v1/runtime-hello",
     "configuration": {"response_file": "api/v1/hello/GET/response.json"}})
