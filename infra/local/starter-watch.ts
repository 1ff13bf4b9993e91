// `npm start` runs the local server under npm and a shell. A SIGTERM to npm alone never reaches the
// server (npm 11 exits, and the shell goes without passing it on), and a supervisor may SIGKILL npm, so the
// server cannot wait for a signal: it watches the processes between itself and whatever started it, and
// stops when one of them goes.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';

/** A process and the parent it had when the run started. */
interface Link {
  pid: number;
  ppid: number;
}

export interface StarterWatch {
  /** This process, its launchers and its starter: no lock left by an earlier run can belong to these. */
  pids: number[];
}

const POLL_MS = 1000;
const procfs = existsSync('/proc/self/stat');

function ps(field: 'ppid' | 'args', pid: number): string | undefined {
  try {
    return (
      execFileSync('ps', ['-o', `${field}=`, '-p', String(pid)], { encoding: 'utf8' }).trim() || undefined
    );
  } catch {
    return undefined;
  }
}

/** A process's parent, from /proc where there is one (Linux), else from ps; none once it has gone. */
function parentOf(pid: number): number | undefined {
  if (!procfs) {
    const ppid = ps('ppid', pid);
    return ppid === undefined ? undefined : Number(ppid);
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name in parentheses may hold spaces and parentheses; the state and parent follow it.
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
  } catch {
    return undefined;
  }
}

function commandOf(pid: number): string | undefined {
  if (!procfs) return ps('args', pid);
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ');
  } catch {
    return undefined;
  }
}

/**
 * The links from this process up to its starter. The launchers in between (tsx, the shell npm runs the
 * script in, npx) name the entry script in their command lines; the first ancestor that does not is the
 * starter: `npm start`, a supervisor, a test. What started the starter is not watched, so a run started
 * in the background (`nohup npm start &`) outlives the shell that started it.
 */
function linksToStarter(entry: string): Link[] {
  const links: Link[] = [{ pid: process.pid, ppid: process.ppid }];
  for (;;) {
    const { ppid } = links[links.length - 1] as Link;
    if (ppid <= 1 || !commandOf(ppid)?.includes(entry)) return links;
    const grandparent = parentOf(ppid);
    if (grandparent === undefined) return links;
    links.push({ pid: ppid, ppid: grandparent });
  }
}

/** Calls `onGone` once when the starter or a launcher between it and this process has gone. */
export function watchStarter(entry: string, onGone: (starter: number) => void): StarterWatch {
  const links = linksToStarter(entry);
  const starter = (links[links.length - 1] as Link).ppid;
  // A process that goes leaves its children to init or a subreaper, so a changed parent anywhere in the
  // chain means a link has gone, even one that lingers unreaped.
  const timer = setInterval(() => {
    const broken = links.some(
      (link) => (link.pid === process.pid ? process.ppid : parentOf(link.pid)) !== link.ppid,
    );
    if (!broken) return;
    clearInterval(timer);
    onGone(starter);
  }, POLL_MS);
  timer.unref();
  return { pids: [...links.map((link) => link.pid), starter] };
}
