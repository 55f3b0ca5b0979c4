// Call loops shared by the scenarios, and the checks that a client answers as it should.

export const ECHO_ARGS = { text: "hello, bench" };
export const ASK_ARGS = {};

/** One `tools/call` after another, each awaited before the next. */
export async function sequentialCalls(connection, n, tool = "echo", args = ECHO_ARGS) {
  for (let i = 0; i < n; i++) await connection.call(tool, args);
}

/** `n` calls with `width` of them outstanding at all times: a pool, each slot starting the next call as its last one ends. */
export async function callsInFlight(connection, n, width) {
  let started = 0;
  const slot = async () => {
    while (started < n) {
      started++;
      await connection.call("echo", ECHO_ARGS);
    }
  };
  await Promise.all(Array.from({ length: Math.min(width, n) }, slot));
}

/** Fails unless the echo tool answers as the server should: a client that drops data is not fast. */
export async function checkEcho(connection) {
  const result = await connection.call("echo", ECHO_ARGS);
  const text = result?.content?.[0]?.text;
  if (text !== ECHO_ARGS.text) throw new Error(`unexpected tools/call result: ${JSON.stringify(result)}`);
}

/** Fails unless the `ask` tool's elicitation round was answered and the retry accepted. */
export async function checkAsk(connection) {
  const result = await connection.call("ask", ASK_ARGS);
  const text = result?.content?.[0]?.text;
  if (text !== "confirmed") throw new Error(`unexpected tools/call result after one input round: ${JSON.stringify(result)}`);
}

/**
 * Connects a client adapter and runs `check` once; closes what it opened when either fails.
 * `server` is an optional started server ({ target, close }) that the connection uses and owns.
 */
export async function connectChecked(client, target, connectOptions, check = checkEcho, server = undefined) {
  let connection;
  try {
    connection = await client.connect(target, connectOptions);
    await check(connection);
  } catch (error) {
    await connection?.close();
    await server?.close();
    throw error;
  }
  if (server === undefined) return connection;
  return {
    ...connection,
    close: async () => {
      try {
        await connection.close();
      } finally {
        await server.close();
      }
    },
  };
}
