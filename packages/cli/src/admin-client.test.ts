import { createServer, type Server } from 'node:http';
import { mkdtemp, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AdminRefusal, createAdminClient, readSavedCredential, saveCredential } from './admin-client.js';
import { CommandFailure } from './usage-error.js';

describe('the admin client', () => {
  let server: Server;
  let url: string;
  const seen: { authorization?: string; body: string }[] = [];

  beforeAll(async () => {
    server = createServer((req, res) => {
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk.toString()));
      req.on('end', () => {
        seen.push({ authorization: req.headers.authorization, body });
        res.setHeader('Content-Type', 'application/json');
        if (req.headers.authorization !== 'Bearer right') {
          res.statusCode = 401;
          res.end(JSON.stringify({ error: true, status_code: 401, status: 'UNAUTHORIZED', message: 'Who are you?' }));
          return;
        }
        res.end(
          JSON.stringify({ error: false, status_code: 200, status: 'OK', echoed: body ? JSON.parse(body) : null }),
        );
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('when a person holds no credential, then nothing is sent and the command says how to sign in', async () => {
    const before = seen.length;
    await expect(createAdminClient({ url }).post('/admin/x', {})).rejects.toThrow(/pnpm cli login/);
    expect(seen.length).toBe(before);
  });

  it('when the credential is good, then the body goes as JSON behind a Bearer header and the answer comes back', async () => {
    const answer = await createAdminClient({ url, credential: 'right' }).post('/admin/x', { amount: '1.00' });
    expect(answer).toMatchObject({ echoed: { amount: '1.00' } });
    expect(seen.at(-1)?.authorization).toBe('Bearer right');
  });

  it('when the server refuses, then the failure carries its status and message', async () => {
    const refused = await createAdminClient({ url, credential: 'wrong' })
      .get('/admin/x')
      .catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(AdminRefusal);
    expect(refused).toBeInstanceOf(CommandFailure);
    expect((refused as AdminRefusal).status).toBe(401);
    expect((refused as AdminRefusal).message).toMatch(/^Who are you\?/);
  });

  it('when a sign-in is saved, then only its owner may read the file, and an expired one is not used', async () => {
    const file = path.join(await mkdtemp(path.join(tmpdir(), 'cli-credential-')), 'nested', 'credential.json');
    const credential = { adminUrl: url, token: 't', username: 'asha', expiresAt: '2999-01-01T00:00:00.000Z' };
    await saveCredential(file, credential);
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    expect(await readSavedCredential(file)).toEqual(credential);
    expect(await readSavedCredential(file, new Date('3000-01-01T00:00:00Z'))).toBeUndefined();
    expect(await readSavedCredential(`${file}.missing`)).toBeUndefined();
  });
});
