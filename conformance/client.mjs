// The client that the official MCP conformance suite launches for each client scenario
// (`scripts/conformance.sh` drives it). The suite starts a mock server for the scenario, then
// runs this file with the server's URL as the last argument and, in the environment:
//   MCP_CONFORMANCE_SCENARIO          which scenario is running
//   MCP_CONFORMANCE_PROTOCOL_VERSION  the version the run is about (pinned on connect)
//   MCP_CONFORMANCE_CONTEXT           JSON with test data, for some scenarios
// For each scenario it does what the suite expects a client to do, through Conduit's public API
// only; the suite judges what arrives at its server. Exit 0 when every step succeeded,
// otherwise 1 with the reason on stderr.
import { pathToFileURL } from "node:url";
import { Client, ClientError, SkillError, skillsOf } from "conduit-mcp";

const scenarioName = process.env.MCP_CONFORMANCE_SCENARIO ?? "";
const protocolVersion = process.env.MCP_CONFORMANCE_PROTOCOL_VERSION || undefined;
const context = JSON.parse(process.env.MCP_CONFORMANCE_CONTEXT || "{}");
const serverUrl = process.argv.at(-1);

// Below the suite's per-scenario timeout, so that a hang fails here, with a reason.
const TIMEOUT_MS = 10_000;

// ---- the scenarios ------------------------------------------------------------------------------

/** The handshake (or its modern replacement) is all these scenarios look at; tools are listed if offered. */
async function listToolsIfOffered({ server }) {
  if (server.serverCapabilities.tools !== undefined) await server.listTools();
}

/** tools_call: call `add_numbers` with two numbers. */
async function addNumbers({ server }) {
  const tools = await server.listTools();
  requireTool(tools, "add_numbers");
  const result = await server.callTool("add_numbers", { a: 2, b: 3 });
  if (result.isError) throw new Error(`add_numbers returned an error: ${JSON.stringify(result.content)}`);
}

/**
 * A tool asks, by a form whose fields are all optional with defaults, to be accepted as is. The
 * Handler accepts without filling any field; Conduit must send the defaults (2025-11-25).
 */
async function elicitationDefaults({ server }) {
  requireTool(await server.listTools(), "test_client_elicitation_defaults");
  await server.callTool("test_client_elicitation_defaults", {});
}

/**
 * The server closes the stream of a tool call after an event carrying `retry`; the answer comes
 * only on the stream the client reopens with GET after that many milliseconds.
 */
async function sseRetry({ server }) {
  requireTool(await server.listTools(), "test_reconnection");
  await server.callTool("test_reconnection", {});
}

/** Round-trip the focal tool's inputSchema through an echo tool: the suite diffs what survived. */
async function echoSchema({ server }) {
  const focal = requireTool(await server.listTools(), "json_schema_2020_12_tool");
  await server.callTool("json_schema_echo", { schema: focal.inputSchema });
}

/**
 * MRTR: each tool answers `input_required` (an elicitation) before completing. The first answer
 * is held until an unrelated call has completed, so that call goes out while an exchange is
 * open: it must carry none of that exchange's `inputResponses` or `requestState`.
 */
async function inputRequiredRounds(session) {
  const { server } = session;
  let unrelatedSent = false;
  session.beforeElicitationAnswer = async () => {
    if (unrelatedSent) return;
    unrelatedSent = true;
    await server.callTool("test_mrtr_unrelated", {});
  };
  await server.listTools();
  await server.callTool("test_mrtr_echo_state", {});
  await server.callTool("test_mrtr_no_state", {});
  await server.callTool("test_mrtr_no_result_type", {});
  if (!unrelatedSent) throw new Error("test_mrtr_echo_state completed without asking for input");
}

/** Every list and every call the server offers, so that each request's standard headers are seen. */
async function everyMethod({ server }) {
  const offers = server.serverCapabilities;
  if (offers.tools !== undefined) {
    for (const tool of await server.listTools()) await server.callTool(tool.name, sampleArguments(tool.inputSchema));
  }
  if (offers.resources !== undefined) {
    for (const resource of await server.listResources()) await server.readResource(resource.uri);
  }
  if (offers.prompts !== undefined) {
    for (const prompt of await server.listPrompts()) await server.getPrompt(prompt.name);
  }
}

/** The calls the suite gives in MCP_CONFORMANCE_CONTEXT, after listing the tools they target. */
async function contextToolCalls({ server }) {
  const calls = context.toolCalls;
  if (!Array.isArray(calls) || calls.length === 0) throw new Error("MCP_CONFORMANCE_CONTEXT has no toolCalls");
  const tools = await server.listTools();
  for (const call of calls) {
    requireTool(tools, call.name);
    await server.callTool(call.name, call.arguments);
  }
}

/**
 * Call every tool that listing returned. Tools with an invalid `x-mcp-header` must never reach
 * the server: Conduit has to leave them out of the list (or refuse to call them).
 */
async function everyListedTool({ server }) {
  const failures = [];
  for (const tool of await server.listTools()) {
    try {
      await server.callTool(tool.name, sampleArguments(tool.inputSchema));
    } catch (error) {
      failures.push(`${tool.name}: ${describe(error)}`);
    }
  }
  if (failures.length > 0) throw new Error(`some listed tools could not be called:\n  ${failures.join("\n  ")}`);
}

/** Authorization scenarios: connected (authorized on the way), list the tools and call the first. */
async function callFirstTool({ server }) {
  const tools = await server.listTools();
  if (tools.length > 0) await server.callTool(tools[0].name, sampleArguments(tools[0].inputSchema));
}

/**
 * sep-2640-client-no-prefetch: a host builds its registry of the server's skills from the
 * listing alone; no skill is loaded, so no file may be read.
 */
async function listSkills({ server }) {
  const skills = skillsOf(server);
  if (!skills.supported) throw new Error("the server did not declare the skills extension");
  const listing = await skills.list();
  if (listing.skills.length === 0) throw new Error(`the server listed no skill that could be taken: ${JSON.stringify(listing.refused)}`);
  console.log(`listed ${listing.skills.length} skill(s) at ${server.protocolVersion}, reading none`);
}

/**
 * sep-2640-client-verify-*: the host loads the listed skill, whose SKILL.md the server has
 * tampered with; the load must fail verification for `reason`, and nothing more is read. Had it
 * loaded, the host would go on to read the skill's files, as one using it does.
 */
function refusesTamperedSkill(reason) {
  return async ({ server }) => {
    const skills = skillsOf(server);
    const [entry] = (await skills.list()).skills;
    if (entry === undefined) throw new Error("the server listed no skill that could be taken");
    let skill;
    try {
      skill = await skills.load(entry);
    } catch (error) {
      if (!(error instanceof SkillError) || error.reason !== reason) throw error;
      console.log(`refused skill ${entry.uri} at ${server.protocolVersion}, as a host must: ${error.message}`);
      return;
    }
    for (const file of skill.entry.resources) if (file.uri !== skill.uri) await skill.readFile(file.uri);
    throw new Error(`skill ${entry.uri} was loaded although its SKILL.md fails the ${reason} check`);
  };
}

const SCENARIOS = {
  initialize: listToolsIfOffered,
  tools_call: addNumbers,
  "elicitation-sep1034-client-defaults": elicitationDefaults,
  "sse-retry": sseRetry,
  "json-schema-2020-12-preservation": echoSchema,
  "json-schema-ref-no-deref": listToolsIfOffered,
  "request-metadata": listToolsIfOffered,
  "sep-2322-client-request-state": inputRequiredRounds,
  "http-standard-headers": everyMethod,
  "http-custom-headers": contextToolCalls,
  "http-invalid-tool-headers": everyListedTool,
  "sep-2640-client-no-prefetch": listSkills,
  "sep-2640-client-verify-digest": refusesTamperedSkill("digest"),
  "sep-2640-client-verify-size": refusesTamperedSkill("size"),
  "sep-2640-client-verify-frontmatter": refusesTamperedSkill("frontmatter"),
};

// ---- helpers ------------------------------------------------------------------------------------

/** The Client ID Metadata Document URL the suite expects a client to use where the server supports them. */
const CLIENT_METADATA_URL = "https://conformance-test.local/client-metadata.json";

/**
 * How a host without a person would authorize: "visit" the authorization URL (the suite's
 * authorization server approves at once and redirects), and hand back where it redirected.
 */
async function headlessAuthorize(url) {
  const response = await fetch(url, { redirect: "manual" });
  const location = response.headers.get("location");
  await response.body?.cancel();
  if (location === null) throw new Error(`the authorization endpoint answered ${response.status} without a redirect`);
  return location;
}

/** The grant of the extension scenarios, from the suite's context; the code flow for the others. */
function grantOf(name) {
  switch (name) {
    case "auth/client-credentials-basic":
      return { type: "client_credentials" };
    case "auth/client-credentials-jwt":
      return { type: "client_credentials", privateKey: context.private_key_pem, algorithm: context.signing_algorithm };
    case "auth/wif-jwt-bearer":
      return { type: "jwt_bearer", assertion: () => context.valid_jwt };
    case "auth/enterprise-managed-authorization":
      return { type: "enterprise", idpTokenEndpoint: context.idp_token_endpoint, idpClientId: context.idp_client_id, idToken: () => context.idp_id_token };
    default:
      return undefined;
  }
}

/** The target of the scenario: with OAuth for the auth/* ones, credentials from the suite's context. */
function targetOf(url) {
  if (!scenarioName.startsWith("auth/")) return { url };
  const grant = grantOf(scenarioName);
  return {
    url,
    auth: {
      ...(grant === undefined ? { redirectUri: "http://localhost:3000/callback", authorize: headlessAuthorize, clientMetadataUrl: CLIENT_METADATA_URL } : { grant }),
      ...(typeof context.client_id === "string" ? { clientId: context.client_id } : {}),
      ...(typeof context.client_secret === "string" ? { clientSecret: context.client_secret } : {}),
    },
  };
}

function requireTool(tools, name) {
  const tool = tools.find((candidate) => candidate.name === name);
  if (tool === undefined) throw new Error(`the server did not list the tool ${name}`);
  return tool;
}

/** A value for each required property, by its declared type. */
function sampleArguments(schema) {
  const samples = { string: "conformance", integer: 1, number: 1, boolean: true, object: {}, array: [], null: null };
  const args = {};
  for (const name of schema?.required ?? []) args[name] = samples[schema.properties?.[name]?.type] ?? "conformance";
  return args;
}

function describe(error) {
  if (!(error instanceof ClientError)) return error instanceof Error ? error.message : String(error);
  const code = error.code === undefined ? "" : ` ${error.code}`;
  const data = error.data === undefined ? "" : ` data=${JSON.stringify(error.data)}`;
  const cause = error.cause instanceof Error ? ` (cause: ${error.cause.message})` : "";
  return `ClientError ${error.kind}${code}: ${error.message}${data}${cause}`;
}

/**
 * One Handler for every scenario, declaring sampling, elicitation and roots. It accepts every
 * form as a user who changes nothing would: no fields, so those with a default get it.
 */
function conformanceHandler(session) {
  return {
    async handleElicitation() {
      await session.beforeElicitationAnswer?.();
      return { action: "accept", content: {} };
    },
    handleSampling: () => ({
      role: "assistant",
      content: { type: "text", text: "conformance" },
      model: "conformance-stub",
      stopReason: "endTurn",
    }),
    listRoots: () => ({ roots: [{ uri: pathToFileURL(process.cwd()).href, name: "cwd" }] }),
  };
}

// ---- main ---------------------------------------------------------------------------------------

async function main() {
  const run = SCENARIOS[scenarioName] ?? (scenarioName.startsWith("auth/") ? callFirstTool : undefined);
  if (run === undefined) {
    throw new Error(`no handler for scenario "${scenarioName}"; known: ${Object.keys(SCENARIOS).join(", ")}`);
  }
  if (!/^https?:\/\//.test(serverUrl ?? "")) throw new Error(`the last argument must be the server URL, got ${serverUrl}`);
  const session = { beforeElicitationAnswer: undefined };
  const client = new Client({
    name: "conduit-conformance",
    version: "0.1.0",
    handler: conformanceHandler(session),
    requestTimeout: TIMEOUT_MS,
  });
  try {
    session.server = await client.connect("server", targetOf(serverUrl), { protocolVersion, connectTimeout: TIMEOUT_MS });
    await run(session);
  } finally {
    await client.close();
  }
}

try {
  await main();
} catch (error) {
  console.error(`conformance client: scenario ${scenarioName} (${protocolVersion ?? "no version"}) failed: ${describe(error)}`);
  process.exitCode = 1;
}

// After client.close() nothing of Conduit's should keep the process alive; if something does, say
// so (it is a leak worth knowing about) rather than hang until the suite's timeout.
setTimeout(() => {
  console.error("conformance client: the process was still alive 2 s after client.close(); exiting");
  process.exit(process.exitCode ?? 0);
}, 2_000).unref();
