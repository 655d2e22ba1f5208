-- wrk: GET the Following feed (20 posts) as a different seeded person on every request.
-- Reads the access tokens `spotter bench http-plan` wrote; TOKENS names the file.
local tokens = {}
for line in io.lines(os.getenv("TOKENS")) do
  if #line > 0 then tokens[#tokens + 1] = line end
end
local index = 0

function setup(thread)
  thread:set("offset", math.random(#tokens))
end

request = function()
  index = index + 1
  local token = tokens[(index + (offset or 0)) % #tokens + 1]
  return wrk.format("GET", "/api/v1/feeds/following?limit=20", { ["Authorization"] = "Bearer " .. token })
end
