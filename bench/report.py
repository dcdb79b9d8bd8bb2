#!/usr/bin/env python3
"""report.py RAW.jsonl KEY=VALUE...: the Markdown report of one `make bench` run.

A server's slices of one comparison in a round are combined into one load. Every figure is the median over
the rounds; every ratio is the median of the ratios taken within each round (the two sides measured in
alternating slices, so the machine's other work weighs on both alike).
KEY=VALUE pairs (date, machine, load, rerun, version, libmicrohttpd, settings, wall, nginx) fill the header.
"""
import json
import statistics
import sys
from collections import defaultdict

records = [json.loads(line) for line in open(sys.argv[1]) if line.strip()]
meta = dict(argument.split("=", 1) for argument in sys.argv[2:])
rounds = sorted({r["round"] for r in records})

slices = defaultdict(list)     # (server, probe, round) -> [wrk record of each slice]
failures = defaultdict(list)   # (server, probe) -> [reason]
values = defaultdict(dict)     # (server, metric) -> {round: value}
drains = defaultdict(list)     # (server, round) -> [{written, requests, seconds} after each recording slice]
for r in records:
    if "drain" in r:
        drains[(r["server"], r["round"])].append(r["drain"])
    elif "failed" in r:
        failures[(r["server"], r["probe"])].append(r["failed"])
    elif "metric" in r:
        if r["value"] is not None:
            values[(r["server"], r["metric"])][r["round"]] = r["value"]
    else:
        slices[(r["server"], r["probe"], r["round"])].append(r)


def combined(parts):
    """one server's slices of one round as one load: totals summed, rates over the time measured,
    latency percentiles averaged over the slices weighted by their requests, the longest latency"""
    requests = sum(p["requests"] for p in parts)
    seconds = sum(p["seconds"] for p in parts)
    weighted = lambda field: sum(p[field] * p["requests"] for p in parts) / requests if requests else None
    errors = defaultdict(int)
    for p in parts:
        for kind, n in p["errors"].items():
            errors[kind] += n
    ticks = sum(p["cpu_ticks"] for p in parts)
    busy = [p["busy_ticks"] for p in parts if "busy_ticks" in p]
    return {
        "round": parts[0]["round"], "server": parts[0]["server"], "probe": parts[0]["probe"],
        "connections": parts[0]["connections"], "slices": len(parts), "requests": requests, "seconds": seconds,
        "rps": requests / seconds if seconds else None, "mib_s": sum(p["bytes"] for p in parts) / seconds / 1048576 if seconds else None,
        "p50_us": weighted("p50_us"), "p99_us": weighted("p99_us"), "max_us": max(p["max_us"] for p in parts),
        "errors": dict(errors), "cpu_us": ticks * 1e6 / parts[0]["clk_tck"] / requests if requests else None,
        "machine_cpu_us": sum(busy) * 1e6 / parts[0]["clk_tck"] / requests if requests and len(busy) == len(parts) else None,
    }


loads = defaultdict(dict)      # (server, probe) -> {round: the round's slices combined}
for (server, probe, n), parts in slices.items():
    loads[(server, probe)][n] = combined(parts)


def median(xs):
    xs = [x for x in xs if x is not None]
    return statistics.median(xs) if xs else None


def figure(server, probe, field):
    return median(r[field] for r in loads[(server, probe)].values())


def ratio(a, b, field):
    """median over rounds of a/b, a and b being (server, probe) measured in the same round"""
    return median(loads[a][n][field] / loads[b][n][field]
                  for n in loads[a] if n in loads[b] and loads[a][n][field] and loads[b][n][field])


def value_ratio(a, b, metric):
    return median(values[(a, metric)][n] / values[(b, metric)][n]
                  for n in values[(a, metric)] if n in values[(b, metric)] and values[(b, metric)][n])


def count(x):
    return "—" if x is None else "{:,.0f}".format(x)


def ms(us):
    return "—" if us is None else "%.2f" % (us / 1000)


def times(x):
    return "—" if x is None else "%.2f" % x


def against_target(x, target):
    """a ratio beside the least it should be"""
    verdict = "" if x is None else ", met" if x >= target else ", **missed**"
    return "%s (target ≥ %.2f%s)" % (times(x), target, verdict)


def below(server, metric, fmt, limit, shown_limit):
    """a figure's spread beside the most it may be"""
    xs = list(values[(server, metric)].values())
    verdict = "" if not xs else ", met" if median(xs) < limit else ", **missed**"
    return "%s (target < %s%s)" % (spread(server, metric, fmt), shown_limit, verdict)


def warning(server, probe):
    """failed rounds and wrk errors, to append to a cell"""
    notes = []
    if failures[(server, probe)]:
        notes.append("%d round(s) failed: %s" % (len(failures[(server, probe)]), failures[(server, probe)][0][:120]))
    errors = sum(sum(r["errors"].values()) for r in loads[(server, probe)].values())
    if errors:
        notes.append("%d socket/HTTP errors" % errors)
    return (" ⚠ " + "; ".join(notes)) if notes else ""


def cell(server, probe, field, fmt=count):
    if not loads[(server, probe)]:
        return "FAIL" + warning(server, probe) if failures[(server, probe)] else "—"
    return fmt(figure(server, probe, field)) + warning(server, probe)


def spread(server, metric, fmt):
    xs = list(values[(server, metric)].values())
    if not xs:
        return "—"
    text = fmt(median(xs))
    return text + (" [%s–%s]" % (fmt(min(xs)), fmt(max(xs))) if len(xs) > 1 else "")


def recording_rate(n, server="em-record"):
    """exchanges written per second in round n by the recorder `server`: every recording slice's exchanges over
    its load's time plus the time its writes took to be done"""
    load = loads[(server, "recorded")].get(n)
    if not load or not drains[(server, n)]:
        return None
    written = sum(d["written"] for d in drains[(server, n)])
    return written / (load["seconds"] + sum(d["seconds"] for d in drains[(server, n)]))


def shm_recording_rate(n):
    return recording_rate(n, "em-record-shm")


def over_forwarding(rate):
    """the median over rounds of rate(round) (exchanges/s) over the forwarding of distinct requests in that round"""
    forwarding = loads[("em-proxy", "distinct")]
    return median(rate(n) / forwarding[n]["rps"] for n in forwarding if rate(n) and forwarding[n]["rps"])


def recording_to_floor(server="em-record", floor_name="files-floor"):
    """the recording rate over the file system's pace measured in the same round"""
    floor = values[(floor_name, "exchanges_per_s")]
    return median(recording_rate(n, server) / floor[n] for n in loads[(server, "recorded")] if recording_rate(n, server) and floor.get(n))


def recording_bound(n, floor_name="files-floor"):
    """the most exchanges a second recording could write in round n, were its own work free: the machine's cores
    over what forwarding one such request cost the whole machine (client, upstream and server, measured) plus
    what writing its files cost the C loop"""
    forwarding = loads[("em-proxy", "distinct")].get(n)
    floor = values[(floor_name, "cpu_us_per_exchange")].get(n)
    cores = values[("machine", "cores")].get(n)
    if not forwarding or not forwarding.get("machine_cpu_us") or not floor or not cores:
        return None
    return cores * 1e6 / (forwarding["machine_cpu_us"] + floor)


def recording_cell(server="em-record"):
    rates = [recording_rate(n, server) for n in loads[(server, "recorded")]]
    unwritten = sum(d["requests"] - d["written"] for ds in (drains[(server, n)] for n in rounds) for d in ds)
    note = " ⚠ %d requests never written" % unwritten if unwritten > 0 else ""
    return ("—" if not any(rates) else count(median(rates))) + note + warning(server, "recorded")


mib = lambda kib: "%.1f MiB" % (kib / 1024)
startup = lambda s: "%.1f ms" % (s * 1000)
seconds = lambda s: "%.2f s" % s
cpu_us = lambda x: "—" if x is None else "%.1f" % x
ms_value = lambda x: "%.1f ms" % x


def logged():
    """the access-log lines written during the INFO load per request wrk counted (the extra one is the
    request run.sh sends to check the route first)"""
    shares = [(values[("em-10-info", "access_log_lines")][n] - 1) / r["requests"]
              for n, r in loads[("em-10-info", "hello")].items()
              if values[("em-10-info", "access_log_lines")].get(n) is not None and r["requests"]]
    if not shares:
        return ""
    share = min(shares)
    return "; every request logged" if share >= 0.999 else " ⚠ only %.1f%% of the requests logged" % (100 * share)


rows = [
    ("Small JSON (`GET /api/v1/hello`, 101 bytes), 10-exchange tree: req/s",
     cell("ceiling", "hello", "rps"), cell("em-10", "hello", "rps"),
     times(ratio(("em-10", "hello"), ("ceiling", "hello"), "rps"))),
    ("… latency p50 / p99, ms",
     "%s / %s" % (cell("ceiling", "hello", "p50_us", ms), cell("ceiling", "hello", "p99_us", ms)),
     "%s / %s" % (cell("em-10", "hello", "p50_us", ms), cell("em-10", "hello", "p99_us", ms)),
     "%s / %s" % (times(ratio(("em-10", "hello"), ("ceiling", "hello"), "p50_us")),
                  times(ratio(("em-10", "hello"), ("ceiling", "hello"), "p99_us")))),
    ("… server CPU per request, µs",
     cell("ceiling", "hello", "cpu_us", cpu_us),
     cell("em-10", "hello", "cpu_us", cpu_us),
     times(ratio(("em-10", "hello"), ("ceiling", "hello"), "cpu_us"))),
    ("… with the access log at INFO (to a file) vs ERROR: req/s", "—",
     "%s vs %s%s" % (cell("em-10-info", "hello", "rps"), cell("em-10", "hello", "rps"), logged()),
     times(ratio(("em-10-info", "hello"), ("em-10", "hello"), "rps"))),
    ("… with CORS on (`--cors`), each request with an `Origin`: req/s",
     cell("ceiling", "hello", "rps"), cell("em-10-cors", "cors", "rps"),
     against_target(ratio(("em-10-cors", "cors"), ("ceiling", "hello"), "rps"), 0.85)),
    ("Small JSON with 2 connections (nothing batches: a turn of a server's loop per request): req/s",
     cell("ceiling", "hello2", "rps"), cell("em-10", "hello2", "rps"),
     times(ratio(("em-10", "hello2"), ("ceiling", "hello2"), "rps"))),
    ("… server CPU per request, µs",
     cell("ceiling", "hello2", "cpu_us", cpu_us), cell("em-10", "hello2", "cpu_us", cpu_us),
     times(ratio(("em-10", "hello2"), ("ceiling", "hello2"), "cpu_us"))),
]
for probe, title, target in (
        ("variants", "4 variants, the last answering (a header and a query parameter), vs the static small JSON", 0.80),
        ("json", "A JSON Pointer condition on a 1 KiB POSTed JSON body vs the static small JSON", 0.60),
        ("template", "A templated JSON body with 3 values from the request (path parameter, query parameter, header) vs the static small JSON", 0.60),
        ("sessions", "The small JSON with a session header, 1000 sessions in rotation, vs without", 0.85),
        ("script", "A trivial script (Response.ok(Body.json({id: …}))) vs the static small JSON", 0.50),
        ("scriptjson", "A script reading a 2 KiB POSTed JSON body and answering part of it vs the static small JSON", 0.30)):
    rows.append(("%s, same server, 10-exchange tree: req/s" % title, "—",
                 "%s vs %s" % (cell("em-10", probe, "rps"), cell("em-10", "static", "rps")),
                 against_target(ratio(("em-10", probe), ("em-10", "static"), "rps"), target)))
rows.append(("The static small JSON beside 1000 runtime exchanges over 100 sessions vs without them: req/s", "—",
             "%s vs %s" % (cell("em-runtime", "hello", "rps"), cell("em-10", "hello", "rps")),
             against_target(ratio(("em-runtime", "hello"), ("em-10", "hello"), "rps"), 0.95)))
rows.append(("… with a session header, 1000 sessions in rotation (100 with runtime exchanges): req/s", "—",
             "%s vs %s" % (cell("em-runtime", "sessions", "rps"), cell("em-10", "sessions", "rps")),
             against_target(ratio(("em-runtime", "sessions"), ("em-10", "sessions"), "rps"), 0.95)))
rows.append(("The small JSON from a runtime exchange vs the same from the tree, same server: req/s", "—",
             "%s vs %s" % (cell("em-runtime", "runtime", "rps"), cell("em-runtime", "static", "rps")),
             against_target(ratio(("em-runtime", "runtime"), ("em-runtime", "static"), "rps"), 0.90)))
for probe, title in (("deep", "Deep literal route (11 segments)"),
                     ("id", "`{id}` route (`/api/v1/users/{id}/profile`)"),
                     ("glob", "`**` route (`/api/v1/files/**`, 3 segments matched)")):
    rows.append(("%s, 10 000- vs 10-exchange tree: req/s" % title, "—",
                 "%s vs %s" % (cell("em-10000", probe, "rps"), cell("em-10", probe, "rps")),
                 times(ratio(("em-10000", probe), ("em-10", probe), "rps"))))
rows.append(("1 MiB file (`response_file`; kept in memory, files over 2 MiB are streamed from disk), 32 connections: MiB/s",
             cell("ceiling-file", "file", "mib_s"), cell("em-10", "file", "mib_s"),
             times(ratio(("em-10", "file"), ("ceiling-file", "file"), "mib_s"))))
if loads[("nginx", "file")] or failures[("nginx", "file")]:
    rows.append(("… the same file from nginx (sendfile), for reference: espressomartini vs nginx, MiB/s", "—",
                 "%s vs %s" % (cell("em-10", "file", "mib_s"), cell("nginx", "file", "mib_s")),
                 times(ratio(("em-10", "file"), ("nginx", "file"), "mib_s"))))
if loads[("em-10-tls", "tls")] or failures[("em-10-tls", "tls")]:
    rows.append(("Small JSON over HTTPS on kept-alive connections, the same certificate (RSA 2048): espressomartini vs nginx, req/s", "—",
                 "%s vs %s" % (cell("em-10-tls", "tls", "rps"), cell("nginx-tls", "tls", "rps")),
                 times(ratio(("em-10-tls", "tls"), ("nginx-tls", "tls"), "rps"))))
    rows.append(("… latency p50 / p99, ms, espressomartini vs nginx", "—",
                 "%s / %s vs %s / %s" % (cell("em-10-tls", "tls", "p50_us", ms), cell("em-10-tls", "tls", "p99_us", ms),
                                         cell("nginx-tls", "tls", "p50_us", ms), cell("nginx-tls", "tls", "p99_us", ms)),
                 "%s / %s" % (times(ratio(("em-10-tls", "tls"), ("nginx-tls", "tls"), "p50_us")),
                              times(ratio(("em-10-tls", "tls"), ("nginx-tls", "tls"), "p99_us")))))
if loads[("em-proxy", "proxied")] or failures[("em-proxy", "proxied")]:
    rows.append(("Forwarding the small JSON to an upstream (a ceiling): espressomartini `--proxy` vs nginx `proxy_pass` with "
                 "upstream `keepalive`, req/s", "—",
                 "%s vs %s" % (cell("em-proxy", "proxied", "rps"), cell("nginx-proxy", "proxied", "rps")),
                 against_target(ratio(("em-proxy", "proxied"), ("nginx-proxy", "proxied"), "rps"), 0.90)))
    rows.append(("… the same with 2 connections: req/s", "—",
                 "%s vs %s" % (cell("em-proxy", "proxied2", "rps"), cell("nginx-proxy", "proxied2", "rps")),
                 against_target(ratio(("em-proxy", "proxied2"), ("nginx-proxy", "proxied2"), "rps"), 0.90)))
    if loads[("ceiling-proxy", "proxied")]:
        rows.append(("… bare libmicrohttpd forwarding the same way (bench/proxy_ceiling.c: the connection suspended, a "
                     "thread of its own for the upstream, resumed with the answer) vs nginx, req/s", "—",
                     "%s vs %s" % (cell("ceiling-proxy", "proxied", "rps"), cell("nginx-proxy", "proxied", "rps")),
                     times(ratio(("ceiling-proxy", "proxied"), ("nginx-proxy", "proxied"), "rps"))))
        rows.append(("… espressomartini vs bare libmicrohttpd forwarding: req/s; CPU per request, µs (server process)",
                     "%s; %s" % (cell("ceiling-proxy", "proxied", "rps"), cell("ceiling-proxy", "proxied", "cpu_us", cpu_us)),
                     "%s; %s" % (cell("em-proxy", "proxied", "rps"), cell("em-proxy", "proxied", "cpu_us", cpu_us)),
                     "%s; %s" % (times(ratio(("em-proxy", "proxied"), ("ceiling-proxy", "proxied"), "rps")),
                                 times(ratio(("em-proxy", "proxied"), ("ceiling-proxy", "proxied"), "cpu_us")))))
    rows.append(("… latency p50 / p99, ms, espressomartini vs nginx", "—",
                 "%s / %s vs %s / %s" % (cell("em-proxy", "proxied", "p50_us", ms), cell("em-proxy", "proxied", "p99_us", ms),
                                         cell("nginx-proxy", "proxied", "p50_us", ms), cell("nginx-proxy", "proxied", "p99_us", ms)),
                 "%s / %s" % (times(ratio(("em-proxy", "proxied"), ("nginx-proxy", "proxied"), "p50_us")),
                              times(ratio(("em-proxy", "proxied"), ("nginx-proxy", "proxied"), "p99_us")))))
    rows.append(("Recording requests never seen (`record`, each a new exchange written into the tree, counted until "
                 "its writes are done) vs forwarding such requests: exchanges/s vs req/s", "—",
                 "%s vs %s" % (recording_cell(), cell("em-proxy", "distinct", "rps")),
                 against_target(over_forwarding(recording_rate), 0.50)))
    rows.append(("… the file system's pace for that: the same new folders and files per exchange, written from a C loop "
                 "(bench/files_floor.c) vs `record`: exchanges/s", spread("files-floor", "exchanges_per_s", count),
                 recording_cell(), times(recording_to_floor())))
    bounds = [recording_bound(n) for n in rounds]
    if any(bounds):
        rows.append(("… the most recording could reach here, were its own work free: the %s cores over what forwarding "
                     "one request cost the whole machine (%.0f µs: client, upstream and server, from /proc/stat) plus what "
                     "the C loop spent per exchange (%.0f µs), vs forwarding: exchanges/s vs req/s"
                     % (median(values[("machine", "cores")].values()), figure("em-proxy", "distinct", "machine_cpu_us"),
                        median(values[("files-floor", "cpu_us_per_exchange")].values())),
                     "—", "%s vs %s" % (count(median(bounds)), cell("em-proxy", "distinct", "rps")),
                     times(over_forwarding(recording_bound))))
    if loads[("em-record-shm", "recorded")]:
        rows.append(("Recording the same into memory (tmpfs, /dev/shm): what recording costs without this machine's disk, "
                     "vs forwarding: exchanges/s vs req/s", "—",
                     "%s vs %s" % (recording_cell("em-record-shm"), cell("em-proxy", "distinct", "rps")),
                     against_target(over_forwarding(shm_recording_rate), 0.50)))
        rows.append(("… the files floor on tmpfs (bench/files_floor.c) vs `record` into tmpfs: exchanges/s",
                     spread("files-floor-shm", "exchanges_per_s", count), recording_cell("em-record-shm"),
                     times(recording_to_floor("em-record-shm", "files-floor-shm"))))
        shm_bounds = [recording_bound(n, "files-floor-shm") for n in rounds]
        if any(shm_bounds):
            rows.append(("… the most recording into tmpfs could reach here, were its own work free (the C loop on tmpfs: %.0f µs "
                         "per exchange): exchanges/s vs req/s" % median(values[("files-floor-shm", "cpu_us_per_exchange")].values()),
                         "—", "%s vs %s" % (count(median(shm_bounds)), cell("em-proxy", "distinct", "rps")),
                         times(over_forwarding(lambda n: recording_bound(n, "files-floor-shm")))))
rows += [
    ("Start-up to the first 200, 10 000-exchange tree, files cached (the ceiling has no tree)",
     spread("ceiling", "startup_s", startup), spread("em-10000", "startup_s", startup), "—"),
    ("Resident memory idle after start-up, 10 000-exchange tree",
     spread("ceiling", "rss_idle_kib", mib), spread("em-10000", "rss_idle_kib", mib),
     times(value_ratio("em-10000", "ceiling", "rss_idle_kib"))),
    ("Server threads idle after start-up, 10 000-exchange tree",
     spread("ceiling", "threads_idle", count), spread("em-10000", "threads_idle", count), "—"),
    ("Resident memory after the loads, 10 000-exchange tree",
     spread("ceiling", "rss_after_kib", mib), spread("em-10000", "rss_after_kib", mib),
     times(value_ratio("em-10000", "ceiling", "rss_after_kib"))),
    ("Resident memory after the script loads (trivial and 2 KiB JSON scripts, 64 connections), 10-exchange tree "
     "(target ≤ 64 MiB)", "—", spread("em-10", "rss_after_scripts_kib", mib), "—"),
    ("A script allocating without end, 3 calls on a server of its own, each a 500 naming `script_memory`: resident "
     "memory's peak above the start", "—",
     below("em-runaway", "runaway_peak_kib", mib, 512 * 1024, "512 MiB") + warning("em-runaway", "runaway"), "—"),
    ("… its resident memory 2 s after the third call, above the start", "—",
     below("em-runaway", "runaway_after_kib", mib, 256 * 1024, "256 MiB") + warning("em-runaway", "runaway"), "—"),
    ("`import openapi`: a generated description of 1000 operations (4.6 MB of YAML, 200 schemas with $refs, "
     "allOf, oneOf and nesting), into a new folder: wall time", "—",
     below("import-openapi-1000", "wall_s", seconds, 2, "2 s"), "—"),
    ("… peak resident memory (VmHWM) of the import", "—",
     below("import-openapi-1000", "maxrss_kib", mib, 256 * 1024, "256 MiB"), "—"),
    ("`import openapi`: the OpenAPI Initiative's petstore (3 operations): wall time", "—",
     below("import-petstore", "wall_s", startup, 0.05, "50 ms"), "—"),
    ("Stripe's public description imported (468 operations, 5 148 `Prefer` variants): start-up to the first 200",
     "—", below("em-stripe", "startup_s", startup, 0.2, "0.2 s"), "—"),
    ("… its resident memory idle after start-up", "—",
     below("em-stripe", "rss_idle_kib", mib, 32 * 1024, "32 MiB"), "—"),
    ("… `endpoints` on its tree: wall time", "—", below("em-stripe", "endpoints_wall_s", startup, 0.2, "0.2 s"), "—"),
    ("Resident memory after all the loads (JSON, routes, 1 MiB file), 10-exchange tree",
     spread("ceiling-file", "rss_after_file_kib", mib), spread("em-10", "rss_after_file_kib", mib),
     times(value_ratio("em-10", "ceiling-file", "rss_after_file_kib"))),
    ("Resident memory of `record` after its loads", "—", spread("em-record", "rss_after_kib", mib), "—"),
]

def entry_bytes():
    """resident memory of the full journal's server minus that of the one-entry server, per entry"""
    shares = [(values[("em-journal", "rss_journal_full_kib")][n] - values[("em-journal-1", "rss_journal_one_kib")][n]) * 1024 / 100000
              for n in values[("em-journal", "rss_journal_full_kib")] if n in values[("em-journal-1", "rss_journal_one_kib")]]
    return "—" if not shares else "%.0f bytes" % median(shares)


rows += [
    ("Counting requests (`POST requests/count`) with a JSON Pointer condition over a full journal of 100 000 POSTed "
     "256-byte JSON orders, every one matching: time of the call", "—",
     below("em-journal", "count_ms", ms_value, 50, "50 ms"), "—"),
    ("… the same over 1 KiB orders", "—", spread("em-journal", "count_1k_ms", ms_value), "—"),
    ("Memory per journal entry (a POSTed 256-byte order with wrk's headers): resident memory with a journal of "
     "100 000 vs of 1, after the same requests", "—", entry_bytes(), "—"),
]

def stream_value(metric):
    """the median over the rounds of one of em-streams' figures"""
    return median(values[("em-streams", metric)].values())


def verdict(met):
    return "" if met is None else "met" if met else "**missed**"


def streams_rows():
    """doc/streams-and-networks.md: em-streams alone on the machine, figures from bench/slow_clients.c"""
    if not any(server == "em-streams" for server, _ in values) and not any(server == "em-streams" for server, _ in failures):
        return []
    f = stream_value
    late = [f("events_late_p50_ms"), f("events_late_p99_ms"), f("events_late_max_ms")]
    shown = lambda x, fmt="%.1f": "—" if x is None else fmt % x
    threads = (f("events_threads_idle"), f("events_threads_max"))
    memory = (f("events_rss_idle_kib"), f("events_rss_max_kib"))
    events = (f("events_events"), f("events_expected"))
    slow = f("slow_seconds_max")
    many = (f("downloads_seconds_min"), f("downloads_seconds_p50"), f("downloads_seconds_max"))
    many_threads = (f("downloads_threads_idle"), f("downloads_threads_max"))
    note = warning("em-streams", "events") + warning("em-streams", "slow") + warning("em-streams", "downloads")
    missing = lambda *xs: any(x is None for x in xs)
    return [
        ("1000 Server-Sent Events streams at once, 10 events 100 ms apart: how late the events come, p50 / p99 / max, ms "
         "(target p99 ≤ 20 ms)", "—", " / ".join(shown(x) for x in late) + note,
         verdict(None if late[1] is None else late[1] <= 20)),
        ("… every event arrived: events / expected", "—", "%s / %s" % (count(events[0]), count(events[1])),
         verdict(None if missing(*events) else events[0] == events[1])),
        ("… the streams' first byte (headers) after the request, p50 / p99, ms", "—",
         "%s / %s" % (shown(f("events_first_byte_p50_ms")), shown(f("events_first_byte_p99_ms"))), "—"),
        ("… server threads, idle / with 1000 streams open (target ≤ idle + 8)", "—", "%s / %s" % (count(threads[0]), count(threads[1])),
         verdict(None if missing(*threads) else threads[1] <= threads[0] + 8)),
        ("… resident memory, idle / with 1000 streams open (target + < 64 MiB)", "—",
         "%s / %s" % tuple("—" if x is None else mib(x) for x in memory),
         verdict(None if missing(*memory) else memory[1] - memory[0] < 64 * 1024)),
        ("… the small JSON asked meanwhile on one connection: requests, p99 ms", "—",
         "%s, %s" % (count(f("events_probe_requests")), shown(f("events_probe_p99_ms"), "%.2f")),
         verdict(None if f("events_probe_requests") is None else f("events_probe_requests") > 0 and f("events_probe_errors") == 0)),
        ("1 MiB file at `\"bandwidth\": \"100KB\"` (100 KiB/s; 10.24 s by arithmetic): seconds (target 10 s ± 5 %)", "—",
         shown(slow, "%.2f"), verdict(None if slow is None else 9.5 <= slow <= 10.5)),
        ("500 downloads at once of 256 KiB at 64 KiB/s (4 s each): seconds, fastest / median / slowest", "—",
         " / ".join(shown(x, "%.2f") for x in many), verdict(None if missing(*many) else many[0] >= 3.8 and many[2] <= 4.2 * 1.05)),
        ("… server threads, idle / with 500 downloads (target ≤ idle + 8)", "—", "%s / %s" % (count(many_threads[0]), count(many_threads[1])),
         verdict(None if missing(*many_threads) else many_threads[1] <= many_threads[0] + 8)),
    ]


rows += streams_rows()

if meta.get("baseline"):
    def fraction(x):
        return "—" if x is None else "%+.1f%%" % (100 * (x - 1))

    def within(x):
        """a ratio of CPU per request beside its target, +3 % at most"""
        verdict_text = "" if x is None else ", met" if x <= 1.03 else ", **missed**"
        return "%s (%s; target within +3%%%s)" % (times(x), fraction(x), verdict_text)
    rows += [
        ("This build vs the baseline %s, small JSON, 10 000-exchange tree without part-two keys: req/s" % meta["baseline"],
         "—", "%s vs %s" % (cell("em-plain", "plain", "rps"), cell("em-baseline", "plain", "rps")),
         "%s (%s)" % (times(ratio(("em-plain", "plain"), ("em-baseline", "plain"), "rps")),
                      fraction(ratio(("em-plain", "plain"), ("em-baseline", "plain"), "rps")))),
        ("… server CPU per request, µs, this build vs the baseline", "—",
         "%s vs %s" % (cell("em-plain", "plain", "cpu_us", lambda x: "—" if x is None else "%.2f" % x),
                       cell("em-baseline", "plain", "cpu_us", lambda x: "—" if x is None else "%.2f" % x)),
         within(ratio(("em-plain", "plain"), ("em-baseline", "plain"), "cpu_us"))),
        ("… the same with 2 connections: req/s", "—",
         "%s vs %s" % (cell("em-plain", "plain2", "rps"), cell("em-baseline", "plain2", "rps")),
         "%s (%s)" % (times(ratio(("em-plain", "plain2"), ("em-baseline", "plain2"), "rps")),
                      fraction(ratio(("em-plain", "plain2"), ("em-baseline", "plain2"), "rps")))),
        ("… server CPU per request with 2 connections, µs, this build vs the baseline", "—",
         "%s vs %s" % (cell("em-plain", "plain2", "cpu_us", lambda x: "—" if x is None else "%.2f" % x),
                       cell("em-baseline", "plain2", "cpu_us", lambda x: "—" if x is None else "%.2f" % x)),
         within(ratio(("em-plain", "plain2"), ("em-baseline", "plain2"), "cpu_us"))),
        ("… server threads idle after start-up, this build vs the baseline (target: no more)", "—",
         "%s vs %s" % (spread("em-plain", "threads_idle", count), spread("em-baseline", "threads_idle", count)),
         verdict(None if not values[("em-plain", "threads_idle")] or not values[("em-baseline", "threads_idle")]
                 else median(values[("em-plain", "threads_idle")].values()) <= median(values[("em-baseline", "threads_idle")].values()))),
        ("… resident memory idle after start-up, this build vs the baseline (target ≤ 16 MiB)", "—",
         "%s vs %s" % (spread("em-plain", "rss_idle_kib", mib), spread("em-baseline", "rss_idle_kib", mib)),
         times(value_ratio("em-plain", "em-baseline", "rss_idle_kib"))),
        ("… start-up to the first 200, this build vs the baseline", "—",
         "%s vs %s" % (spread("em-plain", "startup_s", startup), spread("em-baseline", "startup_s", startup)),
         times(value_ratio("em-plain", "em-baseline", "startup_s"))),
    ]

out = ["# espressomartini benchmark — %s" % meta.get("date", "?"), ""]
out.append("- Machine: %s; load average %s." % (meta.get("machine", "?"), meta.get("load", "?")))
out.append("- espressomartini %s; libmicrohttpd %s." % (meta.get("version", "?"), meta.get("libmicrohttpd", "?")))
out.append("- %s; %s s in all." % (meta.get("settings", "?"), meta.get("wall", "?")))
out.append("- Rerun: `%s`" % meta.get("rerun", "make bench"))
out.append("")
out.append("| measurement | ceiling | espressomartini | ratio |")
out.append("|---|---:|---:|---:|")
for title, ceiling, project, r in rows:
    out.append("| %s | %s | %s | %s |" % (title, ceiling, project, r))
out.append("")
out.append("The ceiling is `bench/ceiling.c`: libmicrohttpd with as many threads as espressomartini's serving loops "
           "(libmicrohttpd's own: one per CPU, each with an epoll set), a fixed body, no routing, no tree. Figures are medians over the rounds. "
           "**ratio** = espressomartini ÷ ceiling, or, where a cell reads \"A vs B\", A ÷ B; each ratio is the median of "
           "the ratios within a round, each server's alternating slices of a comparison taken together (requests over "
           "the time measured; p50 and p99: the slices' percentiles averaged, weighted by their requests). Below 1 for req/s and MiB/s is slower; above 1 for latency, CPU and memory is more. "
           "The variant rows compare loads on one server in alternating slices; \"static\" is `GET /api/v1/hello` "
           "again, within that comparison. "
           "The machine may be doing other work: compare ratios, not absolute figures, between machines.")
out.append("")

out.append("## Raw numbers")
out.append("")
out.append("Servers: `ceiling` / `ceiling-file` (bench/ceiling.c, JSON / the 1 MiB file), `em-10` and `em-10000` "
           "(espressomartini on the 10- and 10 000-exchange trees, log_level ERROR), `em-10-info` (log_level INFO, "
           "access log to a file), `em-10-cors` (`--cors`), `em-10-tls` (HTTPS), `em-journal` / `em-journal-1` "
           "(journal_size 100000 / 1), `em-streams` (the stream tree, alone), `import-openapi-1000` and `import-petstore` "
           "(`espressomartini import openapi`, the median of three runs), `upstream` (bench/ceiling.c, the proxies' "
           "target), `em-proxy` (`--proxy` to it), `ceiling-proxy` (bench/proxy_ceiling.c, forwarding to it), "
           "`em-record` (`record --target` it), `em-record-shm` (the same into tmpfs)%s." % (
               ", `nginx` / `nginx-tls` / `nginx-proxy` (%s; the 1 MiB file / hello over HTTPS / proxy_pass to the upstream)"
               % meta["nginx"] if meta.get("nginx") else "")
           + (" `em-plain` and `em-baseline`: this build and the baseline %s on the 10 000-exchange tree without "
              "part-two keys." % meta["baseline"] if meta.get("baseline") else ""))
out.append("")
out.append("One row per round and server: its slices of the comparison taken together (every slice is in the .jsonl file).")
out.append("")
out.append("| round | server | path | connections | slices | requests | req/s | MiB/s | p50 ms | p99 ms | max ms | CPU µs/req | errors |")
out.append("|---:|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|")
paths = {"hello": "/api/v1/hello", "deep": "/api/v2/svc5/deep/l1/l2/l3/l4/l5/l6/target",
         "id": "/api/v1/users/12345/profile", "glob": "/api/v1/files/a/b/c.txt", "file": "/api/v1/big",
         "static": "/api/v1/hello (static)", "variants": "/api/v1/variants?page=2 + X-Client",
         "json": "POST /api/v1/orders (1 KiB JSON)", "template": "/api/v1/greetings/42?name=espresso + X-Client (template)",
         "sessions": "/api/v1/hello + X-Espressomartini-Session (1000 in rotation)",
         "cors": "/api/v1/hello + Origin", "tls": "https /api/v1/hello",
         "plain": "/api/v1/hello (tree without part-two keys)", "hello2": "/api/v1/hello, 2 connections",
         "plain2": "/api/v1/hello (tree without part-two keys), 2 connections",
         "proxied2": "/api/v1/proxied/hello (forwarded), 2 connections",
         "proxied": "/api/v1/proxied/hello (forwarded)", "distinct": "/api/v1/proxied/NEW (forwarded, each path new)",
         "recorded": "/api/v1/recorded/NEW (recorded, each path new)"}
order = list(paths)
for r in sorted((r for rs in loads.values() for r in rs.values()),
                key=lambda r: (r["round"], order.index(r["probe"]) if r["probe"] in order else 99, r["server"])):
    errors = ", ".join("%s %d" % kv for kv in r["errors"].items() if kv[1]) or "0"
    out.append("| %d | %s | `%s` | %d | %d | %s | %s | %.1f | %s | %s | %s | %s | %s |" % (
        r["round"], r["server"], paths.get(r["probe"], r["probe"]), r["connections"], r["slices"], count(r["requests"]),
        count(r["rps"]), r["mib_s"], ms(r["p50_us"]), ms(r["p99_us"]), ms(r["max_us"]),
        "—" if r["cpu_us"] is None else "%.1f" % r["cpu_us"], errors))
out.append("")
out.append("| round | server | measurement | value |")
out.append("|---:|---|---|---:|")
for (server, metric), by_round in sorted(values.items()):
    for n, v in sorted(by_round.items()):
        if server == "em-streams":
            shown = mib(v) if metric.endswith("_kib") else "%.3f" % v if isinstance(v, float) else count(v)
        else:
            shown = (startup(v) if metric in ("startup_s", "wall_s") else ms_value(v) if metric.endswith("_ms")
                     else mib(v) if metric.endswith("_kib") else count(v))
        out.append("| %d | %s | %s | %s |" % (n, server, metric, shown))
for (server, n), ds in sorted(drains.items()):
    for d in ds:
        out.append("| %d | %s | recording written, after its load | %s of %s requests in %.2f s more |" % (
            n, server, count(d["written"]), count(d["requests"]), d["seconds"]))
for (server, probe), reasons in sorted(failures.items()):
    for reason in reasons:
        out.append("")
        out.append("Failed: %s on %s: %s" % (server, probe, reason))
print("\n".join(out))
