-- wrk -s bench/wrk_summary.lua: after the run, one line "SUMMARY {json}" with the totals, the latency
-- percentiles (µs) and the error counts. No per-request hook, so it costs wrk nothing while it loads.
done = function(summary, latency, requests)
  local seconds = summary.duration / 1e6
  local e = summary.errors
  io.write(string.format(
    'SUMMARY {"requests":%d,"seconds":%.3f,"bytes":%d,"rps":%.1f,"mib_s":%.2f,' ..
    '"p50_us":%d,"p99_us":%d,"max_us":%d,' ..
    '"errors":{"connect":%d,"read":%d,"write":%d,"status":%d,"timeout":%d}}\n',
    summary.requests, seconds, summary.bytes, summary.requests / seconds, summary.bytes / seconds / 1048576,
    latency:percentile(50), latency:percentile(99), latency.max,
    e.connect, e.read, e.write, e.status, e.timeout))
end
