#!/usr/bin/env python3
"""Serves a tree with a JavaScript response under the restriction the hardened unit's
MemoryDenyWriteExecute=yes puts on the daemon (no memory both writable and executable, through the
kernel's PR_SET_MDWE, which the child inherits), and checks that the script answers.
Exit 0: it answers; 1: it does not; 2: this kernel cannot apply the restriction (before Linux 6.3).

    script_under_mdwe.py BINARY
"""
import ctypes
import json
import os
import shutil
import subprocess
import sys
import tempfile
import urllib.request

PR_SET_MDWE = 65
PR_MDWE_REFUSE_EXEC_GAIN = 1


def deny_write_execute():
    libc = ctypes.CDLL(None, use_errno=True)
    if libc.prctl(PR_SET_MDWE, PR_MDWE_REFUSE_EXEC_GAIN, 0, 0, 0) != 0:
        raise OSError(ctypes.get_errno(), "prctl(PR_SET_MDWE)")


def main():
    binary = sys.argv[1]
    try:
        probe = subprocess.run(["true"], preexec_fn=deny_write_execute)
        probe.check_returncode()
    except (OSError, subprocess.SubprocessError) as error:
        print(f"script_under_mdwe: cannot deny write+execute here: {error}", file=sys.stderr)
        return 2
    folder = tempfile.mkdtemp()
    try:
        method = os.path.join(folder, "network-exchanges", "items", "{id}", "GET")
        os.makedirs(method)
        with open(os.path.join(method, "configuration.json"), "w") as file:
            json.dump({"javascript": "function response(request) { return Response.ok(Body.json({id: request.pathParameters.id})); }"}, file)
        server = subprocess.Popen(
            [binary, "run", "--port", "0", "--log-level", "ERROR"], cwd=folder, stdout=subprocess.PIPE,
            env={"PATH": "/usr/bin:/bin"}, preexec_fn=deny_write_execute)
        try:
            line = server.stdout.readline().decode().strip()
            prefix = "espressomartini listening on "
            assert line.startswith(prefix), f"unexpected first line: {line!r}"
            with urllib.request.urlopen(line[len(prefix):] + "/items/7", timeout=10) as response:
                body = response.read().decode()
                assert response.status == 200 and json.loads(body) == {"id": "7"}, f"{response.status} {body}"
        finally:
            server.terminate()
            server.wait(timeout=15)
    except Exception as error:  # noqa: BLE001 - any failure is reported and fails the check
        print(f"script_under_mdwe: {error!r}", file=sys.stderr)
        return 1
    finally:
        shutil.rmtree(folder)
    return 0


if __name__ == "__main__":
    sys.exit(main())
