-- wrk script: POST /v1/puzzles, a new diagram puzzle at every request (the FEN's move counter
-- differs), so that every request is a write. OFFSET (environment) keeps two wrk processes apart.
local offset = tonumber(os.getenv("OFFSET") or "0")
local threads = 0
function setup(thread)
  thread:set("base", offset + threads * 10000000)
  threads = threads + 1
end
local n = 0
function request()
  n = n + 1
  local body = string.format(
    '{"kind": "diagram", "fen": "7k/8/8/8/8/8/8/K7 w %d", "moves": ["Ka1-a2"], "captures": []}',
    base + n)
  return wrk.format("POST", "/v1/puzzles", {
    ["content-type"] = "application/json",
    ["authorization"] = "Bearer load-test-token",
  }, body)
end
local reported = false
function response(status, headers, body)
  if status ~= 201 and not reported then
    reported = true
    io.stderr:write("unexpected status " .. status .. ": " .. body .. "\n")
  end
end
