-- wrk: POST kudos as a seeded person to a recent public post, a different pair on every request.
-- Reads `spotter bench http-plan`'s files: TOKENS (access tokens) and POSTS (post ids).
local function read(path)
  local lines = {}
  for line in io.lines(path) do
    if #line > 0 then lines[#lines + 1] = line end
  end
  return lines
end
local tokens = read(os.getenv("TOKENS"))
local posts = read(os.getenv("POSTS"))
local index = 0

request = function()
  index = index + 1
  -- Walk the posts for each token in turn so a (person, post) pair repeats only after every pair was used.
  local token = tokens[index % #tokens + 1]
  local post = posts[math.floor(index / #tokens) % #posts + 1]
  return wrk.format("POST", "/api/v1/posts/" .. post .. "/kudos", { ["Authorization"] = "Bearer " .. token })
end
