#!/usr/bin/env node
/**
 * Reads a mutation list (`models.txt` or `code.txt` in this folder) and prints or applies one
 * entry. Never edits a file in place: `apply` writes the mutated text to a new path.
 *
 *   node apply.mjs list <file>                 one line per entry: name<TAB>target<TAB>config<TAB>expect
 *   node apply.mjs apply <file> <name> <in> <out>  writes <in> with the entry's edits to <out>
 *
 * Entry format (blocks separated by blank lines, `#` lines are comments):
 *   ## <name>
 *   target <path relative to the repository or models/>
 *   config <configuration name>         (model mutations: which check.sh run rejects it)
 *   expect <tag>                        (the invariant that must fire: I1, A3, end, L1, ...)
 *   why <one line>
 *   - <text to find: must occur exactly once in the target>
 *   + <its replacement (may be empty)>
 * `<NL>` in a find or a replacement stands for a line break (finds may span lines).
 * Several -/+ pairs apply in order. A find that occurs zero times or more than once is an error
 * (exit 2): a stale mutation must fail loudly, never pass unapplied.
 */
import { readFileSync, writeFileSync } from 'node:fs';

/** Parses a mutation list into entries. */
export function parseMutations(text) {
  const entries = [];
  let current;
  for (const [index, raw] of text.split('\n').entries()) {
    const line = raw.replace(/\r$/, '');
    if (line.startsWith('## ')) {
      current = { name: line.slice(3).trim(), edits: [], line: index + 1 };
      entries.push(current);
      continue;
    }
    if (line.trim() === '' || line.startsWith('#')) continue;
    if (current === undefined) throw new Error(`line ${index + 1}: text before the first entry`);
    const match = /^(target|config|expect|why) (.*)$/.exec(line);
    if (match) {
      current[match[1]] = match[2].trim();
    } else if (line.startsWith('- ') || line === '-') {
      current.edits.push({ find: line.slice(2).replaceAll('<NL>', '\n'), replace: undefined });
    } else if (line.startsWith('+ ') || line === '+') {
      const last = current.edits.at(-1);
      if (last === undefined || last.replace !== undefined) {
        throw new Error(`line ${index + 1}: "+" without a preceding "-"`);
      }
      last.replace = line.slice(2).replaceAll('<NL>', '\n');
    } else {
      throw new Error(`line ${index + 1}: unreadable: ${line}`);
    }
  }
  for (const entry of entries) {
    for (const field of ['target', 'expect', 'why']) {
      if (!entry[field]) throw new Error(`mutation ${entry.name} lacks "${field}"`);
    }
    if (entry.edits.length === 0 || entry.edits.some((edit) => edit.replace === undefined)) {
      throw new Error(`mutation ${entry.name} needs "-" / "+" pairs`);
    }
  }
  const names = new Set();
  for (const entry of entries) {
    if (names.has(entry.name)) throw new Error(`mutation ${entry.name} is listed twice`);
    names.add(entry.name);
  }
  return entries;
}

/** Applies an entry's edits to `text`; throws when a find is missing or not unique. */
export function applyMutation(entry, text) {
  let out = text;
  for (const { find, replace } of entry.edits) {
    const first = out.indexOf(find);
    if (first < 0) throw new Error(`mutation ${entry.name}: text not found: ${find}`);
    if (out.indexOf(find, first + 1) >= 0) {
      throw new Error(`mutation ${entry.name}: text occurs more than once: ${find}`);
    }
    out = out.slice(0, first) + replace + out.slice(first + find.length);
  }
  return out;
}

function main([command, file, name, input, output]) {
  const entries = parseMutations(readFileSync(file, 'utf8'));
  if (command === 'list') {
    for (const entry of entries) {
      console.log([entry.name, entry.target, entry.config ?? '', entry.expect].join('\t'));
    }
    return;
  }
  if (command === 'apply') {
    const entry = entries.find((candidate) => candidate.name === name);
    if (entry === undefined) throw new Error(`no mutation named ${name}`);
    writeFileSync(output, applyMutation(entry, readFileSync(input, 'utf8')));
    return;
  }
  throw new Error('usage: apply.mjs list <file> | apply <file> <name> <in> <out>');
}

if (import.meta.url === `file://${process.argv[1]}`) {
  try {
    main(process.argv.slice(2));
  } catch (error) {
    console.error(`mutations: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(2);
  }
}
