-- wrk: POST kudos as a seeded person to a recent public post, a different pair on every request.
-- No post is hot: a post with many kudos is its own scenario.
-- Reads `spotter bench http-plan`'s files: TOKENS (access tokens) and POSTS (post ids). KEYED=1 sends each
-- request with a fresh Idempotency-Key, as SpotterKit sends every change.
local function read(path)
  local lines = {}
  for line in io.lines(path) do
    if #line > 0 then lines[#lines + 1] = line end
  end
  return lines
end
local tokens = read(os.getenv("TOKENS"))
local posts = read(os.getenv("POSTS"))
-- scripts/profile-callgrind asks for the same requests from both builds it compares: FIRST fixes where the
-- sequence starts, REQUESTS how many answers to wait for. Benchmarks set neither.
local index = tonumber(os.getenv("FIRST") or "0")
local keyed = os.getenv("KEYED") == "1"
-- Keys differ between runs of wrk too (a run replays nothing of an earlier one on the same database).
local run = tostring(os.time()) .. "-" .. tostring(math.random(1, 1e9))
dofile((debug.getinfo(1, "S").source:match("^@(.*/)") or "./") .. "limit.lua")

request = function()
  index = index + 1
  -- Consecutive requests go to different people and different posts (7919 is a prime, coprime to the post
  -- count the scripts use), and a (person, post) pair comes back only after #tokens * #posts requests.
  local token = tokens[index % #tokens + 1]
  local post = posts[(index * 7919 + math.floor(index / #posts)) % #posts + 1]
  local headers = { ["Authorization"] = "Bearer " .. token }
  if keyed then headers["Idempotency-Key"] = "bench-" .. run .. "-" .. index end
  return wrk.format("POST", "/api/v1/posts/" .. post .. "/kudos", headers)
end
