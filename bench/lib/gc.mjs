// All clients share this process, so garbage one client leaves in the young generation would be
// swept during the next client's round and billed to it. A minor collection before each round
// clears it; what a client collects during its own round stays its own cost. Not a full
// collection: measured here, a major gc() before each round doubled every client's CPU per call
// (the heap it leaves behind is not the steady state).
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";

setFlagsFromString("--expose-gc");
const gc = runInNewContext("gc");

export function collectYoungGarbage() {
  gc({ type: "minor" });
}
