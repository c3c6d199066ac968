import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { impsBody } from '../support/api.js';
import { AppProcess } from '../support/app-process.js';
import { testPrisma } from '../support/database.js';
import { makeMerchant, type TestMerchant } from '../support/factories.js';

// A client that hangs up before its body has arrived — as a load generator does when its run ends with
// requests in flight — was refused by nobody: the API logs it as aborted, not as a bad body, and no payout
// is recorded (apps/api/src/http/error-handler.ts).

const prisma = testPrisma();
let api: AppProcess;
let port: number;
let merchant: TestMerchant;

beforeAll(async () => {
  merchant = await makeMerchant(prisma, { balance: '100.00' });
  api = AppProcess.start('api', {
    PORT: '0',
    HOST: '127.0.0.1',
    ADMIN_PORT: '0',
    ADMIN_HOST: '127.0.0.1',
    METRICS_PORT: '0',
    RATE_LIMIT_ENABLED: 'false',
  });
  await api.logged('api listening', 60_000);
  port = Number(api.lines.find((line) => line.msg === 'api listening')!.port);
}, 90_000);
afterAll(async () => {
  await api.stop();
  await prisma.$disconnect();
});

describe('a request cut off mid-body', () => {
  it('when the client closes the connection before the body it announced has arrived, then the API logs it as aborted, refuses nothing and records nothing', async () => {
    const body = JSON.stringify(impsBody());
    const socket = connect(port, '127.0.0.1');
    await new Promise<void>((resolve) => socket.once('connect', resolve));
    // Expect: 100-continue makes the server say when it has the headers and is reading the body.
    socket.write(
      `POST /api/impspayout HTTP/1.1\r\nHost: 127.0.0.1\r\nMID: ${merchant.mid}\r\nToken: ${merchant.token}\r\n` +
        `Content-Type: application/json\r\nContent-Length: ${body.length + 50}\r\nExpect: 100-continue\r\n\r\n`,
    );
    const interim = await new Promise<string>((resolve) =>
      socket.once('data', (chunk: Buffer) => resolve(chunk.toString())),
    );
    expect(interim).toMatch(/^HTTP\/1\.1 100 Continue/);
    socket.write(body.slice(0, 20));
    socket.destroy();

    await api.logged('request aborted by the client before its body arrived', 10_000);
    expect(
      api.lines.find((line) => line.msg === 'request aborted by the client before its body arrived'),
    ).toMatchObject({
      type: 'request.aborted',
    });
    expect(api.lines.filter((line) => line.msg === 'request body refused' || line.msg === 'request refused')).toEqual(
      [],
    );
    expect(await prisma.payout.count({ where: { merchantId: merchant.merchant.id } })).toBe(0);
  });
});
