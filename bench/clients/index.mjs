// The clients every scenario runs, in the order of each interleaved round.
import * as conduit from "./conduit.mjs";
import * as sdk from "./sdk.mjs";
import * as raw from "./raw.mjs";
import * as aiSdk from "./ai-sdk.mjs";

export const CLIENTS = [conduit, sdk, raw, aiSdk];
