import { describe, expect, it } from 'vitest';
import { bankriff, stringifyJson, type PayoutResultSource } from '@payout/domain';
import { payoutResult } from './payout-result.js';

const imps: PayoutResultSource = {
  mode: 'IMPS',
  status: 'SUCCESS',
  transactionId: '12345678901234567890123',
  amountPaise: 10100n,
  ackNo: 'ACK0000000000001',
  account: '123456789012',
  ifsc: 'HDFC0001234',
  bankReference: 'UTR1',
  failureReason: null,
};
const upi: PayoutResultSource = { ...imps, mode: 'UPI', account: 'asha@okhdfc', ifsc: null };

describe('payout result (docs/api.md, "Payout results")', () => {
  it('when IMPS succeeded, then ifsc is present and Amount and TransactionID are strings', () => {
    const { httpStatus, body } = payoutResult(imps);
    expect(httpStatus).toBe(200);
    expect(stringifyJson(body)).toBe(
      '{"error":false,"status_code":200,"status":"SUCCESS","account":"123456789012","ifsc":"HDFC0001234","Amount":"101.00","Bankriff":"UTR1","Ack_no":"ACK0000000000001","TransactionID":"12345678901234567890123","message":"MP00 - Transaction successful"}',
    );
  });

  it('when UPI succeeded, then there is no ifsc and Amount and TransactionID are exact number literals', () => {
    expect(stringifyJson(payoutResult(upi).body)).toBe(
      '{"error":false,"status_code":200,"status":"SUCCESS","account":"asha@okhdfc","Amount":101.00,"Bankriff":"UTR1","Ack_no":"ACK0000000000001","TransactionID":12345678901234567890123,"message":"MP00 - Transaction successful"}',
    );
  });

  it('when UPI failed, then the members are strings, Bankriff is empty and the message names the reason', () => {
    const { httpStatus, body } = payoutResult({ ...upi, status: 'FAILED', failureReason: 'INVALID_UPI_ADDRESS' });
    expect(httpStatus).toBe(400);
    expect(body).toMatchObject({
      error: true,
      status: 'FAILED',
      Amount: '101.00',
      Bankriff: '',
      TransactionID: '12345678901234567890123',
      message: 'MP007 - Transaction failed: invalid UPI address',
    });
  });

  it('when a paid payout was reversed, then it is a FAILED result that keeps its UTR, and only then does a FAILED one', () => {
    const reversed = { ...upi, status: 'FAILED' as const, failureReason: 'REVERSED_BY_BENEFICIARY_BANK' as const };
    const { httpStatus, body } = payoutResult({ ...reversed, bankReference: '412345678901' });
    const { error, status, Amount, Bankriff, message } = body;
    expect({ httpStatus, error, status, Amount, Bankriff, message }).toEqual({
      httpStatus: 400,
      error: true,
      status: 'FAILED',
      Amount: '101.00',
      Bankriff: '412345678901',
      message: 'MP007 - Transaction failed: reversed by beneficiary bank',
    });
    expect(bankriff({ status: 'FAILED', failureReason: 'RAIL_REJECTED', bankReference: '412345678901' })).toBe('');
    expect(bankriff({ status: 'PENDING', failureReason: null, bankReference: '412345678901' })).toBe('');
  });

  it('when a UPI TransactionID has a leading zero, then it stays a string rather than lose digits', () => {
    expect(payoutResult({ ...upi, transactionId: '00123' }).body.TransactionID).toBe('00123');
  });
});
