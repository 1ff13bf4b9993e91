// Progress for the command-line tools on stderr: a bar redrawn in place on a terminal; elsewhere (a CI
// log, a supervisor's log file, a pipe) a plain line every few seconds, with no bar and no cursor codes.
import { SingleBar } from 'cli-progress';

/** `label` starts each line; `format` is the rest, in cli-progress placeholders. */
export function progressBar(label: string, format: string, stream: NodeJS.WriteStream = process.stderr) {
  return new SingleBar({
    format: stream.isTTY ? `${label} {bar} ${format}` : `${label}: ${format}`,
    stream,
    noTTYOutput: true,
    notTTYSchedule: 2000,
  });
}
