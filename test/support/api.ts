import { afterAll, beforeAll } from 'vitest';
import { apiConfigSchema, loadConfig, type ApiConfig } from '@payout/config';
import { startApi, type RunningApi } from '@payout/api';
import { parseJson } from '@payout/domain';
import type { TestMerchant } from './factories.js';

type ConfigOverrides = Partial<Record<keyof ApiConfig, string>>;

/**
 * Starts the real API in-process on a free port for the tests of one file, configured from this run's
 * environment (its own database and queue prefix), and stops it after them.
 */
export function useApi(overrides: ConfigOverrides | (() => ConfigOverrides) = {}): { readonly current: RunningApi } {
  const holder: { current?: RunningApi } = {};
  beforeAll(async () => {
    // A function is read when the API starts, so it may name a server another beforeAll has just started.
    const settings = typeof overrides === 'function' ? overrides() : overrides;
    const config = loadConfig(apiConfigSchema, { ...process.env, PORT: '0', HOST: '127.0.0.1', ...settings });
    holder.current = await startApi(config);
  });
  afterAll(async () => {
    await holder.current?.close();
  });
  return {
    get current() {
      if (!holder.current) throw new Error('the API is not started yet');
      return holder.current;
    },
  };
}

export interface ApiResponse {
  status: number;
  headers: Headers;
  /** The body exactly as sent, for asserting number literals such as 101.00. */
  text: string;
  /** The body parsed with JSON.parse (numbers as JS numbers: check `text` for exact digits). */
  json: Record<string, unknown>;
}

export interface RequestOptions {
  method?: string;
  headers?: Record<string, string>;
  /** A string is sent as is; anything else is JSON.stringify-ed. */
  body?: unknown;
  merchant?: Pick<TestMerchant, 'mid' | 'token'>;
}

/** The API's admin listener (console, /admin/…, queue dashboard), for `call`. */
export function adminOf(api: RunningApi): RunningApi {
  return { ...api, url: api.adminUrl };
}

/** Sends one request to the API and reads the whole answer. */
export async function call(
  api: Pick<RunningApi, 'url'>,
  path: string,
  options: RequestOptions = {},
): Promise<ApiResponse> {
  const headers: Record<string, string> = {};
  if (options.merchant) {
    headers.MID = options.merchant.mid;
    headers.Token = options.merchant.token;
  }
  let body: string | undefined;
  if (options.body !== undefined) {
    headers['Content-Type'] = 'application/json';
    body = typeof options.body === 'string' ? options.body : JSON.stringify(options.body);
  }
  Object.assign(headers, options.headers);
  const response = await fetch(api.url + path, {
    method: options.method ?? (body === undefined ? 'GET' : 'POST'),
    headers,
    body,
  });
  const text = await response.text();
  let json: Record<string, unknown> = {};
  try {
    json = JSON.parse(text) as Record<string, unknown>;
  } catch {
    // Left empty: a test asserting on json will fail, and `text` shows what came back.
  }
  return { status: response.status, headers: response.headers, text, json };
}

/** The body parsed losslessly, for comparing identifiers digit for digit. */
export function losslessBody(response: ApiResponse): Record<string, unknown> {
  return parseJson(response.text) as Record<string, unknown>;
}

let transactionCounter = 0;
/** A TransactionID no other test uses. */
export function newTransactionId(): string {
  transactionCounter += 1;
  return `${Date.now()}${process.pid % 1000}${transactionCounter}`.slice(0, 30);
}

export const impsBody = (overrides: Record<string, unknown> = {}) => ({
  BankName: 'HDFC Bank',
  Account: '123456789012',
  Ifsc: 'HDFC0001234',
  Name: 'Asha Kumar',
  Mobile: '9876543210',
  Email: 'asha@example.com',
  Amount: '101.00',
  Description: 'Salary',
  TransactionID: newTransactionId(),
  ...overrides,
});

export const upiBody = (overrides: Record<string, unknown> = {}) => ({
  Name: 'Asha Kumar',
  Mobile: '9876543210',
  Email: 'asha@example.com',
  Amount: '101.00',
  Description: 'Refund',
  TransactionID: newTransactionId(),
  Upi: 'asha.kumar@okhdfc',
  ...overrides,
});
