#!/usr/bin/env python3
"""first_200.py URL READY_FILE LIMIT_S: time the first 200 of a server that is about to start.

Started *before* the server, so that Python's own start-up is not counted: it first checks that nothing
listens on URL's port yet (else writes "busy" and exits 3), writes "polling" to READY_FILE, then tries
GET URL (http or https) every 2 ms. It appends the wall-clock time of the first 200 (time.time(), seconds), or "timeout"
after LIMIT_S seconds (exit 1)."""
import http.client
import socket
import ssl
import sys
import time
import urllib.parse

url, ready_file, limit = sys.argv[1], sys.argv[2], float(sys.argv[3])
parts = urllib.parse.urlsplit(url)

probe = socket.socket()
busy = probe.connect_ex((parts.hostname, parts.port)) == 0
probe.close()
if busy:
    with open(ready_file, "w") as f:
        f.write("busy\n")
    sys.exit(3)

with open(ready_file, "w") as f:
    f.write("polling\n")
deadline = time.monotonic() + limit
while time.monotonic() < deadline:
    try:
        if parts.scheme == "https":  # the bench's own certificate: readiness only, not trust
            connection = http.client.HTTPSConnection(parts.hostname, parts.port, timeout=2, context=ssl._create_unverified_context())
        else:
            connection = http.client.HTTPConnection(parts.hostname, parts.port, timeout=2)
        connection.request("GET", parts.path or "/")
        response = connection.getresponse()
        response.read()
        connection.close()
        if response.status == 200:
            with open(ready_file, "a") as f:
                f.write("%.6f\n" % time.time())
            sys.exit(0)
    except OSError:
        pass
    time.sleep(0.002)
with open(ready_file, "a") as f:
    f.write("timeout\n")
sys.exit(1)
