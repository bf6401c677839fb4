import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';

const ROOT = join(__dirname, '..', '..');

export interface TsChild {
  child: ChildProcess;
  /** What the child wrote to stderr so far. */
  stderr(): string;
  /** How the child ended. */
  closed: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/**
 * Runs a TypeScript file of test/support in a child node (compiled on the fly by ts-child.js) and
 * calls `onLine` with each line it prints; a line cut off by a kill is never passed on.
 */
export function startTsChild(script: string, args: readonly string[], onLine: (line: string) => void, env?: NodeJS.ProcessEnv): TsChild {
  const child = spawn(process.execPath, ['-r', './test/support/ts-child.js', `test/support/${script}`, ...args], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'], env: env ?? process.env });
  let stderr = '';
  let pending = '';
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
    const lines = (pending + chunk).split('\n');
    pending = lines.pop()!;
    for (const line of lines) onLine(line);
  });
  const closed = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.on('close', (code, signal) => resolve({ code, signal })));
  return { child, stderr: () => stderr, closed };
}
