// Call loops shared by the scenarios.

export const ECHO_ARGS = { text: "hello, bench" };

/** One `tools/call` after another, each awaited before the next. */
export async function sequentialCalls(connection, n) {
  for (let i = 0; i < n; i++) await connection.call("echo", ECHO_ARGS);
}

/** Fails unless the echo tool answers as the server should: a client that drops data is not fast. */
export async function checkEcho(connection) {
  const result = await connection.call("echo", ECHO_ARGS);
  const text = result?.content?.[0]?.text;
  if (text !== ECHO_ARGS.text) throw new Error(`unexpected tools/call result: ${JSON.stringify(result)}`);
}
