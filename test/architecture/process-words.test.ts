import { spawnSync } from 'node:child_process';
import { copyFile, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// The check `pnpm lint` runs over the docs and the code (.ci/process-words.mjs), fed files of its own: words
// of the team's tracker are found and fail it, product English that looks like them does not.
const CHECK = fileURLToPath(new URL('../../.ci/process-words.mjs', import.meta.url));

// The tracker's words are written with a `_` inside and joined here, so this file passes the check it tests.
const spoken = (text: string) => text.replace(/_/g, '');

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'process-words-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function fileWith(name: string, lines: string[]): Promise<string> {
  const path = join(dir, name);
  await writeFile(path, lines.join('\n') + '\n');
  return path;
}

function check(...paths: string[]) {
  const run = spawnSync(process.execPath, [CHECK, ...paths], { encoding: 'utf8' });
  return { status: run.status, lines: run.stdout.trim().split('\n').filter(Boolean) };
}

describe('the process-words check', () => {
  it("when a file speaks the tracker's words (issue numbers, ordinal passes and the like), then it prints each line and exits 1", async () => {
    const bad = await fileWith('bad.md', [
      '# Performance',
      spoken('## Is_sue 13, fifth pa_ss'),
      'The accept path coalesces statements.',
      spoken('Fixed for is_sues #4 and 7 (deliver_able 5).'),
      spoken('Measured in pa_ss 3, on a scr_atch branch.'),
    ]);

    const { status, lines } = check(bad);

    expect(status).toBe(1);
    expect(lines).toEqual([
      `${bad}:2: ${spoken('## Is_sue 13, fifth pa_ss')}`,
      `${bad}:4: ${spoken('Fixed for is_sues #4 and 7 (deliver_able 5).')}`,
      `${bad}:5: ${spoken('Measured in pa_ss 3, on a scr_atch branch.')}`,
      expect.stringContaining('process-words: 3 line(s)'),
    ]);
  });

  it('when a file speaks product English about passes, branches and sessions, then it prints nothing and exits 0', async () => {
    const clean = await fileWith('clean.ts', [
      '// The matcher makes one pass over the statement lines, and a first pass over the payouts.',
      "// The sweeper's next pass re-queues it; this pass over the table is the only one.",
      '// The beneficiary bank branch (IFSC SBIN0001234) and the console session of the operator.',
      '// Tokens are issued by the CLI; a passed test, 13 issued tokens, pass the 3 checks.',
    ]);

    const { status, lines } = check(clean);

    expect(lines).toEqual([]);
    expect(status).toBe(0);
  });

  it('when the history lacks the boundary commit (a shallow clone), then it says the subjects were not checked and still checks the files', async () => {
    const repo = join(dir, 'shallow');
    await mkdir(join(repo, '.ci'), { recursive: true });
    await mkdir(join(repo, 'docs'));
    await copyFile(CHECK, join(repo, '.ci/process-words.mjs'));
    await writeFile(join(repo, 'docs/guide.md'), spoken('# Guide\n\nWritten in the third pa_ss.\n'));
    const git = (...args: string[]) =>
      spawnSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.com', ...args], { cwd: repo });
    git('init', '-q');
    git('add', '.');
    git('commit', '-q', '-m', 'A guide');

    const run = spawnSync(process.execPath, [join(repo, '.ci/process-words.mjs')], { cwd: repo, encoding: 'utf8' });

    expect(run.stdout).toContain('is not in this history (a shallow clone?): subjects not checked');
    expect(run.stdout).toContain(spoken('docs/guide.md:3: Written in the third pa_ss.'));
    expect(run.status).toBe(1);
  });
});
