/** `conduit --help`. */
import { fileURLToPath } from "node:url";
import { exitTableText } from "./exit-codes.js";

/**
 * The example servers that ship with conduit, where this copy of it is installed (the bundle is
 * dist/cli/bin.js): the help names them by a path that works from any folder.
 */
export function shippedExample(path: string): string {
  return fileURLToPath(new URL(`../../examples/${path}`, import.meta.url));
}

export function helpText(): string {
  return `conduit — a terminal host for MCP servers

Usage:
  conduit [options] [server…] [-- command args…]      interactive (in a terminal)
  conduit servers                                     the servers your configs name
  conduit list <server> [tools|resources|templates|prompts]
  conduit call <server> <tool> [json | key=value …]
  conduit read <server> <uri>
  conduit prompt <server> <name> [key=value …]

A server is a name from a config, a URL (Streamable HTTP or HTTP+SSE; OAuth when it asks, over
https or on loopback), or, with \`--\`, the stdio command that follows (then the one-shot
commands take no <server>). To try, a server that ships with conduit and needs only Node:
  conduit call research topic=tides -- node ${shippedExample("servers/research-server.mjs")}
and the trip planner, which shows every kind of request (it is built on the official server
library: npm install @modelcontextprotocol/server zod beside conduit first):
  conduit -- node ${shippedExample("demo-server.mjs")}

Options:
  --config FILE             the mcpServers config to read (default: Claude Desktop's, Cursor's,
                            Windsurf's, Claude Code's (this folder's first) and VS Code's, then
                            the project's .mcp.json, .vscode/mcp.json and .cursor/mcp.json; the
                            first to name a server wins; a project's servers are connected only
                            when named)
  --allow-env NAME          a variable a project's config may read (repeatable, or A,B); it
                            reads only those its server lists in its "env" otherwise
  --root DIR                a root to share with servers (repeatable; default: the working directory)
  --sampling-command CMD    answer sampling requests with CMD: the request as JSON on its stdin,
                            the reply (text, or a CreateMessageResult as JSON) on its stdout
  --answers FILE            answers for input requests when there is no terminal:
                            {"forms": [{"action": "accept", "content": {…}}], "urls": ["decline"],
                             "samplings": ["reply", null], "consents": [true]}
                            (consents: an app's requests to call a tool the model may call)
  --open                    with call: serve the tool's app (MCP Apps) on loopback and print its
                            URL (conduit opens no browser); the app stays until Ctrl-C
  --format text|json        json: the result as one JSON document on stdout; stderr holds JSON
                            lines (logs as {"log": …}, notes, and an error as {"error": …} last)
  --timeout MS              each request's timeout (default 60000)
  --connect-timeout MS      connecting's timeout (default 30000)
  --header "Name: value"    an HTTP header for URL servers (repeatable)
  --transport sse|streamable-http   pin the HTTP transport of URL servers
  --name NAME               the name of the \`--\` server (default: from its command)
  --log-level LEVEL         ask servers for logs at LEVEL and above, shown on stderr
                            (debug … emergency; default info)
  -h, --help                this text
  --version                 conduit's version

Exit codes:
${exitTableText()}

Colours follow the terminal; NO_COLOR turns them off, FORCE_COLOR on.
`;
}
