// The four clients as the probes use them, each library loaded only when asked for (so that a
// probe's import and memory are those of one library): Conduit through its public API from the
// built package, the official client with its defaults, the bare loops (bench/clients/raw.mjs
// over stdio, the many-connection HTTP one of this folder), and the AI SDK's client
// (bench/clients/ai-sdk.mjs; it has no log hook: it takes no notifications at all).
// Every adapter: { call(tool, args) → result, close() }.

/**
 * One stdio connection. `onLog(params)` is the host's log hook, as each library offers one;
 * `logRateLimit` is Conduit's (its default stays unless given). Every adapter's
 * `call(tool, args, onProgress)` passes a progress hook for that call when given one.
 */
export async function connectStdio(name, target, { onLog, logRateLimit } = {}) {
  switch (name) {
    case "conduit": {
      const { Client } = await import("conduit-mcp");
      // Default options: the log rate limit (unless given) and the sanitiser stay on.
      const handler = onLog === undefined ? undefined : { handleLog: (_level, params) => onLog(params) };
      const client = new Client({ name: "bench-conduit", version: "1.0.0", handler, logRateLimit });
      try {
        const server = await client.connect("bench", target);
        return {
          call: (tool, args, onProgress) => server.callTool(tool, args, onProgress === undefined ? undefined : { onProgress }),
          close: () => client.close(),
          stats: () => server.stats(),
        };
      } catch (error) {
        await client.close();
        throw error;
      }
    }
    case "sdk": {
      const [{ Client }, { StdioClientTransport }] = await Promise.all([
        import("@modelcontextprotocol/client"),
        import("@modelcontextprotocol/client/stdio"),
      ]);
      const client = new Client({ name: "bench-sdk", version: "1.0.0" });
      if (onLog !== undefined) client.setNotificationHandler("notifications/message", (notification) => onLog(notification.params));
      try {
        await client.connect(new StdioClientTransport({ command: target.command, args: target.args ?? [], stderr: "inherit" }));
        return {
          call: (tool, args, onProgress) => client.callTool({ name: tool, arguments: args }, onProgress === undefined ? undefined : { onprogress: onProgress }),
          close: () => client.close(),
        };
      } catch (error) {
        await client.close();
        throw error;
      }
    }
    case "raw": {
      const { connect } = await import("../clients/raw.mjs");
      return connect(target, { onLog });
    }
    case "ai-sdk": {
      if (onLog !== undefined) throw new Error("ai-sdk has no log hook: it takes no notifications");
      const { connect } = await import("../clients/ai-sdk.mjs");
      return connect(target);
    }
    default:
      throw new Error(`unknown client ${name}`);
  }
}

/**
 * Many HTTP connections from one process, each library as it is naturally used: Conduit holds
 * every server in one Client; the official client needs one Client (and transport) per server;
 * the bare loop shares one keep-alive agent. Resolves with { connect(url) → adapter, close() }.
 */
export async function httpFactory(name) {
  switch (name) {
    case "conduit": {
      const many = await conduitMany();
      return { connect: (url) => many.connect({ url }), close: many.close };
    }
    case "sdk": {
      const { Client, StreamableHTTPClientTransport } = await import("@modelcontextprotocol/client");
      return sdkMany(Client, (url) => new StreamableHTTPClientTransport(new URL(url)));
    }
    case "raw": {
      const { rawHttp } = await import("./raw-http.mjs");
      return rawHttp();
    }
    case "ai-sdk": {
      // One client (and transport) per server, as its docs advise.
      const { connect } = await import("../clients/ai-sdk.mjs");
      const connections = [];
      return {
        async connect(url) {
          const connection = await connect({ url });
          connections.push(connection);
          return connection;
        },
        close: () => Promise.all(connections.map((connection) => connection.close())),
      };
    }
    default:
      throw new Error(`unknown client ${name}`);
  }
}

/**
 * Many stdio servers from one process, each library as it is naturally used: Conduit holds every
 * server in one Client; the official client needs one Client (and transport) per server; the
 * bare loop is one pipe pair per child. Resolves with { connect(target) → adapter, close() }.
 */
export async function stdioFactory(name) {
  switch (name) {
    case "conduit":
      return conduitMany();
    case "sdk": {
      const [{ Client }, { StdioClientTransport }] = await Promise.all([
        import("@modelcontextprotocol/client"),
        import("@modelcontextprotocol/client/stdio"),
      ]);
      return sdkMany(Client, (target) => new StdioClientTransport({ command: target.command, args: target.args ?? [], stderr: "inherit" }));
    }
    case "raw": {
      const { connect } = await import("../clients/raw.mjs");
      const peers = [];
      return {
        async connect(target) {
          const peer = await connect(target);
          peers.push(peer);
          return peer;
        },
        close: () => Promise.all(peers.map((peer) => peer.close())),
      };
    }
    default:
      throw new Error(`unknown client ${name}`);
  }
}

/** Conduit with many servers: every one in one Client, as it is meant to be used. */
async function conduitMany() {
  const { Client } = await import("conduit-mcp");
  const client = new Client({ name: "bench-conduit", version: "1.0.0" });
  let next = 0;
  return {
    async connect(target) {
      const server = await client.connect(`server-${++next}`, target);
      return { call: (tool, args) => server.callTool(tool, args), close: () => server.close() };
    },
    close: () => client.close(),
  };
}

/** The official client with many servers: a Client and a transport (`transportFor(where)`) per server. */
function sdkMany(Client, transportFor) {
  const clients = [];
  return {
    async connect(where) {
      const client = new Client({ name: "bench-sdk", version: "1.0.0" });
      clients.push(client);
      await client.connect(transportFor(where));
      return { call: (tool, args) => client.callTool({ name: tool, arguments: args }), close: () => client.close() };
    },
    close: () => Promise.all(clients.map((client) => client.close())),
  };
}

/** The text of a tool result's first content block, or throws: a client that drops data is not fast. */
export function firstText(result) {
  const text = result?.content?.[0]?.text;
  if (typeof text !== "string") throw new Error(`unexpected tools/call result: ${JSON.stringify(result)?.slice(0, 200)}`);
  return text;
}
