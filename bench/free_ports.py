#!/usr/bin/env python3
"""free_ports.py N: print N distinct TCP ports of 127.0.0.1 that are free right now, one a line.

Each is found by binding port 0 (the kernel picks from its ephemeral range); all N sockets stay open until
every port is chosen, so the N differ. A server started on one a moment later can still lose a race:
bench/run.sh then reports the server's own "cannot bind" message."""
import socket
import sys

sockets = []
for _ in range(int(sys.argv[1])):
    s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    s.bind(("127.0.0.1", 0))
    sockets.append(s)
print("\n".join(str(s.getsockname()[1]) for s in sockets))
for s in sockets:
    s.close()
