import type { components, operations } from './generated/openapi.js';

// Every answer type here is derived from the generated OpenAPI types (src/generated/openapi.ts), so the
// client describes exactly the document the gateway publishes; only identifiers and money change type, from
// "a JSON number or a string, depending on the answer" to always a string with the exact digits.

type Schemas = components['schemas'];

/** A wire body with `Amount` and `TransactionID` as exact strings ("101.00", "12345678901234567890123"). */
export type Exact<T> = { [K in keyof T]: K extends 'Amount' | 'TransactionID' ? string : T[K] };

// ----- what you send

/** Digits as a string or a bigint. Never a JS number: above 2^53 a number has already lost digits. */
export type Digits = string | bigint;

type MerchantRequest<T> = Omit<T, 'TransactionID' | 'Amount' | 'Account' | 'Mobile'> & {
  /** Your reference for the payout, 1 to 30 digits, unique per MID. Retries reuse it: never make a new one. */
  TransactionID: Digits;
  /** Rupees as text with at most two fraction digits: "101.50" (see rupeesFromPaise for integer paise). */
  Amount: string;
  /** 10 digits starting 6 to 9. */
  Mobile?: Digits | null;
};

/** An IMPS payout (docs/api.md, "Request members"), with identifiers and the amount as strings or bigints. */
export type ImpsPayoutRequest = MerchantRequest<Schemas['ImpsPayoutRequest']> & {
  /** The beneficiary's account number: 9 to 18 digits. */
  Account: Digits;
};

/** A UPI payout (docs/api.md, "Request members"), with identifiers and the amount as strings or bigints. */
export type UpiPayoutRequest = MerchantRequest<Schemas['UpiPayoutRequest']>;

// ----- what you get back

export type ImpsPayoutResult =
  Exact<Schemas['ImpsPayoutPending']> | Exact<Schemas['ImpsPayoutSuccess']> | Exact<Schemas['ImpsPayoutFailed']>;
export type UpiPayoutResult =
  Exact<Schemas['UpiPayoutPending']> | Exact<Schemas['UpiPayoutSuccess']> | Exact<Schemas['UpiPayoutFailed']>;
/** A payout result (docs/api.md, "Response bodies"): the answer of both payout operations and the body of a payout webhook. */
export type PayoutResult = ImpsPayoutResult | UpiPayoutResult;

/** The body of a payout found by its TransactionID (GET /api/check_payout_status): the payout, its mode and message. */
export type PayoutStatusBody = Exact<Schemas['PayoutStatus']>;
/** The earlier name of {@link PayoutStatusBody}, kept because merchants' code imports it. */
export type PayoutStatus = PayoutStatusBody;
export type PayinStatus = Exact<Schemas['CollectionStatus']>;
export type MainWallet = Schemas['MainWallet'];
/** A sponsor bank down or degraded for one mode (GET /api/downtimes, and the downtime webhooks). */
export type Downtime = Schemas['Downtime'];
export type DowntimesBody = Schemas['Downtimes'];
export type FieldError = Schemas['ValidationError']['errors'][number];

/** What every outcome carries about the answer it came from. */
export interface Answered {
  /** The HTTP status of the answer. */
  httpStatus: number;
  /** The gateway's X-Request-Id of the answer: quote it to support. */
  requestId: string | undefined;
}

/** The request was refused before anything happened (422 validation, a body the API could not read). */
export interface Invalid extends Answered {
  kind: 'invalid';
  message: string;
  /** One entry per failing member (422); empty for a body refused as a whole. */
  errors: FieldError[];
}

/** The payout's answer: a state of the payout, a conflict, or a refusal. Never thrown. */
export type PayoutOutcome<R extends PayoutResult = PayoutResult> =
  | (Answered & { kind: 'pending'; payout: Extract<R, { status: 'PENDING' }> })
  | (Answered & { kind: 'success'; payout: Extract<R, { status: 'SUCCESS' }> })
  | (Answered & {
      kind: 'failed';
      payout: Extract<R, { status: 'FAILED' }>;
      /** The reason after "MP007 - Transaction failed: ", e.g. "insufficient balance in main wallet". */
      reason: string;
    })
  | (Answered & {
      kind: 'conflict';
      /** The TransactionID is already used for a different payout (mode, beneficiary or amount). */
      TransactionID: string;
      message: string;
    })
  | Invalid;

export interface NotFound extends Answered {
  kind: 'not_found';
  /** The TransactionID asked for (absent for the wallet). */
  TransactionID?: string;
  message: string;
}

/** The payout status lookup: the payout's state, or not found. */
export type PayoutStatusOutcome =
  | (Answered & { kind: 'pending'; payout: PayoutStatusBody & { status: 'Pending' } })
  | (Answered & { kind: 'success'; payout: PayoutStatusBody & { status: 'Success' } })
  | (Answered & { kind: 'failed'; payout: PayoutStatusBody & { status: 'Failed' }; reason: string })
  | NotFound
  | Invalid;

/**
 * The answer of a cancel (POST /api/payout/cancel): `cancelled` (now, or by an earlier cancel: the payout as its
 * lookup shows it, Failed with reason_code CANCELLED_BY_MERCHANT), `already_sent` (a bank has it; nothing
 * changed), or not found. Never thrown.
 */
export type CancelPayoutOutcome =
  | (Answered & { kind: 'cancelled'; payout: PayoutStatusBody & { status: 'Failed' } })
  | (Answered & { kind: 'already_sent'; TransactionID: string; message: string })
  | NotFound
  | Invalid;

export type PayinStatusOutcome = (Answered & { kind: 'found'; payin: PayinStatus }) | NotFound | Invalid;

export type MainWalletOutcome =
  | (Answered & {
      kind: 'found';
      /** The available balance in rupees, e.g. "4765.00". */
      balance: string;
      wallet: MainWallet;
    })
  | NotFound;

/** The answer of GET /api/downtimes: the downtimes open now, oldest first (empty when none). */
export type DowntimesOutcome = Answered & { kind: 'found'; downtimes: Downtime[] };

// ----- your payouts, a page at a time (docs/api.md, "Listing payouts")

type ListQuery = NonNullable<operations['listPayouts']['parameters']['query']>;

/**
 * What listPayouts narrows your payouts to; every member optional. `from` (at or after) and `to` (before) are
 * a Date, or text the gateway reads: a date "2026-11-28" (the day from 00:00 India time) or a timestamp with
 * its offset. `limit` is how many payouts each request fetches (1 to 1 000, 100 unless given).
 */
export type PayoutListFilters = Omit<ListQuery, 'from' | 'to' | 'BatchID' | 'cursor'> & {
  from?: Date | string;
  to?: Date | string;
  /** Only the payouts of this bulk batch of yours. */
  BatchID?: Digits;
};

/** A page of your payouts: each as the status lookup shows it, newest first, and the cursor of the next page. */
export type PayoutPageOutcome =
  | (Answered & {
      kind: 'found';
      payouts: PayoutStatusBody[];
      /** Pass it to getPayoutPage, with the same filters, for the next page; null after the last page. */
      nextCursor: string | null;
    })
  | Invalid;

// ----- your main wallet's statement (docs/api.md, "Statement")

/** A page of the statement: the period, its opening and closing balances, and the page's entries. */
export type StatementBody = Schemas['Statement'];
/** One movement of the main wallet, with the balance after it (`amount` negative when money left it). */
export type StatementEntry = Schemas['StatementEntry'];

/**
 * Which statement: `from` (included) and `to` (not included), each a Date or text the gateway reads — a date
 * "2026-12-01" (the day from 00:00 India time) or a timestamp with its offset. Without both, today so far (India
 * time); without `to`, up to now. At most 93 days.
 */
export interface StatementPeriod {
  from?: Date | string;
  to?: Date | string;
}

/** A statement's period, and how many entries each request fetches (1 to 1 000, 100 unless given). */
export type StatementFilters = StatementPeriod & { limit?: number };

export type StatementPageOutcome =
  | (Answered & {
      kind: 'found';
      statement: StatementBody;
      /** Pass it to getStatementPage for the next page (it carries its period); null after the last page. */
      nextCursor: string | null;
    })
  /** You have no main wallet yet: it opens with its first credit. */
  | NotFound
  | Invalid;

/** The whole period as the gateway's CSV file (docs/api.md, "Statement"), as text. */
export type StatementCsvOutcome = (Answered & { kind: 'found'; csv: string }) | NotFound | Invalid;

// ----- your events feed (docs/api.md, "Events feed")

/**
 * One event of your feed: its `position` (a string of digits, 1, 2, 3, … in the order your events were
 * recorded), then exactly the body of the webhook that carries it — a payout result with `event` and `sequence`,
 * or a downtime with `event` and `sequence` — `Amount` and `TransactionID` as exact strings.
 */
export type FeedEvent = Exact<Schemas['FeedEvent']>;

/** Where a walk of your feed starts, and how many events each request fetches (1 to 500, 100 unless given). */
export interface EventFeedFrom {
  /** Only events after this position: the last `position` you applied; 0 (unless given) for your first event. */
  after?: Digits;
  limit?: number;
}

export type EventPageOutcome =
  | (Answered & {
      kind: 'found';
      /** Oldest first; empty when you have every event recorded so far. */
      events: FeedEvent[];
      /** Pass it as `after` for the next page: the last event's position, or the `after` sent when none came. */
      nextAfter: string;
    })
  | Invalid;

// ----- bulk payouts (docs/api.md, "Bulk payouts")

/** One payout of a batch: the request of impsPayout or upiPayout plus its `Mode`. */
export type BulkPayoutItem = (ImpsPayoutRequest & { Mode: 'IMPS' }) | (UpiPayoutRequest & { Mode: 'UPI' });

export interface BulkPayoutRequest {
  /** Your reference for the batch, 1 to 30 digits, unique per MID. Retries reuse it: never make a new one. */
  BatchID: Digits;
  /** 1 to 5 000 payouts, reserved in this order; each is a payout of its own with its own TransactionID. */
  Payouts: BulkPayoutItem[];
}

/** A batch's counts as the gateway answers them, `BatchID` as its exact digits. */
export type BulkPayoutSummary = Omit<Schemas['BulkPayoutAccepted'], 'results'>;
export type BulkPayoutStatusSummary = Omit<Schemas['BulkPayoutStatus'], 'results'>;

/** An item of a batch: what the single endpoint would have answered for it, and its position in Payouts. */
export type BulkItemOutcome = PayoutOutcome & { index: number };

/** An item of a batch as it now stands: what the status lookup would answer for it (or its refusal). */
export type BulkItemStatusOutcome = (
  Exclude<PayoutStatusOutcome, NotFound> | Extract<PayoutOutcome, { kind: 'conflict' }>
) & { index: number };

/** The batch's answer: accepted (each item with its own outcome), a conflict, or a refusal. Never thrown. */
export type BulkPayoutOutcome =
  | (Answered & { kind: 'accepted'; batch: BulkPayoutSummary; results: BulkItemOutcome[] })
  | (Answered & {
      kind: 'conflict';
      /** The BatchID is already used for a batch with different items. */
      BatchID: string;
      message: string;
    })
  | Invalid;

/** The batch lookup: each item as it now stands, or not found. */
export type BulkPayoutStatusOutcome =
  | (Answered & { kind: 'found'; batch: BulkPayoutStatusSummary; results: BulkItemStatusOutcome[] })
  | (NotFound & { BatchID?: string })
  | Invalid;

// ----- beneficiary validation (docs/api.md, "Beneficiary validation")

/** A bank account to check before paying it. */
export interface AccountValidationRequest {
  /** 9 to 18 digits. */
  Account: Digits;
  Ifsc: string;
}
export type UpiValidationRequest = Schemas['UpiValidationRequest'];

export type AccountValidation = Schemas['AccountValidation'];
export type UpiValidation = Schemas['UpiValidation'];

/**
 * The bank's verdict: `valid` with the name it holds (compare it with the name you have), or `not_valid`
 * (no such beneficiary: a payout to it would fail). `invalid` is a refused request, as everywhere.
 */
export type ValidationOutcome<V extends AccountValidation | UpiValidation> =
  | (Answered & { kind: 'valid'; registeredName: string; validation: V & { status: 'VALID' } })
  | (Answered & { kind: 'not_valid'; validation: V & { status: 'INVALID' } })
  | Invalid;

// ----- your own tokens (docs/api.md, "Token rotation")

/**
 * A rotation: `rotated` with your new token, shown this once (the token this client holds keeps working
 * until you revoke it); or `at_limit`, when you already hold two active tokens, with both tokens' prefixes.
 */
export type RotateTokenOutcome =
  | (Answered & { kind: 'rotated'; token: string; prefix: string })
  | (Answered & { kind: 'at_limit'; message: string; activePrefixes: string[] });

/**
 * A revocation: `revoked`; `not_found` (no active token of yours has that prefix); `refused`, with the
 * reason in `message` (the prefix names a token older than this client's, which only that token itself may
 * revoke, or this client's own token while you hold no other); or `invalid`.
 */
export type RevokeTokenOutcome =
  | (Answered & { kind: 'revoked'; prefix: string })
  | NotFound
  | (Answered & { kind: 'refused'; message: string })
  | Invalid;

// ----- your webhook signing secret (docs/webhooks.md, "The signing secret")

/**
 * A new signing secret: `issued` with the secret, shown this once, its prefix, and until when the secret it
 * replaced still signs beside it (null for your first); `not_found` when no webhook URL is registered yet.
 */
export type WebhookSecretOutcome =
  | (Answered & { kind: 'issued'; secret: string; prefix: string; previousValidUntil: string | null })
  /**
   * The Idempotency-Key's first request issued a secret (`prefix`), which is shown only once: fetch another with
   * a new key if you did not receive it.
   */
  | (Answered & { kind: 'issued_before'; prefix: string; message: string })
  | NotFound;
