import { CommandFailure } from './usage-error.js';

/**
 * Reads a password typed at the terminal without echoing it (raw mode: each key is read as it comes and
 * nothing is written back). Refused when stdin is no terminal: a script pipes it with --password-stdin.
 */
export function readHiddenLine(prompt: string): Promise<string> {
  const stdin = process.stdin;
  if (!stdin.isTTY) {
    return Promise.reject(
      new CommandFailure('no terminal to read the password from: pipe it in with --password-stdin'),
    );
  }
  process.stderr.write(prompt);
  return new Promise((resolve, reject) => {
    let typed = '';
    const finish = (error?: Error) => {
      stdin.setRawMode(false);
      stdin.pause();
      stdin.off('data', onData);
      process.stderr.write('\n');
      if (error) reject(error);
      else resolve(typed);
    };
    const onData = (chunk: Buffer) => {
      for (const char of chunk.toString('utf8')) {
        if (char === '\r' || char === '\n' || char === '\u0004') {
          finish();
          return;
        }
        if (char === '\u0003') {
          finish(new CommandFailure('cancelled'));
          return;
        }
        if (char === '\u007f' || char === '\b') typed = typed.slice(0, -1);
        else typed += char;
      }
    };
    stdin.setRawMode(true);
    stdin.resume();
    stdin.on('data', onData);
  });
}

/** Everything piped to stdin, without its final line break (`--password-stdin`). */
export async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks)
    .toString('utf8')
    .replace(/\r?\n$/, '');
}
