import { existsSync, readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';

/** What the service writes at its first start for the CLI: where it listens and its first secrets. */
export interface Credentials {
  url: string;
  tenantId: string;
  apiKey: string;
  operatorToken: string;
}

/** `SVC_CREDENTIALS_FILE`, else `~/.svc/credentials.json`: the file the service writes at its first start. */
export function credentialsFile(env: NodeJS.ProcessEnv = process.env): string {
  return resolve(env.SVC_CREDENTIALS_FILE ?? join(homedir(), '.svc', 'credentials.json'));
}

export function readCredentials(file: string): Credentials | undefined {
  if (!existsSync(file)) return undefined;
  return JSON.parse(readFileSync(file, 'utf8')) as Credentials;
}
