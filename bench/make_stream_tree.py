#!/usr/bin/env python3
"""Write the tree of the streams and slow-links rows of the benchmark (doc/streams-and-networks.md).

    bench/make_stream_tree.py --out /tmp/espressomartini-bench/tree-streams --blob BLOB

OUT/network-exchanges/ holds:

    GET /api/v1/hello        the 101-byte JSON of bench/ceiling.c: readiness, and the requests answered
                             while the streams run
    GET /api/v1/events       a Server-Sent Events stream of 10 events, each 100 ms after the previous one
    GET /api/v1/slow         the 1 MiB file BLOB at "100KB" (100 KiB/s): 10.24 s
    GET /api/v1/downloads    a 256 KiB file at "64KB" (64 KiB/s): 4 s, for 500 downloads at once

OUT/configuration.json has "log_level": "ERROR" and "watch": false; the port is given on the command line.
"""
import argparse
import json
import os
import shutil

from make_tree import BODY, json_text

parser = argparse.ArgumentParser()
parser.add_argument("--out", required=True)
parser.add_argument("--blob", required=True, help="the 1 MiB file, made by make_tree.py")
arguments = parser.parse_args()

root = os.path.join(arguments.out, "network-exchanges", "api", "v1")
shutil.rmtree(arguments.out, ignore_errors=True)


def exchange(path, configuration, files=()):
    folder = os.path.join(root, path, "GET")
    os.makedirs(folder)
    with open(os.path.join(folder, "configuration.json"), "w") as file:
        json.dump(configuration, file)
    for name, content in files:
        with open(os.path.join(folder, name), "wb") as file:
            file.write(content)


exchange("hello", {"response_file": "response.json"}, [("response.json", json_text(BODY).encode())])
exchange("events", {
    "headers": {"Content-Type": "text/event-stream"},
    "stream": [{"delay": 0.1, "id": str(n), "data": {"n": n, "token": "token %d" % n}} for n in range(10)],
})
with open(arguments.blob, "rb") as file:
    blob = file.read()
exchange("slow", {"response_file": "1MiB.bin", "bandwidth": "100KB"}, [("1MiB.bin", blob)])
exchange("downloads", {"response_file": "256KiB.bin", "bandwidth": "64KB"}, [("256KiB.bin", blob[:256 * 1024])])
with open(os.path.join(arguments.out, "configuration.json"), "w") as file:
    json.dump({"log_level": "ERROR", "watch": False}, file)
