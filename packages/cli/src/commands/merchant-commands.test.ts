import { describe, expect, it } from 'vitest';
import { UsageError } from '../usage-error.js';
import { durationArgument } from './merchant-commands.js';

describe('merchant update --queue-window', () => {
  it.each([
    ['72h', 259_200],
    ['90m', 5_400],
    ['3d', 259_200],
    ['60s', 60],
    ['30d', 2_592_000],
  ])('when given %s, then it is %i seconds', (text, seconds) => {
    expect(durationArgument(text)).toBe(seconds);
  });

  it.each(['', '72', 'h', '0h', '-1h', '1.5h', '59s', '31d', '72 h', '1w'])(
    'when given %j, then it is a usage error',
    (text) => {
      expect(() => durationArgument(text)).toThrow(UsageError);
    },
  );
});
