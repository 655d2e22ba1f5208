-- wrk: GET the Following feed (20 posts) as a different seeded person on every request.
-- Reads the access tokens `spotter bench http-plan` wrote; TOKENS names the file.
local tokens = {}
for line in io.lines(os.getenv("TOKENS")) do
  if #line > 0 then tokens[#tokens + 1] = line end
end
local index = 0
-- scripts/profile-callgrind asks for the same requests from both builds it compares: FIRST fixes where the
-- sequence starts, REQUESTS how many answers to wait for. Benchmarks set neither.
local first = tonumber(os.getenv("FIRST") or "")
dofile((debug.getinfo(1, "S").source:match("^@(.*/)") or "./") .. "limit.lua")

function setup(thread)
  thread:set("offset", first or math.random(#tokens))
end

request = function()
  index = index + 1
  local token = tokens[(index + (offset or 0)) % #tokens + 1]
  return wrk.format("GET", "/api/v1/feeds/following?limit=20", { ["Authorization"] = "Bearer " .. token })
end
