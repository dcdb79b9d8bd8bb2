#!/usr/bin/env python3
"""Runs a command once, its output thrown away, and prints how it went as one JSON object:
{"status": EXIT_STATUS, "wall_s": SECONDS, "maxrss_kib": PEAK_RESIDENT_KIB}. The peak is the kernel's own
account of the finished process (ru_maxrss from wait4, the VmHWM it reached).

Usage: time_command.py COMMAND [ARGUMENT...]
"""
import json
import os
import subprocess
import sys
import time

start = time.monotonic()
child = subprocess.Popen(sys.argv[1:], stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
_, status, usage = os.wait4(child.pid, 0)
wall = time.monotonic() - start
child.returncode = os.waitstatus_to_exitcode(status)
print(json.dumps({"status": child.returncode, "wall_s": round(wall, 4), "maxrss_kib": usage.ru_maxrss}))
