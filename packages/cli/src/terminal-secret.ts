import password from '@inquirer/password';
import { CommandFailure } from './usage-error.js';

/** Where a prompt reads keys from and draws itself: the process's own terminal, or a test's. */
export interface PromptTerminal {
  input: NodeJS.ReadableStream & { isTTY?: boolean };
  output: NodeJS.WritableStream;
}

const PROCESS_TERMINAL: PromptTerminal = { input: process.stdin, output: process.stderr };

/**
 * Reads a secret typed at the terminal (a password, a second-factor code), showing `*` for each character:
 * @inquirer/password over Node's readline, so the editing keys (arrows, Home, End, Delete, backspace) edit
 * the line instead of landing in it, and a paste arrives whole. The prompt is drawn on stderr, so stdout
 * stays the command's output; the reveal shortcut is off, so the secret is never on screen. Refused when
 * stdin is no terminal: a script pipes the password in with --password-stdin. Ctrl-C or Ctrl-D cancels.
 */
export async function readHiddenLine(prompt: string, terminal: PromptTerminal = PROCESS_TERMINAL): Promise<string> {
  if (!terminal.input.isTTY) {
    throw new CommandFailure('no terminal to read the password from: pipe it in with --password-stdin');
  }
  try {
    return await password(
      { message: prompt.trim(), mask: true, toggleMask: false },
      { input: terminal.input, output: terminal.output },
    );
  } catch (error) {
    // The prompt rejects with ExitPromptError when the person presses Ctrl-C (or Ctrl-D, closing the input).
    if (error instanceof Error && error.name === 'ExitPromptError') throw new CommandFailure('cancelled');
    throw error;
  }
}

/** Everything piped to stdin, without its final line break (`--password-stdin`). */
export async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks)
    .toString('utf8')
    .replace(/\r?\n$/, '');
}
