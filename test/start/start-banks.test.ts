import { describe, expect, it } from 'vitest';
import { startBanks } from '../../scripts/start/start-banks.js';

// `pnpm start` runs two simulated banks and tells the API and the worker about both (docs/rail-sim.md,
// "Several banks").

describe('the banks pnpm start runs', () => {
  it('when nothing is set, then primary is on :4100 and secondary on :4101, and BANKS names both with their accounts', () => {
    const { env, urls } = startBanks({});
    expect(env.RAIL_SIM_BANKS).toBe('primary:4100,secondary:4101');
    expect(JSON.parse(env.BANKS!)).toEqual([
      { name: 'primary', baseUrl: 'http://127.0.0.1:4100', settlementAccount: '50200012345678' },
      { name: 'secondary', baseUrl: 'http://127.0.0.1:4101', settlementAccount: '50200012345679' },
    ]);
    expect([...urls.keys()]).toEqual(['primary', 'secondary']);
  });

  it('when RAIL_SIM_PORT is set, then primary is there and secondary on the port after', () => {
    expect(startBanks({ RAIL_SIM_PORT: '5100' }).env.RAIL_SIM_BANKS).toBe('primary:5100,secondary:5101');
  });

  it('when RAIL_SIM_BANKS is set, then those banks run and BANKS follows them', () => {
    const { env } = startBanks({ RAIL_SIM_BANKS: 'primary:4300,secondary:4400,tertiary:4500' });
    expect(env.RAIL_SIM_BANKS).toBe('primary:4300,secondary:4400,tertiary:4500');
    expect((JSON.parse(env.BANKS!) as { baseUrl: string }[]).map((b) => b.baseUrl)).toEqual([
      'http://127.0.0.1:4300',
      'http://127.0.0.1:4400',
      'http://127.0.0.1:4500',
    ]);
  });

  it('when BANKS is set, then the launcher leaves it as it is', () => {
    const { env } = startBanks({ BANKS: '[{"name":"primary","baseUrl":"https://bank.example"}]' });
    expect(env).toEqual({ RAIL_SIM_BANKS: 'primary:4100,secondary:4101' });
  });
});
