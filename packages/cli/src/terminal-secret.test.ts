import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { readHiddenLine, type PromptTerminal } from './terminal-secret.js';
import { CommandFailure } from './usage-error.js';

/**
 * A terminal played by streams: what the person types goes to `input` (marked a TTY, so readline reads it
 * key by key as it reads a real one), and everything the prompt draws is kept in `screen`.
 */
function fakeTerminal(): PromptTerminal & { type: (keys: string) => void; screen: () => string } {
  const input = Object.assign(new PassThrough(), { isTTY: true, setRawMode: () => input });
  const output = new PassThrough();
  let drawn = '';
  output.on('data', (chunk: Buffer) => (drawn += chunk.toString('utf8')));
  return {
    input,
    output,
    type: (keys) => input.write(keys),
    screen: () => drawn,
  };
}

/** Types `keys` once the prompt is drawn (it reads keys only from then on) and returns what it answers. */
async function answer(keys: string[]): Promise<{ value: string; screen: string }> {
  const terminal = fakeTerminal();
  const reading = readHiddenLine('Password for asha: ', terminal);
  await new Promise<void>((resolve) => terminal.output.once('data', () => resolve()));
  for (const key of keys) terminal.type(key);
  const value = await reading;
  return { value, screen: terminal.screen() };
}

const ENTER = '\r';
const LEFT = '\u001b[D';
const HOME = '\u001b[H';
const DELETE = '\u001b[3~';
const BACKSPACE = '\u007f';

describe('readHiddenLine', () => {
  it('when a password is typed, then it is read and only masked characters are drawn', async () => {
    const secret = 'correct horse battery';
    const { value, screen } = await answer([...Array.from(secret), ENTER]);
    expect(value).toBe(secret);
    expect(screen).toContain('Password for asha:');
    expect(screen).toContain('*'.repeat(secret.length));
    expect(screen).not.toContain('horse');
  });

  it('when editing keys are pressed, then they edit the line and none of their bytes are in the password', async () => {
    const { value } = await answer(['abc', LEFT, 'x', HOME, DELETE, 'Z', BACKSPACE, 'Y', ENTER]);
    expect(value).toBe('Ybxc');
  });

  it('when a password is pasted in one piece, then it arrives whole', async () => {
    const pasted = 'p@ss w0rd/with:odd;chars!';
    const { value } = await answer([pasted + ENTER]);
    expect(value).toBe(pasted);
  });

  it('when Ctrl-C is pressed, then the command fails as cancelled', async () => {
    const reading = answer(['sec', '\u0003']);
    await expect(reading).rejects.toThrow(new CommandFailure('cancelled'));
  });

  it('when stdin is no terminal, then it is refused, pointing to --password-stdin', async () => {
    const notATerminal = { input: new PassThrough(), output: new PassThrough() };
    await expect(readHiddenLine('Password: ', notATerminal)).rejects.toThrow(/--password-stdin/);
    await expect(readHiddenLine('Password: ', notATerminal)).rejects.toBeInstanceOf(CommandFailure);
  });
});
