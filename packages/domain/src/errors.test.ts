import { describe, expect, it } from 'vitest';
import { AppError, isAppError } from './errors.js';

describe('AppError', () => {
  it.each([
    ['VALIDATION_FAILED', 422],
    ['UNAUTHENTICATED', 401],
    ['INVALID_MID', 400],
    ['NOT_FOUND', 404],
    ['TRANSACTION_ID_CONFLICT', 409],
    ['PAYLOAD_TOO_LARGE', 413],
    ['UNSUPPORTED_MEDIA_TYPE', 415],
    ['RATE_LIMITED', 429],
    ['DEPENDENCY_UNAVAILABLE', 503],
    ['INTERNAL', 500],
  ] as const)('when the code is %s, then the HTTP status is %i', (code, status) => {
    expect(new AppError(code, 'x').httpStatus).toBe(status);
  });

  it('when it is a bug (INTERNAL), then it is not operational; other codes are', () => {
    expect(new AppError('INTERNAL', 'x').operational).toBe(false);
    expect(new AppError('NOT_FOUND', 'x').operational).toBe(true);
  });

  it('when built for validation, then it lists every failing field', () => {
    const error = AppError.validation([
      { field: 'Ifsc', message: 'Ifsc is bad' },
      { field: 'Amount', message: 'Amount is too small' },
    ]);
    expect(error.code).toBe('VALIDATION_FAILED');
    expect(error.details.errors).toHaveLength(2);
    expect(error.message).toBe('Ifsc is bad; Amount is too small');
    expect(isAppError(error)).toBe(true);
    expect(isAppError(new Error('x'))).toBe(false);
  });
});
