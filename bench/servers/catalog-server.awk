# The server of the catalog's scale rows, in awk: a hundred of these cost about what one Node
# process does, so that what is measured is the host's side. A legacy MCP server over stdio:
# `tools/list` gives `tools` tools (one page), each with a description and a small schema;
# calling `change` sends `notifications/tools/list_changed` before it answers. Exits when stdin
# ends.
#
#   awk -v tools=N -f catalog-server.awk      (mawk: add -W interactive, or it reads in blocks)
#
# Requests are read by pattern, not parsed: the clients of the bench write `"id":` and
# `"method":` as the envelope's own fields, and nothing here needs more of a request.
BEGIN {
  if (tools == "") tools = 100
  if (tools !~ /^[0-9]+$/ || tools < 1) { print "tools must be a whole number of at least 1" > "/dev/stderr"; exit 2 }
  schema = "{\"type\":\"object\",\"properties\":{\"text\":{\"type\":\"string\",\"description\":\"what to work on\"},\"times\":{\"type\":\"integer\",\"minimum\":1}},\"required\":[\"text\"]}"
  list = ""
  for (i = 0; i < tools; i++) {
    name = i == 0 ? "change" : "tool_" i
    list = list (i == 0 ? "" : ",") "{\"name\":\"" name "\",\"description\":\"Tool number " i ", which does one thing well\",\"inputSchema\":" schema "}"
  }
  TOOLS = "{\"tools\":[" list "]}"
  INIT = "{\"protocolVersion\":\"2025-11-25\",\"capabilities\":{\"tools\":{\"listChanged\":true}},\"serverInfo\":{\"name\":\"bench-catalog-server\",\"version\":\"1.0.0\"}}"
  CHANGED = "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/tools/list_changed\"}"
}

{
  if (!match($0, /"id":("[^"]*"|-?[0-9]+)/)) next
  id = substr($0, RSTART + 5, RLENGTH - 5)
  if (!match($0, /"method":"[^"]*"/)) next
  method = substr($0, RSTART + 10, RLENGTH - 11)
  if (method == "initialize") answer(id, INIT)
  else if (method == "tools/list") answer(id, TOOLS)
  else if (method == "ping") answer(id, "{}")
  else if (method == "tools/call") {
    if ($0 ~ /"name":"change"/) print CHANGED
    answer(id, "{\"content\":[{\"type\":\"text\",\"text\":\"ok\"}]}")
  } else print "{\"jsonrpc\":\"2.0\",\"id\":" id ",\"error\":{\"code\":-32601,\"message\":\"Method not found: " method "\"}}"
  fflush()
}

function answer(id, result) {
  print "{\"jsonrpc\":\"2.0\",\"id\":" id ",\"result\":" result "}"
}
