import { run } from '../../packages/cli/src/main.ts';

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

let last: Promise<unknown> = Promise.resolve();

/**
 * Runs a CLI command in this process: `run(argv)`, which the bin calls, with `env` as the whole
 * environment and stdout and stderr captured, as a child process would see and give them. A spawned
 * command pays a Node start and the TypeScript loader over the contract (about 2.5 s on these
 * machines) for what takes milliseconds here; the tests about the bin itself (plain node, exit
 * codes of the process) still spawn it. Calls run one at a time, since they borrow the process's
 * environment and streams.
 */
export function svcInProcess(args: string[], env: NodeJS.ProcessEnv): Promise<CliResult> {
  const result = last.then(() => runCaptured(args, env));
  last = result.catch(() => {});
  return result;
}

async function runCaptured(args: string[], env: NodeJS.ProcessEnv): Promise<CliResult> {
  const savedEnv = { ...process.env };
  const stdoutWrite = process.stdout.write;
  const stderrWrite = process.stderr.write;
  let stdout = '';
  let stderr = '';
  const capture = (append: (s: string) => void) =>
    ((chunk: string | Uint8Array, ...rest: unknown[]) => {
      append(typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8'));
      const done = rest.find((r) => typeof r === 'function') as (() => void) | undefined;
      done?.();
      return true;
    }) as typeof process.stdout.write;
  setEnv(env);
  process.stdout.write = capture((s) => {
    stdout += s;
  });
  process.stderr.write = capture((s) => {
    stderr += s;
  });
  try {
    const code = await run(args);
    return { code, stdout, stderr };
  } finally {
    process.stdout.write = stdoutWrite;
    process.stderr.write = stderrWrite;
    setEnv(savedEnv);
  }
}

function setEnv(env: NodeJS.ProcessEnv): void {
  for (const key of Object.keys(process.env)) delete process.env[key];
  for (const [key, value] of Object.entries(env)) if (value !== undefined) process.env[key] = value;
}
