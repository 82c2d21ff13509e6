/** Per-command help, the global help and shell completion, all from one table so they cannot drift. */

export interface CommandHelp {
  summary: string;
  usage: string[];
  flags: string[];
  example: string;
  /** Subcommands offered by shell completion. */
  subcommands: string[];
  /** Exit codes that differ from the global ones. */
  exitCodes?: string;
}

const CONNECTION = ['--url URL        server URL (else SVC_URL, else the credentials file)', '--json           machine-readable output'];
const KEY = '--key KEY        credential to use (else SVC_API_KEY / SVC_OPERATOR_TOKEN, else the credentials file)';

export const COMMANDS: Record<string, CommandHelp> = {
  serve: {
    summary: 'run the service in this process',
    usage: ['svc serve [--port N] [--host H] [--data-dir DIR] [--role all|api|dispatcher|webhooks]'],
    flags: [
      '--port N         port to listen on (0 picks a free one)',
      '--host H         interface to bind',
      '--data-dir DIR   embedded database directory',
      '--role ROLE      all (default), api, dispatcher or webhooks',
    ],
    example: 'svc serve --port 8080',
    subcommands: [],
  },
  tenants: {
    summary: 'create and list tenants (operator)',
    usage: ['svc tenants create --name NAME --tier TIER [--env live|test|dev] [--rate-limit N] [--quota N]', 'svc tenants list'],
    flags: ['--name NAME      tenant name', '--tier TIER      pricing tier', '--env ENV        live, test or dev', KEY, ...CONNECTION],
    example: "svc tenants create --name 'Acme Bank' --tier growth --env live",
    subcommands: ['create', 'list'],
  },
  keys: {
    summary: "manage a tenant's API keys (operator)",
    usage: [
      'svc keys create --tenant ID --role ROLE [--name NAME] [--scopes a:read,b:write] [--expires ISO] [--person usr_ID]',
      'svc keys list --tenant ID',
      'svc keys revoke KEY_ID',
    ],
    flags: [
      '--tenant ID      tenant the key belongs to',
      '--role ROLE      owner, admin, editor or viewer',
      '--scopes LIST    comma-separated scopes',
      '--expires ISO    expiry time',
      '--person ID      the person (usr_) the key acts for in approvals and sign-offs; without it, a service key',
      KEY,
      ...CONNECTION,
    ],
    example: 'svc keys create --tenant ten_01H... --role editor --name ci',
    subcommands: ['create', 'list', 'revoke'],
  },
  frameworks: {
    summary: 'list the framework catalogue, activate frameworks, read their versions and repin',
    usage: [
      'svc frameworks list',
      'svc frameworks activate ID',
      'svc frameworks versions ID',
      'svc frameworks diff ID FROM [TO]',
      'svc frameworks obligations ID [--as-of YYYY-MM-DD]',
      'svc frameworks repin ID VERSION [--dry-run]',
    ],
    flags: [
      '--as-of DAY      obligations: the law as it stood that day (default today)',
      '--dry-run        repin: show the diff and what it touches, change nothing',
      KEY,
      ...CONNECTION,
    ],
    example: 'svc frameworks repin eu-ai-act 1.1.0 --dry-run',
    subcommands: ['list', 'activate', 'versions', 'diff', 'obligations', 'repin'],
  },
  assessments: {
    summary: 'create assessments, answer their questions, submit, return and approve them',
    usage: [
      'svc assessments list',
      'svc assessments create --type TYPE --system SYSTEM_ID --jurisdiction J [--title T]',
      'svc assessments get ID',
      'svc assessments questions ID [--stage S] [--unanswered]',
      'svc assessments answer ID KEY [VALUE] [--notes N] [--evidence evd_1,evd_2]',
      'svc assessments clear ID KEY',
      'svc assessments submit ID',
      'svc assessments return ID --comment KEY=TEXT [--comment KEY=TEXT ...]',
      'svc assessments approve ID   (a key acting for a person who answered none of its questions)',
      'svc assessments results ID',
    ],
    flags: [
      '--type TYPE      fria, dpia, risk-classification, conformity, gap-analysis or aims-internal-audit',
      '--system ID      system under assessment',
      '--jurisdiction J jurisdiction such as eu/de',
      '--title T        optional title',
      '--stage S        only the questions of this stage (questions)',
      '--unanswered     only the questions without an answer (questions)',
      '--notes N        notes; the justification of a requirement that is not compliant (answer)',
      '--evidence LIST  comma-separated evidence ids the answer attaches (answer; VALUE is optional for evidence questions)',
      '--comment K=T    what to change in question K, repeatable (return)',
      KEY,
      ...CONNECTION,
    ],
    example:
      'svc assessments answer asm_01J... risk-likelihood 3 && svc assessments submit asm_01J...   # VALUE follows the question: yes/no/not_applicable, an integer 1-5, an option, a requirement status, text',
    subcommands: ['list', 'create', 'get', 'questions', 'answer', 'clear', 'submit', 'return', 'approve', 'results'],
  },
  evidence: {
    summary: 'list, record and show evidence',
    usage: [
      'svc evidence list',
      'svc evidence create --title T --kind KIND --controls c1,c2 [--uri URI] [--system ID] [--description D]',
      'svc evidence get ID',
    ],
    flags: [
      '--title T        evidence title',
      '--kind KIND      document, policy, screenshot, log, configuration, report, certificate, test-result or other',
      '--uri URI        where the evidence lives',
      '--controls LIST  comma-separated ids of the controls it supports (at least one, of an activated framework)',
      KEY,
      ...CONNECTION,
    ],
    example: 'svc evidence create --title "Access review Q3" --kind report --controls GDPR-PRN-01 --uri https://intranet/reviews/q3',
    subcommands: ['list', 'create', 'get'],
  },
  audit: {
    summary: 'read, export and verify the audit trail',
    usage: [
      'svc audit events [--limit N]',
      'svc audit export --out FILE [--from-seq N] [--to-seq N] [--chunk N] [--progress]',
      'svc audit keys [--out TRUST_FILE]',
      'svc audit verify FILE [--trust TRUST_FILE] [--key-fingerprint sha256:HEX ...]   (offline)',
      '  FILE is an audit-trail export (JSON) or a signed pack (zip) from POST /v1/reports/audit-pack or notified-body-pack',
      'svc audit rotate-key   (operator)',
    ],
    flags: [
      '--limit N        events to show (events)',
      '--out FILE       file to write (export, keys)',
      '--chunk N        events per request of an export (default 5000): a long trail arrives in pieces',
      '--progress       progress lines on stderr even when it is not a terminal (export)',
      '--trust FILE     trust file written by `svc audit keys --out` (verify)',
      '--key-fingerprint FP  pinned key fingerprint, repeatable (verify)',
      KEY,
      ...CONNECTION,
    ],
    example: 'svc audit export --out trail.json && svc audit verify trail.json --trust trust.json',
    subcommands: ['events', 'export', 'keys', 'verify', 'rotate-key'],
    exitCodes:
      "audit verify: 0 valid (chain intact, signed by trusted keys); 1 usage error; 2 broken (names the first broken link);\n3 chain intact but not anchored (no --trust or --key-fingerprint given, so the signatures were checked only\nagainst the file's own keys).",
  },
  operator: {
    summary: 'operator credential maintenance',
    usage: ['svc operator rotate-credential   (the credentials file is updated when it held the old one)'],
    flags: [KEY, ...CONNECTION],
    example: 'svc operator rotate-credential',
    subcommands: ['rotate-credential'],
  },
  webhooks: {
    summary: 'inspect and replay dead-lettered webhook deliveries (operator)',
    usage: ['svc webhooks dlq list [--tenant ID]', 'svc webhooks dlq replay DELIVERY_ID | --since ISO [--tenant ID] [--progress]'],
    flags: ['--tenant ID      only this tenant', '--since ISO      replay everything dead-lettered since then', KEY, ...CONNECTION],
    example: 'svc webhooks dlq replay --since 2026-01-01T00:00:00Z',
    subcommands: ['dlq'],
  },
  call: {
    summary: 'call any route',
    usage: ["svc call METHOD PATH [--data JSON] [--header 'Name: value'] [--operator]"],
    flags: [
      '--data JSON      request body',
      "--header 'N: v'  extra header, repeatable",
      '--operator       use the operator credential (needed for /v1/operator routes)',
      KEY,
      ...CONNECTION,
    ],
    example: 'svc call GET /v1/operator/tenants --operator',
    subcommands: ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'],
  },
  mcp: {
    summary: 'serve the API as Model Context Protocol tools (one per route) for AI assistants',
    usage: ['svc mcp [--api-key KEY]', 'svc mcp --http [--port N] [--host H]'],
    flags: [
      '--http           streamable HTTP instead of stdio; each client sends its own Authorization: Bearer KEY',
      '--port N         HTTP port (default 8765; 0 picks a free one)',
      '--host H         HTTP interface (default 127.0.0.1)',
      '--api-key KEY    tenant API key of the stdio server (same as --key; else SVC_API_KEY, else the credentials file)',
      KEY,
      '--url URL        server URL (else SVC_URL, else the credentials file)',
    ],
    example: 'svc mcp   # in an assistant\'s MCP config: {"command":"svc","args":["mcp"],"env":{"SVC_URL":"...","SVC_API_KEY":"..."}}',
    subcommands: [],
  },
  completion: {
    summary: 'print a shell completion script',
    usage: ['svc completion bash|zsh'],
    flags: [],
    example: 'source <(svc completion bash)      # or, in ~/.zshrc: source <(svc completion zsh)',
    subcommands: ['bash', 'zsh'],
  },
  help: {
    summary: "show a command's help",
    usage: ['svc help [COMMAND]'],
    flags: [],
    example: 'svc help assessments',
    subcommands: [],
  },
};

export const EXIT_CODES = `Exit codes:
  0  ok
  1  usage error (unknown command or flag, missing argument, unreadable file)
  2  API error (4xx: validation, authentication, permission, not found, rate limit)
  3  server unreachable or server error (5xx)
  audit verify has its own: 0 valid, 1 usage, 2 broken, 3 intact but not anchored (see svc help audit).`;

export function globalHelp(): string {
  const width = Math.max(...Object.keys(COMMANDS).map((c) => c.length));
  return `svc: operate the compliance platform service

Usage:
${Object.values(COMMANDS)
  .flatMap((c) => c.usage)
  .map((u) => `  ${u}`)
  .join('\n')}
  svc --version

Commands:
${Object.entries(COMMANDS)
  .map(([name, c]) => `  ${name.padEnd(width)}  ${c.summary}`)
  .join('\n')}

Run \`svc <command> --help\` or \`svc help <command>\` for a command's flags and an example.

Every command but serve, audit verify and completion talks to a running server over HTTP. It finds
the URL and credentials in the file the server wrote on first start (~/.svc/credentials.json, or
SVC_CREDENTIALS_FILE / --credentials), overridden by SVC_URL, SVC_API_KEY, SVC_OPERATOR_TOKEN
or --url / --key. Add --json for machine-readable output. Errors go to stderr.

audit keys lists the public keys that sign the audit trail with their SHA-256 fingerprints;
--out writes them as a trust file. audit verify trusts only the keys of --trust (each within
its validity window) and those pinned by --key-fingerprint, never keys the export carries.

${EXIT_CODES}
${COMMANDS.audit?.exitCodes ?? ''}
`;
}

export function commandHelp(name: string): string | undefined {
  const c = COMMANDS[name];
  if (!c) return undefined;
  return [
    `svc ${name}: ${c.summary}`,
    '',
    'Usage:',
    ...c.usage.map((u) => `  ${u}`),
    ...(c.flags.length ? ['', 'Flags:', ...c.flags.map((f) => `  ${f}`)] : []),
    '',
    'Example:',
    `  ${c.example}`,
    ...(c.exitCodes ? ['', c.exitCodes] : []),
    '',
  ].join('\n');
}

const GLOBAL_FLAGS = ['--help', '--json', '--url', '--key', '--credentials', '--version'];

export function completionScript(shell: string): string {
  const names = Object.keys(COMMANDS);
  if (shell === 'bash') {
    const cases = names
      .filter((n) => COMMANDS[n]?.subcommands.length)
      .map((n) => `    ${n}) COMPREPLY=( $(compgen -W "${COMMANDS[n]?.subcommands.join(' ')}" -- "$cur") ); return ;;`)
      .join('\n');
    return `# bash completion for svc: source <(svc completion bash)
_svc() {
  local cur="\${COMP_WORDS[COMP_CWORD]}"
  if [[ "$cur" == -* ]]; then
    COMPREPLY=( $(compgen -W "${GLOBAL_FLAGS.join(' ')}" -- "$cur") ); return
  fi
  if [[ $COMP_CWORD -eq 1 ]]; then
    COMPREPLY=( $(compgen -W "${names.join(' ')}" -- "$cur") ); return
  fi
  if [[ $COMP_CWORD -eq 2 ]]; then
    case "\${COMP_WORDS[1]}" in
${cases}
    help) COMPREPLY=( $(compgen -W "${names.join(' ')}" -- "$cur") ); return ;;
    esac
  fi
  if [[ "\${COMP_WORDS[1]} \${COMP_WORDS[2]}" == "webhooks dlq" && $COMP_CWORD -eq 3 ]]; then
    COMPREPLY=( $(compgen -W "list replay" -- "$cur") ); return
  fi
  COMPREPLY=()
}
complete -o default -F _svc svc
`;
  }
  if (shell === 'zsh') {
    const cases = names
      .filter((n) => COMMANDS[n]?.subcommands.length)
      .map((n) => `        ${n}) _values 'subcommand' ${COMMANDS[n]?.subcommands.map((s) => `'${s}'`).join(' ')} ;;`)
      .join('\n');
    return `#compdef svc
# zsh completion for svc: source <(svc completion zsh)
_svc() {
  local -a commands
  commands=(
${names.map((n) => `    '${n}:${COMMANDS[n]?.summary.replace(/'/g, '')}'`).join('\n')}
  )
  _arguments -C \\
${GLOBAL_FLAGS.map((f) => `    '${f}[${f.slice(2)}]' \\`).join('\n')}
    '1: :->command' \\
    '2: :->sub' \\
    '*:: :_files'
  case $state in
    command) _describe 'command' commands ;;
    sub)
      case $words[2] in
${cases}
        help) _describe 'command' commands ;;
      esac ;;
  esac
}
compdef _svc svc
`;
  }
  throw new UsageError('usage: svc completion bash|zsh');
}

/** A mistake in how svc was invoked: exit code 1. */
export class UsageError extends Error {
  override name = 'UsageError';
}
