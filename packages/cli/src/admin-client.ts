import { chmod, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import path from 'node:path';
import { CommandFailure, UsageError } from './usage-error.js';

/**
 * The CLI's door to the admin listener (docs/operations.md, "Security model"): every command that acts as
 * a person sends its request there with that person's own credential, and the server decides who they are
 * and what they may do. The CLI never names a person itself.
 */
export interface AdminClient {
  /** The admin listener's base URL, for messages. */
  readonly url: string;
  /** POSTs `body` as JSON; the parsed body of a 2xx answer, else a {@link CommandFailure} with the server's message. */
  post<T = Record<string, unknown>>(path: string, body?: unknown): Promise<T>;
  get<T = Record<string, unknown>>(path: string): Promise<T>;
}

export interface AdminClientOptions {
  /** The admin listener, e.g. `http://127.0.0.1:3002`. */
  url: string;
  /** A personal API key or a sign-in token; without one every call is refused before it is sent. */
  credential?: string;
  /** Gives up on an answer after this long; 5 minutes by default (a statement run can take a while). */
  timeoutMs?: number;
}

/** What the admin listener answered when it was not a 2xx, for a caller that needs the status. */
export class AdminRefusal extends CommandFailure {
  constructor(
    message: string,
    readonly status: number,
    readonly body: Record<string, unknown> | undefined,
  ) {
    super(message);
  }
}

/**
 * For a command whose arguments the admin listener judges (a resolution that does not fit, a webhook URL
 * it refuses): its 422 is a usage error, exit status 2, as the same check made here would be.
 */
export function calledWrongly(error: unknown): never {
  if (error instanceof AdminRefusal && error.status === 422) throw new UsageError(error.message);
  throw error;
}

const SIGN_IN_HINT =
  'sign in first: `pnpm cli login --name <you>`, or set PAYOUT_ADMIN_KEY to a personal API key made on the console (/console/keys)';

export function createAdminClient(options: AdminClientOptions): AdminClient {
  const base = options.url.replace(/\/+$/, '');
  const timeoutMs = options.timeoutMs ?? 5 * 60_000;

  async function send<T>(method: 'GET' | 'POST', route: string, body?: unknown): Promise<T> {
    if (!options.credential) throw new CommandFailure(`this command acts as a person: ${SIGN_IN_HINT}`);
    let response: Response;
    try {
      response = await fetch(`${base}${route}`, {
        method,
        headers: {
          Authorization: `Bearer ${options.credential}`,
          Accept: 'application/json',
          ...(body !== undefined && { 'Content-Type': 'application/json' }),
        },
        ...(body !== undefined && { body: JSON.stringify(body) }),
        signal: AbortSignal.timeout(timeoutMs),
      });
    } catch (error) {
      throw new CommandFailure(
        `the admin listener at ${base} did not answer (${(error as Error).message}); set ADMIN_URL`,
      );
    }
    const text = await response.text();
    let parsed: Record<string, unknown> | undefined;
    try {
      parsed = text ? (JSON.parse(text) as Record<string, unknown>) : undefined;
    } catch {
      parsed = undefined;
    }
    if (response.ok && parsed) return parsed as T;
    const said = typeof parsed?.message === 'string' ? parsed.message : `HTTP ${response.status}`;
    const message = response.status === 401 ? `${said} (${SIGN_IN_HINT})` : said;
    throw new AdminRefusal(message, response.status, parsed);
  }

  return {
    url: base,
    post: (route, body) => send('POST', route, body ?? {}),
    get: (route) => send('GET', route),
  };
}

/**
 * A POST to one of the admin listener's public doors (signing in, a person's own enrollment), made without a
 * credential since it is how a person comes to have one: the parsed answer, or a {@link CommandFailure} with
 * the server's message.
 */
export async function postPublic<T>(adminUrl: string, route: string, body: unknown): Promise<T> {
  const base = adminUrl.replace(/\/+$/, '');
  let response: Response;
  try {
    response = await fetch(`${base}${route}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(30_000),
    });
  } catch (error) {
    throw new CommandFailure(
      `the admin listener at ${base} did not answer (${(error as Error).message}); set ADMIN_URL`,
    );
  }
  const parsed = (await response.json().catch(() => ({}))) as Record<string, unknown>;
  if (!response.ok) {
    const said = typeof parsed.message === 'string' ? parsed.message : `HTTP ${response.status}`;
    throw new AdminRefusal(said, response.status, parsed);
  }
  return parsed as T;
}

/** What `pnpm cli login` keeps: the sign-in token, whose it is, where it works and until when. */
export interface SavedCredential {
  adminUrl: string;
  token: string;
  username: string;
  expiresAt: string;
}

/** Where the sign-in is kept: PAYOUT_CLI_CREDENTIALS when set, else a file in the person's own config folder. */
export function credentialFilePath(configured?: string): string {
  return configured || path.join(homedir(), '.config', 'payout-gateway', 'credential.json');
}

/** The saved sign-in, or undefined when there is none, it is unreadable, or it has expired. */
export async function readSavedCredential(file: string, now = new Date()): Promise<SavedCredential | undefined> {
  let saved: SavedCredential;
  try {
    saved = JSON.parse(await readFile(file, 'utf8')) as SavedCredential;
  } catch {
    return undefined;
  }
  if (typeof saved.token !== 'string' || !saved.token) return undefined;
  if (Date.parse(saved.expiresAt) <= now.getTime()) return undefined;
  return saved;
}

/** Keeps a sign-in in a file only its owner can read (mode 0600, in a 0700 folder). */
export async function saveCredential(file: string, credential: SavedCredential): Promise<void> {
  await mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
  await writeFile(file, `${JSON.stringify(credential, null, 2)}\n`, { mode: 0o600 });
  // writeFile keeps an existing file's mode: make sure it is the owner's alone.
  await chmod(file, 0o600);
}

export async function forgetCredential(file: string): Promise<void> {
  await rm(file, { force: true });
}

/**
 * What `pnpm cli enroll` (and `setup`, `break-glass approver`) keeps while a person's enrollment waits for its
 * approval: its secret, on this person's own machine only, in a file only they can read.
 */
export interface SavedEnrollment {
  adminUrl: string;
  username: string;
  secret: string;
  fingerprint: string;
  expiresAt: string;
}

/** Beside the sign-in file: `enrollment-<username>.json`. */
export function enrollmentFilePath(credentialFile: string, username: string): string {
  return path.join(path.dirname(credentialFile), `enrollment-${username}.json`);
}

export async function readSavedEnrollment(file: string): Promise<SavedEnrollment | undefined> {
  try {
    const saved = JSON.parse(await readFile(file, 'utf8')) as SavedEnrollment;
    return typeof saved.secret === 'string' && saved.secret ? saved : undefined;
  } catch {
    return undefined;
  }
}

export async function saveEnrollment(file: string, enrollment: SavedEnrollment): Promise<void> {
  await mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
  await writeFile(file, `${JSON.stringify(enrollment, null, 2)}\n`, { mode: 0o600 });
  await chmod(file, 0o600);
}
