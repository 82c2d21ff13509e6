/**
 * The command lines that need neither the SDK nor the contract (loading them takes about a second):
 * the version, the help and the shell completion script, which `eval "$(svc completion bash)"` runs
 * at every shell start. bin.ts answers them before it loads main.ts; main.ts answers the same ones
 * (with other flags beside them) through the same functions.
 */
import { readFileSync } from 'node:fs';
import { commandHelp, completionScript, globalHelp } from './help.ts';

/** The CLI's version, from its package.json. */
export const cliVersion = (): string =>
  (JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string }).version;

/**
 * The exit code of `svc --version`, `svc help [command]` or `svc completion <shell>` once answered;
 * undefined for any other command line, or one of these that is wrong (main.ts reports it).
 */
export function quickAnswer(argv: readonly string[]): number | undefined {
  const [first, second, ...rest] = argv;
  if (argv.length === 1 && (first === '--version' || first === '-v')) {
    process.stdout.write(`svc ${cliVersion()}\n`);
    return 0;
  }
  if (first === 'help' && rest.length === 0) {
    const text = second === undefined ? globalHelp() : commandHelp(second);
    if (text === undefined) return undefined;
    process.stdout.write(text);
    return 0;
  }
  if (first === 'completion' && second !== undefined && rest.length === 0) {
    let script: string;
    try {
      script = completionScript(second);
    } catch {
      return undefined;
    }
    process.stdout.write(script);
    return 0;
  }
  return undefined;
}
