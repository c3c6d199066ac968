import { afterAll, describe, expect, it } from 'vitest';
import { acceptPayouts, transitionPayout } from '@payout/db';
import { countStillMoving, stillMovingHistories } from '../../scripts/soak/still-moving.js';
import { testPrisma } from '../support/database.js';
import { makeMerchant } from '../support/factories.js';
import { upiInstruction } from '../support/payout-instructions.js';

// When the soak's drain gives up, its report shows each payout still moving with every event it went
// through: CI keeps the soak's output and nothing else.
const db = testPrisma();
afterAll(() => db.$disconnect());

describe('payouts still moving after the soak’s drain', () => {
  it('when payouts are undecided, then the drain counts all but the .55 ones waiting at the bank, and the report shows each one’s events and its next check', async () => {
    const { merchant } = await makeMerchant(db, { balance: '1000.00' });
    const [moving, keptPendingOnPurpose, waitingToSubmit] = await acceptPayouts(db, [
      upiInstruction(merchant.id, 10_144n),
      upiInstruction(merchant.id, 10_155n),
      upiInstruction(merchant.id, 10_055n),
    ]);
    const now = new Date();
    const nextCheckAt = new Date(now.getTime() + 30_000);
    for (const accepted of [moving!, keptPendingOnPurpose!]) {
      await transitionPayout(
        db,
        accepted.payout.id,
        'SUBMITTING',
        { nextCheckAt },
        { reason: 'claimed', actor: 'worker:test' },
      );
      await transitionPayout(
        db,
        accepted.payout.id,
        'AWAITING_RAIL',
        { nextCheckAt, incrementSubmitAttempts: true },
        {
          reason: 'the rail answered PENDING',
          attempt: 1,
          actor: 'worker:test',
        },
      );
    }

    // The .55 payout in AWAITING_RAIL is the bank's to keep; one still ACCEPTED is not, whatever its amount.
    expect(await countStillMoving(db)).toBe(2);

    const lines = await stillMovingHistories(db, 5, now);
    const header = (id: bigint) => lines.find((l) => l.startsWith(`payout ${id} `));
    expect(header(moving!.payout.id)).toMatch(
      /^payout \d+ \(\w+, AWAITING_RAIL, ₹101\.44\): 1 submits, 0 inquiries, next check at \+\d+\.\d s \(in 30\.0 s\); accepted -?\d+\.\d s ago$/,
    );
    expect(header(waitingToSubmit!.payout.id)).toContain('ACCEPTED, ₹100.55');
    expect(header(keptPendingOnPurpose!.payout.id)).toBeUndefined();
    const movingEvents = lines.slice(
      lines.indexOf(header(moving!.payout.id)!) + 1,
      lines.indexOf(header(waitingToSubmit!.payout.id)!),
    );
    expect(movingEvents.map((l) => l.replace(/\+\d+\.\d s/, '+t'))).toEqual([
      '  +t ACCEPTED: accepted; amount reserved from the main wallet [api]',
      '  +t ACCEPTED → SUBMITTING: claimed [worker:test]',
      '  +t SUBMITTING → AWAITING_RAIL (attempt 1): the rail answered PENDING [worker:test]',
    ]);
    // Only the first `limit` payouts are shown.
    expect((await stillMovingHistories(db, 1, now)).filter((l) => l.startsWith('payout '))).toHaveLength(1);
  });
});
