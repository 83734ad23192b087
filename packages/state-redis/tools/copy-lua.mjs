// Copies every src/**/*.lua file to the same place under dist/, so the built package can read its
// scripts beside the modules that load them. Run by `pnpm build` after tsc.
import { cpSync, readdirSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const src = join(root, 'src');
const dist = join(root, 'dist');

let copied = 0;
for (const entry of readdirSync(src, { recursive: true, withFileTypes: true })) {
  if (!entry.isFile() || !entry.name.endsWith('.lua')) continue;
  const from = join(entry.parentPath ?? entry.path, entry.name);
  cpSync(from, join(dist, relative(src, from)));
  copied += 1;
}
if (copied === 0) throw new Error('copy-lua: no .lua files found under src/');
console.log(`copy-lua: copied ${copied} script(s) to dist/`);
