// Moves TypeScript modules with `git mv` and rewrites every relative import of them, and the
// relative imports inside them, across the workspace (packages/*/src, test, scripts, examples).
// Usage: node scripts/move-modules.mjs MOVES.json, where MOVES.json maps old paths to new ones,
// both relative to the repository root. Paths in strings other than import specifiers (a file read
// through import.meta.url, a path in a comment or in the README) are not rewritten: say so by hand.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const moves = new Map(
  Object.entries(JSON.parse(readFileSync(process.argv[2], 'utf8'))).map(([a, b]) => [resolve(root, a), resolve(root, b)]),
);

function* files(dir) {
  for (const entry of readdirSync(dir)) {
    if (entry === 'node_modules' || entry === 'generated' || entry === 'dist' || entry.startsWith('.')) continue;
    const p = join(dir, entry);
    if (statSync(p).isDirectory()) yield* files(p);
    else if (/\.(ts|mts|mjs)$/.test(entry)) yield p;
  }
}
const roots = ['packages', 'test', 'scripts', 'examples'].map((d) => join(root, d)).filter(existsSync);
const all = roots.flatMap((d) => [...files(d)]);

const SPECIFIER = /(\bfrom\s+|\bimport\s*\(\s*|\bimport\s+)(['"])(\.{1,2}\/[^'"]+)\2/g;
const rel = (fromFile, target) => {
  const r = relative(dirname(fromFile), target).replaceAll('\\', '/');
  return r.startsWith('.') ? r : `./${r}`;
};

let rewritten = 0;
for (const file of all) {
  const text = readFileSync(file, 'utf8');
  const newFile = moves.get(file) ?? file;
  const out = text.replace(SPECIFIER, (whole, lead, quote, spec) => {
    const target = resolve(dirname(file), spec);
    const newTarget = moves.get(target) ?? target;
    if (newTarget === target && newFile === file) return whole;
    return `${lead}${quote}${rel(newFile, newTarget)}${quote}`;
  });
  if (out !== text) {
    writeFileSync(file, out);
    rewritten++;
  }
}
for (const [from, to] of moves) {
  mkdirSync(dirname(to), { recursive: true });
  execFileSync('git', ['mv', from, to], { cwd: root });
}
console.log(`moved ${moves.size} modules; rewrote imports in ${rewritten} files`);
