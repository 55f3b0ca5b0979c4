/**
 * A call's progress as a bar on the terminal (stderr), redrawn in place: `[█████░░░░░] 5/10
 * message`. Without a total, a count. Off when stderr is not a terminal.
 */
import type { Progress } from "../node.js";
import type { Output } from "./output.js";
import { shownLine } from "./output.js";

const WIDTH = 24;

export function progressBar(out: Output, label: string): { onProgress: (progress: Progress) => void; done: () => void } {
  return {
    onProgress: (progress) => {
      const message = typeof progress.message === "string" ? ` ${shownLine(progress.message, 60)}` : "";
      const total = progress.total;
      if (typeof total === "number" && total > 0) {
        const filled = Math.max(0, Math.min(WIDTH, Math.round((progress.progress / total) * WIDTH)));
        out.draw(`${label} [${"█".repeat(filled)}${"░".repeat(WIDTH - filled)}] ${progress.progress}/${total}${message}`);
      } else {
        out.draw(`${label} ${progress.progress}${message}`);
      }
    },
    done: () => out.endDrawing(),
  };
}
