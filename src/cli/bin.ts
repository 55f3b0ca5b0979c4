/** The `conduit` command: runs `main` and exits with its code once the output is flushed. */
import { EXIT } from "./exit-codes.js";
import { main } from "./main.js";

// A reader that stops reading (`conduit list … | head -1`) is no failure of the command: what is
// left to write is dropped, and the command ends as it would have, its servers closed. Any other
// failure to write the output is one (its result is lost).
for (const stream of [process.stdout, process.stderr]) {
  stream.on("error", (error: NodeJS.ErrnoException) => {
    if (error.code === "EPIPE" || error.code === "ERR_STREAM_DESTROYED") return;
    process.exitCode = EXIT.output;
    if (stream === process.stdout) process.stderr.write(`conduit: the output could not be written (${error.code ?? error.message})\n`);
  });
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode ??= code;
  },
  (error: unknown) => {
    process.stderr.write(`conduit: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exitCode = 70;
  },
);
