// The tests run on Node, as a Node host does: with the Node entry's runtime installed (stdio, the
// node:http backend), whichever module of src/ a test imports first. What the web entry does
// without it is proved on the built package (test/package/) and in the real runtimes.
import { installNodeRuntime } from "../src/node/runtime.js";

installNodeRuntime();
