import { describe, expect, it } from 'vitest';
import { loadConfig } from './load-config.js';
import { railSimConfigSchema } from './app-configs.js';
import { journalOf, simulatedBanksOf } from './rail-sim-banks.js';

const banksOf = (env: Record<string, string>) => simulatedBanksOf(loadConfig(railSimConfigSchema, env));

describe('the rail simulator’s banks (RAIL_SIM_BANKS)', () => {
  it('when unset, then there is one bank, primary, on RAIL_SIM_PORT with the first account and RAIL_SIM_STATE_FILE', () => {
    expect(banksOf({ RAIL_SIM_PORT: '4200', RAIL_SIM_STATE_FILE: '/tmp/bank.jsonl' })).toEqual([
      {
        name: 'primary',
        port: 4200,
        account: '50200012345678',
        ifsc: 'SIMB0000001',
        stateFile: '/tmp/bank.jsonl',
        faults: [],
      },
    ]);
  });

  it('when given as name:port pairs, then each bank has its port, the next account and branch, and a journal of its own', () => {
    const banks = banksOf({ RAIL_SIM_BANKS: 'primary:4100, secondary:4101', RAIL_SIM_STATE_FILE: '/tmp/bank.jsonl' });
    expect(banks).toEqual([
      expect.objectContaining({
        name: 'primary',
        port: 4100,
        account: '50200012345678',
        stateFile: '/tmp/bank.primary.jsonl',
      }),
      {
        name: 'secondary',
        port: 4101,
        account: '50200012345679',
        ifsc: 'SIMB0000002',
        stateFile: '/tmp/bank.secondary.jsonl',
        faults: [],
      },
    ]);
  });

  it('when given as JSON, then accounts, journals and fault schedules are each bank’s own', () => {
    const banks = banksOf({
      RAIL_SIM_BANKS: JSON.stringify([
        { name: 'a', port: 0, account: '11112222333', faults: [{ atMs: 1000, forMs: 5000, down: true }] },
        { name: 'b', port: 0, stateFile: '/tmp/b.jsonl' },
      ]),
    });
    expect(banks.map((b) => [b.name, b.account, b.stateFile, b.faults])).toEqual([
      ['a', '11112222333', undefined, [{ atMs: 1000, forMs: 5000, down: true }]],
      ['b', '50200012345679', '/tmp/b.jsonl', []],
    ]);
  });

  it('when the single bank has a fault schedule, then RAIL_SIM_FAULTS gives it', () => {
    expect(banksOf({ RAIL_SIM_FAULTS: '[{"atMs":0,"statusLagMs":3000}]' })[0]!.faults).toEqual([
      { atMs: 0, statusLagMs: 3000 },
    ]);
  });

  it.each([
    ['two banks of one name', 'a:4100,a:4101', /names must differ/],
    ['two banks on one port', 'a:4100,b:4100', /port of its own/],
    ['a port that is not a number', 'a:http', /port/],
    ['a name that is not an alias', 'Primary:4100', /lowercase alias/],
    ['JSON that does not parse', '[{', /JSON array/],
    ['an unknown fault', '[{"name":"a","port":1,"faults":[{"atMs":0,"dwon":true}]}]', /dwon/],
  ])('when RAIL_SIM_BANKS has %s, then the configuration is refused', (_what, value, message) => {
    expect(() => banksOf({ RAIL_SIM_BANKS: value })).toThrow(message);
  });

  it('when a journal is named per bank, then the bank’s name goes before the extension', () => {
    expect(journalOf('/tmp/x/bank.jsonl', 'secondary')).toBe('/tmp/x/bank.secondary.jsonl');
    expect(journalOf('/tmp/x.d/bank', 'b')).toBe('/tmp/x.d/bank.b');
  });
});
