-- wrk script for bench/run: each connection is a phone saving Gongzhu hands into its own match.
-- The phones come from the file named in BENCH_PHONES: a line each, "path cookie token version".
-- A save names the version its form was drawn from; each one that lands moves it on by one.
-- BENCH_SAVE_EVERY (ms): each phone waits that long before each save (0: back to back).

local phones, next_phone = {}, 0

function setup(thread)
  if #phones == 0 then
    for line in io.lines(os.getenv("BENCH_PHONES")) do
      local path, cookie, token, version = line:match("(%S+) (%S+) (%S+) (%S+)")
      phones[#phones + 1] = {path, cookie, token, version}
    end
  end
  next_phone = next_phone + 1
  local phone = phones[next_phone]
  thread:set("path", phone[1])
  thread:set("cookie", phone[2])
  thread:set("token", phone[3])
  thread:set("version", tonumber(phone[4]))
  thread:set("id", next_phone)
  thread:set("saved", 0)
end

function request()
  saved = saved + 1
  local body = "csrfmiddlewaretoken=" .. token .. "&owner-QS=0&owner-JD=1&owner-10C=2&rest=3"
    .. "&version=" .. version .. "&entry_key=bench-" .. id .. "-" .. saved
  return wrk.format("POST", path, {
    ["Cookie"] = cookie,
    ["Content-Type"] = "application/x-www-form-urlencoded",
    ["HX-Request"] = "true",
    ["Accept-Encoding"] = "gzip",
  }, body)
end

function response(status, headers, body)
  if status == 200 then
    version = version + 1
  end
end

local every = tonumber(os.getenv("BENCH_SAVE_EVERY") or "0")

function delay()
  return every
end
