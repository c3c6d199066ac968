#!/usr/bin/env node
// Process words: `node .ci/process-words.mjs [path…]`. Prints file:line: text for every line that speaks the
// team's tracker instead of the product, and exits 1 when there is one. Without paths it reads the tracked
// text files of the docs and the code (git ls-files), then the subjects of the commits after BOUNDARY.
// No dependencies: it runs before `pnpm install` as well as after.
/* eslint-disable no-console -- a command-line check: its findings go to the terminal */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { extname } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Words that mean something only in the team's tracker: an issue's number, a "deliverable", an ordinal
 * "pass" of work on it ("fifth pass", "pass 3"), a "scratch branch". A reader of the docs, a comment or a
 * test name cannot look any of them up; what they name must be said in product terms instead. Product
 * English stays allowed: "one pass over" a table, the sweeper's next pass, a bank's branch (IFSC), a
 * console session.
 */
export const PROCESS_WORDS = new RegExp(
  [
    String.raw`\bissues?\s*#?\d+`,
    String.raw`\bdeliverables?\b`,
    String.raw`\b(?:first|second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth|\d+(?:st|nd|rd|th))\s+pass\b(?!\s+(?:over|through))`,
    String.raw`\b(?:this|previous)\s+pass\b(?!\s+(?:over|through))`,
    String.raw`\bpass\s*#?\d+\b`,
    String.raw`\bscratch\s+branch(?:es)?\b`,
  ].join('|'),
  'i',
);

/** Commits up to this one predate the check; later subjects must pass it too. */
export const BOUNDARY = 'aa6ba8b';

const SCANNED = ['docs', 'README.md', 'ARCHITECTURE.md', 'apps', 'packages', 'test', 'bench', 'scripts', 'deploy'];
// Written by tools, not people: their words are the tool's.
const GENERATED = [/(^|\/)pnpm-lock\.yaml$/, /(^|\/)package-lock\.json$/, /\/generated\//];
const BINARY = new Set(['.png', '.jpg', '.jpeg', '.gif', '.ico', '.pdf', '.gz', '.tgz', '.zip', '.woff', '.woff2']);

/** Every line of `text` the regex finds, as `file:line: text`. */
export function findInText(file, text) {
  return text.split('\n').flatMap((line, i) => (PROCESS_WORDS.test(line) ? [`${file}:${i + 1}: ${line.trim()}`] : []));
}

function git(args) {
  return execFileSync('git', args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
}

/** Tracked files, and new ones not yet added that git does not ignore; a file deleted in the work tree is gone. */
function repositoryFiles() {
  return git(['ls-files', '-z', '--cached', '--others', '--exclude-standard', '--', ...SCANNED])
    .split('\0')
    .filter((f) => f && !BINARY.has(extname(f).toLowerCase()) && !GENERATED.some((re) => re.test(f)))
    .filter((f) => existsSync(f));
}

function findInFile(file) {
  const text = readFileSync(file, 'utf8');
  return text.includes('\0') ? [] : findInText(file, text);
}

/** Subjects of the commits after BOUNDARY; none (with a note) when BOUNDARY is not in this history. */
function commitSubjectFindings() {
  try {
    git(['cat-file', '-e', `${BOUNDARY}^{commit}`]);
  } catch {
    console.log(`process-words: commit ${BOUNDARY} is not in this history (a shallow clone?): subjects not checked`);
    return [];
  }
  return git(['log', '--format=%h %s', `${BOUNDARY}..HEAD`])
    .split('\n')
    .filter((line) => line && PROCESS_WORDS.test(line.slice(line.indexOf(' ') + 1)))
    .map((line) => `commit ${line}`);
}

function main(paths) {
  // The repository's own files are named from its root, wherever the check is started.
  if (!paths.length) process.chdir(fileURLToPath(new URL('..', import.meta.url)));
  const findings = paths.length
    ? paths.flatMap(findInFile)
    : [...repositoryFiles().flatMap(findInFile), ...commitSubjectFindings()];
  for (const finding of findings) console.log(finding);
  if (findings.length) {
    console.log(`process-words: ${findings.length} line(s) name the tracker, not the product (.ci/process-words.mjs)`);
    process.exitCode = 1;
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) main(process.argv.slice(2));
