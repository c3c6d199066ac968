import { describe, expect, it } from 'vitest';
import { isForbiddenWebhookAddress, webhookUrlProblem } from './webhook-destination.js';

const PRODUCTION = { requireHttps: true, allowPrivateAddresses: false };

describe('webhook destinations', () => {
  it.each([
    '127.0.0.1',
    '127.1.2.3',
    '10.0.0.5',
    '172.16.0.1',
    '172.31.255.255',
    '192.168.1.1',
    '169.254.169.254',
    '100.64.0.1',
    '0.0.0.0',
    '224.0.0.1',
    '255.255.255.255',
    '::1',
    '::',
    'fe80::1',
    'fd00:ec2::254',
    'fc00::1',
    '::ffff:127.0.0.1',
    '::ffff:7f00:1',
    '::ffff:169.254.169.254',
    '64:ff9b::a9fe:a9fe',
    '64:ff9b::10.0.0.1',
    '64:ff9b:1::a00:1',
    '2002:7f00:1::',
    '2002:a00:1::',
    '2001:0:4136:e378:8000:63bf:3fff:fdd2',
    '2001:db8::1',
    '::ffff:10.0.0.1',
    '100.100.100.100',
    '198.18.0.1',
    '192.0.0.170',
    '240.1.2.3',
    '0.1.2.3',
    'ff02::1',
    '239.1.2.3',
    '192.0.2.10',
    '198.51.100.10',
    '203.0.113.10',
    '[::1]',
    'fe80::1%eth0',
    'not-an-address',
  ])('when the address is %s, then a webhook may not reach it', (address) => {
    expect(isForbiddenWebhookAddress(address)).toBe(true);
  });

  it.each(['93.184.215.14', '8.8.8.8', '172.32.0.1', '2606:4700::1111', '::ffff:8.8.8.8'])(
    'when the address is %s (public), then a webhook may reach it',
    (address) => {
      expect(isForbiddenWebhookAddress(address)).toBe(false);
    },
  );

  it('when a URL is judged for production, then only https to a public host without credentials passes', () => {
    expect(webhookUrlProblem('https://acme.example/hooks', PRODUCTION)).toBeUndefined();
    expect(webhookUrlProblem('http://acme.example/hooks', PRODUCTION)).toMatch(/https/);
    expect(webhookUrlProblem('ftp://acme.example/hooks', PRODUCTION)).toMatch(/http/);
    expect(webhookUrlProblem('not a url', PRODUCTION)).toMatch(/absolute/);
    expect(webhookUrlProblem('https://user:pw@acme.example/x', PRODUCTION)).toMatch(/credentials/);
    for (const url of [
      'https://127.0.0.1/hooks',
      'https://169.254.169.254/latest/meta-data/',
      'https://[::1]:8443/x',
      'https://[::ffff:10.0.0.1]/x',
      'https://2130706433/x', // 127.0.0.1 written as one number
      'https://0x7f.1/x',
      'https://localhost/x',
      'https://api.localhost/x',
      'https://localhost./x',
      'https://127.0.0.1./x',
      'https://[2002:7f00:1::]/x', // 6to4 of 127.0.0.1
      'https://[64:ff9b::a9fe:a9fe]/x', // NAT64 of the metadata service
      'https://[2001::1]/x', // Teredo
      'https://100.64.0.1/x',
    ]) {
      expect(webhookUrlProblem(url, PRODUCTION), url).toMatch(/loopback|localhost/);
    }
    expect(webhookUrlProblem('https://93.184.215.14/hooks', PRODUCTION)).toBeUndefined();
    expect(webhookUrlProblem('https://[2606:4700::1111]/hooks', PRODUCTION)).toBeUndefined();
  });

  it('when private addresses are allowed (tests, development), then a local receiver over http passes', () => {
    expect(
      webhookUrlProblem('http://127.0.0.1:4000/hooks', { requireHttps: false, allowPrivateAddresses: true }),
    ).toBeUndefined();
    expect(
      webhookUrlProblem('http://127.0.0.1:4000/hooks', { requireHttps: false, allowPrivateAddresses: false }),
    ).toMatch(/loopback/);
  });
});
