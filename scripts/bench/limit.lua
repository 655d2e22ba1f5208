-- Shared by the wrk scripts. With REQUESTS set (scripts/profile-callgrind), wrk exits once that many answers
-- have come back: wrk.thread:stop() would still wait out the duration. Benchmarks leave it unset.
local limit = tonumber(os.getenv("REQUESTS") or "")
if limit then
  local answered = 0
  function response()
    answered = answered + 1
    if answered >= limit then os.exit(0) end
  end
end
