#!/usr/bin/env python3
"""Runs espressomartini with NOTIFY_SOCKET pointing at a datagram socket of ours, as systemd would,
and checks that READY=1 arrives once the port already answers, and STOPPING=1 plus exit 0 on SIGTERM.

    notify_ready.py BINARY CONFIGURATION
"""
import os
import signal
import socket
import subprocess
import sys
import tempfile
import urllib.request


def receive(sock, wanted, timeout=10):
    sock.settimeout(timeout)
    while True:
        message = sock.recv(4096).decode()
        if wanted in message.split("\n"):
            return message


def main():
    binary, configuration = sys.argv[1], sys.argv[2]
    folder = tempfile.mkdtemp()
    path = os.path.join(folder, "notify.sock")
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    sock.bind(path)
    server = subprocess.Popen(
        [binary, "run", "--configuration", configuration, "--port", "0", "--log-level", "ERROR"],
        stdout=subprocess.PIPE, env={"PATH": "/usr/bin:/bin", "NOTIFY_SOCKET": path})
    try:
        receive(sock, "READY=1")
        # The listening line is written before READY=1, so it is there to read now.
        line = server.stdout.readline().decode().strip()
        prefix = "espressomartini listening on "
        assert line.startswith(prefix), f"unexpected first line: {line!r}"
        with urllib.request.urlopen(line[len(prefix):] + "/api/hello", timeout=5) as response:
            assert response.status == 200, f"status {response.status}"
        server.send_signal(signal.SIGTERM)
        receive(sock, "STOPPING=1")
        code = server.wait(timeout=15)
        assert code == 0, f"exit code {code}"
    except Exception as error:  # noqa: BLE001 - any failure is reported and fails the check
        print(f"notify_ready: {error!r}", file=sys.stderr)
        server.kill()
        return 1
    finally:
        sock.close()
        os.unlink(path)
        os.rmdir(folder)
    return 0


if __name__ == "__main__":
    sys.exit(main())
