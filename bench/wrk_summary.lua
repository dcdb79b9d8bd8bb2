-- wrk -s bench/wrk_summary.lua URL [-- METHOD [BODY_FILE]]: after the run, one line "SUMMARY {json}" with
-- the totals, the latency percentiles (µs) and the error counts. No per-request hook, so it costs wrk nothing
-- while it loads: the request is formatted once, after init.
-- METHOD (default GET) and BODY_FILE, whose bytes are the body of every request (wrk adds Content-Length);
-- headers come from wrk's -H.
-- With WRK_SESSIONS=N in the environment, the requests carry X-Espressomartini-Session: bench-1 … bench-N in
-- rotation: the N requests are formatted once, in init, and the per-request hook only hands the next one out.
-- With WRK_DISTINCT=PREFIX, every request has a path of its own, URL's path followed by /PREFIX-THREAD-N (each
-- formatted when sent): requests a recorder has never seen.
local sessions = tonumber(os.getenv("WRK_SESSIONS") or "")
local distinct = os.getenv("WRK_DISTINCT")
if distinct == "" then distinct = nil end
local formatted, turn = {}, 0
local threads = 0

setup = function(thread)
  threads = threads + 1
  thread:set("thread_number", threads)
end

init = function(args)
  if args[1] then wrk.method = args[1] end
  if args[2] then
    local file = assert(io.open(args[2], "rb"))
    wrk.body = file:read("*a")
    file:close()
  end
  if sessions then
    for i = 1, sessions do
      local headers = {}
      for name, value in pairs(wrk.headers) do headers[name] = value end
      headers["X-Espressomartini-Session"] = "bench-" .. i
      formatted[i] = wrk.format(nil, nil, headers)
    end
    turn = math.random(sessions) - 1  -- each wrk thread starts elsewhere in the rotation
  end
end

-- wrk calls `request` for every request only when the script defines it.
if sessions then
  request = function()
    turn = turn % sessions + 1
    return formatted[turn]
  end
elseif distinct then
  request = function()
    turn = turn + 1
    return wrk.format(nil, wrk.path .. "/" .. distinct .. "-" .. tostring(thread_number) .. "-" .. turn)
  end
end

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
