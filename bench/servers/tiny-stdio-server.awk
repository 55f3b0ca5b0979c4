# A legacy MCP server over stdio in a few lines of awk, for the rows that connect hundreds of
# servers at once: a Node server costs some 40 MB a process, this one well under one, so a
# thousand of them fit beside the host. Run it as `mawk -W interactive -f tiny-stdio-server.awk`
# (interactive: every answer leaves at once, unbuffered, and input is read line by line).
#
# It is no JSON parser. It reads a request's "id" and "method" with patterns, which holds for
# what the bench's clients send (no "id" or "method" key inside their params); it answers
# initialize, tools/list, tools/call of `echo` (the "text" argument back, escapes kept as
# sent), ping, and -32601 to anything else (so a modern client's server/discover probe learns
# "legacy" at once). Notifications and responses, which carry no method or no id, get nothing.

function field(name, pattern,    at) {
  if (!match($0, "\"" name "\"[ \t]*:[ \t]*" pattern)) return ""
  at = substr($0, RSTART, RLENGTH)
  sub("^\"" name "\"[ \t]*:[ \t]*", "", at)
  return at
}

function answer(id, result) {
  printf "{\"jsonrpc\":\"2.0\",\"id\":%s,\"result\":%s}\n", id, result
}

BEGIN {
  STRING = "\"([^\"\\\\]|\\\\.)*\""
  NUMBER = "-?[0-9][0-9.eE+-]*"
  KNOWN["\"2025-11-25\""] = KNOWN["\"2025-06-18\""] = KNOWN["\"2025-03-26\""] = KNOWN["\"2024-11-05\""] = 1
}

{
  id = field("id", "(" STRING "|" NUMBER ")")
  method = field("method", STRING)
  if (id == "" || method == "") next
  if (method == "\"initialize\"") {
    version = field("protocolVersion", STRING)
    if (!(version in KNOWN)) version = "\"2025-11-25\""
    answer(id, "{\"protocolVersion\":" version ",\"capabilities\":{\"tools\":{}},\"serverInfo\":{\"name\":\"tiny-stdio-server\",\"version\":\"1.0.0\"}}")
  } else if (method == "\"tools/list\"") {
    answer(id, "{\"tools\":[{\"name\":\"echo\",\"description\":\"Echo the text back\",\"inputSchema\":{\"type\":\"object\",\"properties\":{\"text\":{\"type\":\"string\"}},\"required\":[\"text\"]}}]}")
  } else if (method == "\"tools/call\"") {
    text = field("text", STRING)
    if (text == "") text = "\"\""
    answer(id, "{\"content\":[{\"type\":\"text\",\"text\":" text "}]}")
  } else if (method == "\"ping\"") {
    answer(id, "{}")
  } else {
    printf "{\"jsonrpc\":\"2.0\",\"id\":%s,\"error\":{\"code\":-32601,\"message\":\"Method not found\"}}\n", id
  }
}
