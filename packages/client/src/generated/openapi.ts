// Generated from the merchant API's OpenAPI document (GET /openapi.json) by `pnpm client:generate`.
// Do not edit: change apps/api/src/openapi/ and regenerate. test/client/openapi-types-sync.test.ts fails
// when this file and the document disagree.
export interface paths {
  '/api/impspayout': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * IMPS payout to a bank account
     * @description Sends money from your main wallet to a bank account over IMPS. Answers 202 PENDING once the amount is reserved; poll `GET /api/check_payout_status` for the outcome. Retrying with the same TransactionID and details is safe (no second payout; the answer is the current state).
     */
    post: operations['impsPayout'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/payout': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * UPI payout to a UPI address
     * @description Sends money from your main wallet to a UPI address. Answers 202 PENDING once the amount is reserved; poll `GET /api/check_payout_status` for the outcome. Retrying with the same TransactionID and details is safe (no second payout; the answer is the current state). PENDING and SUCCESS results carry Amount and TransactionID as JSON numbers.
     */
    post: operations['upiPayout'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/payout/cancel': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Cancel a payout no bank has been sent
     * @description Withdraws a payout that is accepted and not yet taken for a bank, held through a downtime, or queued for balance: it fails with reason_code CANCELLED_BY_MERCHANT, what was reserved is back in your main wallet, and your webhook tells of it. Cancelling it again answers the same. A cancel and a worker taking the payout at the same moment are decided one after the other: exactly one wins.
     */
    post: operations['cancelPayout'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/check_payout_status': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Status of a payout
     * @description The payout sent with this TransactionID (IMPS or UPI). `status` is Pending until the bank has decided, then Success or Failed, never changing after that.
     */
    get: operations['checkPayoutStatus'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/payin/status': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Status of a pay-in (collection)
     * @description The pay-in reported to us with this TransactionID.
     */
    get: operations['payinStatus'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/checkMainWallet': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Main wallet balance
     * @description The available balance of your main wallet: credits minus payouts settled and in progress.
     */
    get: operations['checkMainWallet'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/downtimes': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Sponsor banks down or degraded now
     * @description Each sponsor bank down or degraded for a payment mode now, oldest first; empty when none. While every bank serving a mode is down, new payouts of that mode are held (Pending, "MP006 - Your transaction is held: …") and sent when one recovers, or fail with reason_code BANK_DOWNTIME past your hold window; retrying those is safe. The webhooks downtime.started and downtime.resolved carry the same members.
     */
    get: operations['downtimes'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/bulkpayout': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Up to 5000 payouts in one request
     * @description Each item (`BulkImpsItem` or `BulkUpiItem`: a single payout body plus `Mode`) is a payout of its own, judged and reserved in order exactly as if sent alone; `results[i]` is what the single endpoint would answer. The same BatchID and items again answers the batch as it now stands; different items, 409. The body may be up to 8 MiB.
     */
    post: operations['bulkPayout'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/bulkpayout/status': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Status of a batch
     * @description The batch sent with this BatchID, with the counts by status and each item as it now stands.
     */
    get: operations['bulkPayoutStatus'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/validate/account': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Check a bank account before paying it
     * @description Asks the bank whether a bank account exists and in whose name (a penny-less check: no money moves). Verdicts are cached for a while per beneficiary. 503 when the bank does not answer in time; asking again is safe.
     */
    post: operations['validateAccount'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/validate/upi': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Check a UPI address before paying it
     * @description Asks the bank whether a UPI address exists and in whose name (a penny-less check: no money moves). Verdicts are cached for a while per beneficiary. 503 when the bank does not answer in time; asking again is safe.
     */
    post: operations['validateUpi'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/token/rotate': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Get a new token, keeping the current one until you revoke it
     * @description Authenticated by a token you hold. Answers a new token once (only its digest is kept). Both tokens work until you revoke the old one with POST /api/token/revoke, sent with the old one itself. You hold at most two active tokens: at two, this is 409 and no token is made.
     */
    post: operations['rotateToken'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/token/revoke': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Revoke one of your tokens by its prefix
     * @description A token revokes itself, while you hold another, or a token newer than itself; never an older one, so a token rotated from a leaked one cannot take your original away. The token stops working at once on the server that answers, and everywhere within a few seconds.
     */
    post: operations['revokeToken'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/webhook/secret': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Get a new signing secret for your webhooks
     * @description Authenticated by a token you hold. Answers a new signing secret once, to you only: nobody at the gateway sees it. The secret it replaces keeps signing deliveries, as a second signature, for 24 hours. A webhook URL our staff registered for you holds its deliveries until you fetch your first secret; they are sent once you have, none lost.
     */
    post: operations['rotateWebhookSecret'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/payouts': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Your payouts, newest first, a page at a time
     * @description Your payouts (IMPS and UPI, single and bulk), newest first by the time each was accepted, each exactly as GET /api/check_payout_status shows it. Narrow them with any of the filters; page with `cursor`: send the page's `next_cursor` back with the same filters until it is null. Pages never shift: payouts accepted while you page are not slipped into the pages still to come, nor do they push one payout onto two pages. A parameter not listed here, or given twice, is refused (422), as is a cursor sent with other filters.
     */
    get: operations['listPayouts'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/events': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Every event your webhooks carry, in order, from a position
     * @description Every event a webhook tells you of — payout.success, payout.failed, payout.reversed, downtime.started, downtime.resolved — whether or not it could be delivered to you, oldest first. Each is its `position` in your feed, then exactly the members of its webhook, with the same `sequence`. Read from `after=0`, then send each page's `next_after` back as `after`; a page shorter than `limit` means you are up to date. An event appears once every event before it has appeared, so continuing from a position never skips one. A parameter not listed here, or given twice, is refused (422).
     */
    get: operations['events'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/statement': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Your main wallet statement for a period
     * @description Every movement of your main wallet in a period, oldest first, with the balance after each: payouts accepted (their amount taken), payouts failed or reversed (their amount back), credits and pay-ins. The balance is the one GET /api/checkMainWallet shows: opening_balance plus the entries of the period is closing_balance, and without `to` the closing balance is that lookup. The period is today (India time) so far unless given, at most 93 days. Page with `cursor`: send the page's `next_cursor` back until it is null. `format=csv` answers the whole period as one CSV file instead. A parameter not listed here, or given twice, is refused (422), as is a cursor of another period.
     */
    get: operations['statement'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
}
export interface webhooks {
  payout: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * A payout reached its result, or was reversed
     * @description The payout result as the API answers it now, then `event` and `sequence` (per payout).
     */
    post: operations['payoutWebhook'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  downtime: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * A sponsor bank went down for a mode, or recovered
     * @description Sent to every merchant with an enabled webhook endpoint when a downtime starts (`downtime.started`) and when it is resolved (`downtime.resolved`). `sequence` rises with each downtime event sent to you: keep the highest applied per bank and mode.
     */
    post: operations['downtimeWebhook'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
}
export interface components {
  schemas: {
    /** @description An IMPS payout in progress. */
    ImpsPayoutPending: {
      /** @enum {boolean} */
      error: false;
      /** @enum {number} */
      status_code: 202;
      /** @enum {string} */
      status: 'PENDING';
      /**
       * @description The beneficiary's account number, as you sent it.
       * @example 123456789012
       */
      account: string;
      /**
       * @description The IFSC, upper case.
       * @example HDFC0001234
       */
      ifsc: string;
      /**
       * @description Rupees, always with two fraction digits.
       * @example 101.00
       */
      Amount: string;
      /**
       * @description The bank reference (UTR): empty until the payout succeeds.
       * @enum {string}
       */
      Bankriff: '';
      /**
       * @description Our reference for the payout, assigned when it is accepted; also the reference sent to the bank.
       * @example 06F3K9Q2ZC4M7XR1B8TD
       */
      Ack_no: string;
      /**
       * @description The TransactionID you sent, digit for digit.
       * @example 20240601000123
       */
      TransactionID: string;
      /** @description MP006: in progress, queued until the main wallet holds enough (for a merchant who opted in), held while no bank serves its mode (sent when one recovers), or scheduled for the time the merchant chose. */
      message:
        | (
            | 'MP006 - Your transaction is in progress'
            | 'MP006 - Your transaction is queued: insufficient balance in main wallet'
            | 'MP006 - Your transaction is held: the bank for this mode is down; it will be sent when it recovers'
          )
        | `MP006 - Your transaction is scheduled for ${string}`;
    };
    /** @description An IMPS payout that has succeeded. */
    ImpsPayoutSuccess: {
      /** @enum {boolean} */
      error: false;
      /** @enum {number} */
      status_code: 200;
      /** @enum {string} */
      status: 'SUCCESS';
      /**
       * @description The beneficiary's account number, as you sent it.
       * @example 123456789012
       */
      account: string;
      /**
       * @description The IFSC, upper case.
       * @example HDFC0001234
       */
      ifsc: string;
      /**
       * @description Rupees, always with two fraction digits.
       * @example 101.00
       */
      Amount: string;
      /**
       * @description The bank's reference (UTR) for the transfer.
       * @example 412345678901
       */
      Bankriff: string;
      /**
       * @description Our reference for the payout, assigned when it is accepted; also the reference sent to the bank.
       * @example 06F3K9Q2ZC4M7XR1B8TD
       */
      Ack_no: string;
      /**
       * @description The TransactionID you sent, digit for digit.
       * @example 20240601000123
       */
      TransactionID: string;
      /** @enum {string} */
      message: 'MP00 - Transaction successful';
    };
    /** @description An IMPS payout that has failed; the amount is back in the main wallet. */
    ImpsPayoutFailed: {
      /** @enum {boolean} */
      error: true;
      /** @enum {number} */
      status_code: 400;
      /** @enum {string} */
      status: 'FAILED';
      /**
       * @description The beneficiary's account number, as you sent it.
       * @example 123456789012
       */
      account: string;
      /**
       * @description The IFSC, upper case.
       * @example HDFC0001234
       */
      ifsc: string;
      /**
       * @description Rupees, always with two fraction digits.
       * @example 101.00
       */
      Amount: string;
      /**
       * @description Empty, except for a payout reversed after success, which keeps the UTR of its payment.
       * @example
       * @example 412345678901
       */
      Bankriff: string;
      /**
       * @description Our reference for the payout, assigned when it is accepted; also the reference sent to the bank.
       * @example 06F3K9Q2ZC4M7XR1B8TD
       */
      Ack_no: string;
      /**
       * @description The TransactionID you sent, digit for digit.
       * @example 20240601000123
       */
      TransactionID: string;
      /**
       * @description MP007 followed by the reason, one of a fixed list.
       * @example MP007 - Transaction failed: insufficient balance in main wallet
       * @enum {string}
       */
      message:
        | 'MP007 - Transaction failed: insufficient balance in main wallet'
        | 'MP007 - Transaction failed: invalid beneficiary account'
        | 'MP007 - Transaction failed: invalid UPI address'
        | 'MP007 - Transaction failed: declined by beneficiary bank'
        | 'MP007 - Transaction failed: rail rejected'
        | 'MP007 - Transaction failed: reversed by beneficiary bank'
        | 'MP007 - Transaction failed: bank downtime; retrying is safe'
        | 'MP007 - Transaction failed: cancelled by you';
    };
    /** @description A UPI payout in progress. Amount and TransactionID are JSON numbers. */
    UpiPayoutPending: {
      /** @enum {boolean} */
      error: false;
      /** @enum {number} */
      status_code: 202;
      /** @enum {string} */
      status: 'PENDING';
      /**
       * @description The UPI address paid, as you sent it.
       * @example asha.kumar@okhdfc
       */
      account: string;
      /**
       * @description Rupees as a JSON number literal written with two fraction digits, e.g. 101.00 (exact, never rounded).
       * @example 101
       */
      Amount: number;
      /**
       * @description The bank reference (UTR): empty until the payout succeeds.
       * @enum {string}
       */
      Bankriff: '';
      /**
       * @description Our reference for the payout, assigned when it is accepted; also the reference sent to the bank.
       * @example 06F3K9Q2ZC4M7XR1B8TD
       */
      Ack_no: string;
      /**
       * @description The TransactionID you sent, as a JSON number with exactly its digits (23 digits stay 23 digits: parse it losslessly); one with leading zeros, which only a string can carry, comes back as that string.
       * @example 20240601000123
       */
      TransactionID: number | string;
      /** @description MP006: in progress, queued until the main wallet holds enough (for a merchant who opted in), held while no bank serves its mode (sent when one recovers), or scheduled for the time the merchant chose. */
      message:
        | (
            | 'MP006 - Your transaction is in progress'
            | 'MP006 - Your transaction is queued: insufficient balance in main wallet'
            | 'MP006 - Your transaction is held: the bank for this mode is down; it will be sent when it recovers'
          )
        | `MP006 - Your transaction is scheduled for ${string}`;
    };
    /** @description A UPI payout that has succeeded. Amount and TransactionID are JSON numbers. */
    UpiPayoutSuccess: {
      /** @enum {boolean} */
      error: false;
      /** @enum {number} */
      status_code: 200;
      /** @enum {string} */
      status: 'SUCCESS';
      /**
       * @description The UPI address paid, as you sent it.
       * @example asha.kumar@okhdfc
       */
      account: string;
      /**
       * @description Rupees as a JSON number literal written with two fraction digits, e.g. 101.00 (exact, never rounded).
       * @example 101
       */
      Amount: number;
      /**
       * @description The bank's reference (UTR) for the transfer.
       * @example 412345678901
       */
      Bankriff: string;
      /**
       * @description Our reference for the payout, assigned when it is accepted; also the reference sent to the bank.
       * @example 06F3K9Q2ZC4M7XR1B8TD
       */
      Ack_no: string;
      /**
       * @description The TransactionID you sent, as a JSON number with exactly its digits (23 digits stay 23 digits: parse it losslessly); one with leading zeros, which only a string can carry, comes back as that string.
       * @example 20240601000123
       */
      TransactionID: number | string;
      /** @enum {string} */
      message: 'MP00 - Transaction successful';
    };
    /** @description A UPI payout that has failed; the amount is back in the main wallet. Amount and TransactionID are strings. */
    UpiPayoutFailed: {
      /** @enum {boolean} */
      error: true;
      /** @enum {number} */
      status_code: 400;
      /** @enum {string} */
      status: 'FAILED';
      /**
       * @description The UPI address paid, as you sent it.
       * @example asha.kumar@okhdfc
       */
      account: string;
      /**
       * @description Rupees, always with two fraction digits.
       * @example 101.00
       */
      Amount: string;
      /**
       * @description Empty, except for a payout reversed after success, which keeps the UTR of its payment.
       * @example
       * @example 412345678901
       */
      Bankriff: string;
      /**
       * @description Our reference for the payout, assigned when it is accepted; also the reference sent to the bank.
       * @example 06F3K9Q2ZC4M7XR1B8TD
       */
      Ack_no: string;
      /**
       * @description The TransactionID you sent, digit for digit.
       * @example 20240601000123
       */
      TransactionID: string;
      /**
       * @description MP007 followed by the reason, one of a fixed list.
       * @example MP007 - Transaction failed: insufficient balance in main wallet
       * @enum {string}
       */
      message:
        | 'MP007 - Transaction failed: insufficient balance in main wallet'
        | 'MP007 - Transaction failed: invalid beneficiary account'
        | 'MP007 - Transaction failed: invalid UPI address'
        | 'MP007 - Transaction failed: declined by beneficiary bank'
        | 'MP007 - Transaction failed: rail rejected'
        | 'MP007 - Transaction failed: reversed by beneficiary bank'
        | 'MP007 - Transaction failed: bank downtime; retrying is safe'
        | 'MP007 - Transaction failed: cancelled by you';
    };
    /** @description A bank downtime started or resolved: the downtime as GET /api/downtimes shows it, then event and sequence. */
    DowntimeWebhook: {
      /** @enum {string} */
      mode: 'IMPS' | 'UPI';
      /**
       * @description The alias of the sponsor bank, as a payout lookup names it (never an account).
       * @example primary
       */
      bank: string;
      /**
       * Format: date-time
       * @description When the downtime began, in UTC (ISO 8601).
       * @example 2026-11-28T09:15:00.000Z
       */
      since: string;
      /**
       * @description DOWN: the bank is out of routing for the mode; DEGRADED: it still serves it, below par.
       * @enum {string}
       */
      status: 'DOWN' | 'DEGRADED';
      /** @enum {string} */
      event: 'downtime.started' | 'downtime.resolved';
      /** @description Rises with each downtime event sent to you, whatever the bank and mode: keep the highest applied per bank and mode, and drop one that is not higher. */
      sequence: number;
    };
    /** @description The MID is not well formed (1 to 64 of A-Z a-z 0-9 _ -), or the merchant is suspended. */
    InvalidMid: {
      /** @enum {boolean} */
      error: true;
      /** @enum {number} */
      status_code: 400;
      /** @enum {string} */
      status: 'FAILED';
      /** @enum {string} */
      message: 'Please Input Valid MID';
    };
    /** @description The body is not a JSON object (not JSON, not UTF-8, duplicate keys with different values, nested deeper than 32 levels). */
    BadRequestBody: {
      /** @enum {boolean} */
      error: true;
      /** @enum {number} */
      status_code: 400;
      /** @enum {string} */
      status: 'BAD REQUEST';
      /** @enum {string} */
      message: 'The request body must be a JSON object.';
    };
    /** @description The Idempotency-Key is empty, longer than 255, has a character outside visible ASCII, or was sent twice. Nothing changed. */
    IdempotencyKeyMalformed: {
      /** @enum {boolean} */
      error: true;
      /** @enum {number} */
      status_code: 400;
      /** @enum {string} */
      status: 'BAD REQUEST';
      /** @enum {string} */
      message: 'Idempotency-Key must be 1 to 255 visible ASCII characters.';
    };
    /** @description MID or Token missing, unknown, or not matching each other; or sent from an address outside your IP allow-list. */
    Unauthorized: {
      /** @enum {boolean} */
      error: true;
      /** @enum {number} */
      status_code: 401;
      /** @enum {string} */
      status: 'UNAUTHORIZED';
      /** @enum {string} */
      message: 'Authentication credentials are missing or invalid. Please provide valid credentials to access the resource.';
    };
    /** @description The TransactionID is already used for a payout with a different mode, beneficiary or amount. Nothing changed. */
    TransactionIdConflict: {
      /** @enum {boolean} */
      error: true;
      /** @enum {number} */
      status_code: 409;
      /** @enum {string} */
      status: 'CONFLICT';
      /** @example TransactionID 20240601000123 is already used for a different payout */
      message: string;
      /**
       * @description The TransactionID you sent, digit for digit.
       * @example 20240601000123
       */
      TransactionID: string;
    };
    /** @description The first request with this Idempotency-Key is still running. Retry later with the same key. */
    IdempotencyKeyInProgress: {
      /** @enum {boolean} */
      error: true;
      /** @enum {number} */
      status_code: 409;
      /** @enum {string} */
      status: 'CONFLICT';
      /** @enum {string} */
      message: 'A request with this Idempotency-Key is still in progress; retry later.';
    };
    /** @description The body is over 16 KiB. */
    PayloadTooLarge: {
      /** @enum {boolean} */
      error: true;
      /** @enum {number} */
      status_code: 413;
      /** @enum {string} */
      status: 'PAYLOAD TOO LARGE';
      /** @enum {string} */
      message: 'The request body must not exceed 16 KiB.';
    };
    /** @description The request is not sent with Content-Type: application/json. */
    UnsupportedMediaType: {
      /** @enum {boolean} */
      error: true;
      /** @enum {number} */
      status_code: 415;
      /** @enum {string} */
      status: 'UNSUPPORTED MEDIA TYPE';
      /** @enum {string} */
      message: 'Content-Type must be application/json.';
    };
    /** @description One entry in `errors` per failing member. */
    ValidationError: {
      /** @enum {boolean} */
      error: true;
      /** @enum {number} */
      status_code: 422;
      /** @enum {string} */
      status: 'VALIDATION ERROR';
      message: string;
      errors: {
        /** @example Ifsc */
        field: string;
        /** @example Ifsc must be 4 letters, a zero, then 6 letters or digits */
        message: string;
      }[];
    };
    /** @description This Idempotency-Key was sent with another method, path or body within 24 hours. Nothing changed. */
    IdempotencyKeyReused: {
      /** @enum {boolean} */
      error: true;
      /** @enum {number} */
      status_code: 422;
      /** @enum {string} */
      status: 'VALIDATION ERROR';
      /** @enum {string} */
      message: 'This Idempotency-Key was used with another request.';
      errors: {
        /** @enum {string} */
        field: 'Idempotency-Key';
        /** @enum {string} */
        message: 'This Idempotency-Key was used with another request.';
      }[];
    };
    /** @description Too many requests for this MID; wait as long as Retry-After says. */
    TooManyRequests: {
      /** @enum {boolean} */
      error: true;
      /** @enum {number} */
      status_code: 429;
      /** @enum {string} */
      status: 'TOO MANY REQUESTS';
      message: string;
    };
    /** @description Anything unexpected; the detail is only in our log, under the X-Request-Id of the answer. */
    InternalServerError: {
      /** @enum {boolean} */
      error: true;
      /** @enum {number} */
      status_code: 500;
      /** @enum {string} */
      status: 'INTERNAL SERVER ERROR';
      /** @enum {string} */
      message: 'Something went wrong on our side. Please retry later or contact support.';
    };
    /** @description A dependency is down. Retrying with the same TransactionID is safe. */
    ServiceUnavailable: {
      /** @enum {boolean} */
      error: true;
      /** @enum {number} */
      status_code: 503;
      /** @enum {string} */
      status: 'SERVICE UNAVAILABLE';
      /** @enum {string} */
      message: 'The service is temporarily unavailable. Please retry with the same TransactionID.';
    };
    /** @description A bank transfer over IMPS. Members not listed are ignored. */
    ImpsPayoutRequest: {
      /**
       * @description Your own reference for this payout, unique per MID across IMPS and UPI: 1 to 30 digits, as a JSON number or a string, kept digit for digit (a 23-digit number keeps every digit). Sending the same TransactionID again with the same details is safe: it answers the existing payout instead of making a second one.
       * @example 20240601000123
       * @example 20240601000123
       */
      TransactionID: string | number;
      /**
       * @description Rupees, as a JSON number or a numeric string: a plain decimal (no sign, exponent or leading zeros) with at most two fraction digits, from 1.00 to 500000.00 or the merchant's own lower limit. Read from its text, never as a float: 101.5 and "101.50" are the same amount.
       * @example 101.00
       * @example 101.5
       */
      Amount: string | number;
      /**
       * @description The beneficiary's bank account number: 9 to 18 digits, as a JSON number or a string.
       * @example 123456789012
       */
      Account: string | number;
      /**
       * @description The IFSC of the beneficiary's branch: 4 letters, a zero, then 6 letters or digits (upper-cased first).
       * @example HDFC0001234
       */
      Ifsc: string;
      /**
       * @description The beneficiary's name: 1 to 100 characters after trimming, printable, no control characters.
       * @example Asha Kumar
       */
      Name: string;
      /**
       * @description The beneficiary's bank, for your records: 1 to 100 characters. Optional: absent, null and "" all mean not given.
       * @example HDFC Bank
       */
      BankName?: string | null;
      /**
       * @description The beneficiary's mobile number: 10 digits starting with 6 to 9, as a JSON number or a string. Optional: absent, null and "" all mean not given.
       * @example 9876543210
       */
      Mobile?: string | number | null;
      /**
       * @description The beneficiary's e-mail address. Optional: absent, null and "" all mean not given.
       * @example asha@example.com
       */
      Email?: string | null;
      /**
       * @description Free text for your records: at most 255 characters; line breaks allowed, other control characters not. Optional: absent, null and "" all mean not given.
       * @example Salary June
       */
      Description?: string | null;
      /**
       * Format: date-time
       * @description When to send the payout, as an ISO 8601 time with an offset (Z or ±hh:mm): at least one minute and at most 90 days after it is accepted. It is accepted and reserved at once, answered PENDING "MP006 - Your transaction is scheduled for <IST time>", and sent to the bank at that minute, not before; it can be cancelled until then. Optional: absent, null and "" all mean not given.
       * @example 2026-12-24T10:00:00+05:30
       */
      ScheduledAt?: string | null;
    };
    /** @description A transfer to a UPI address. Members not listed are ignored. */
    UpiPayoutRequest: {
      /**
       * @description Your own reference for this payout, unique per MID across IMPS and UPI: 1 to 30 digits, as a JSON number or a string, kept digit for digit (a 23-digit number keeps every digit). Sending the same TransactionID again with the same details is safe: it answers the existing payout instead of making a second one.
       * @example 20240601000123
       * @example 20240601000123
       */
      TransactionID: string | number;
      /**
       * @description Rupees, as a JSON number or a numeric string: a plain decimal (no sign, exponent or leading zeros) with at most two fraction digits, from 1.00 to 100000.00 or the merchant's own lower limit. Read from its text, never as a float: 101.5 and "101.50" are the same amount.
       * @example 101.00
       * @example 101.5
       */
      Amount: string | number;
      /**
       * @description The UPI address to pay, such as name@bank.
       * @example asha.kumar@okhdfc
       */
      Upi: string;
      /**
       * @description The beneficiary's name: 1 to 100 characters after trimming, printable, no control characters.
       * @example Asha Kumar
       */
      Name: string;
      /**
       * @description The beneficiary's mobile number: 10 digits starting with 6 to 9, as a JSON number or a string. Optional: absent, null and "" all mean not given.
       * @example 9876543210
       */
      Mobile?: string | number | null;
      /**
       * @description The beneficiary's e-mail address. Optional: absent, null and "" all mean not given.
       * @example asha@example.com
       */
      Email?: string | null;
      /**
       * @description Free text for your records: at most 255 characters; line breaks allowed, other control characters not. Optional: absent, null and "" all mean not given.
       * @example Salary June
       */
      Description?: string | null;
      /**
       * Format: date-time
       * @description When to send the payout, as an ISO 8601 time with an offset (Z or ±hh:mm): at least one minute and at most 90 days after it is accepted. It is accepted and reserved at once, answered PENDING "MP006 - Your transaction is scheduled for <IST time>", and sent to the bank at that minute, not before; it can be cancelled until then. Optional: absent, null and "" all mean not given.
       * @example 2026-12-24T10:00:00+05:30
       */
      ScheduledAt?: string | null;
    };
    /** @description A payout found by its TransactionID, with its mode and message. */
    PayoutStatus: {
      /** @enum {boolean} */
      error: false;
      /** @enum {number} */
      status_code: 200;
      /**
       * @description Capitalised as this lookup does. Pending covers every state that is not final.
       * @enum {string}
       */
      status: 'Pending' | 'Success' | 'Failed';
      /**
       * @description The account number (IMPS) or UPI address (UPI).
       * @example 123456789012
       */
      account: string;
      /**
       * @description The IFSC for IMPS; "" for UPI.
       * @example HDFC0001234
       */
      ifsc: string;
      /**
       * @description Rupees, always with two fraction digits.
       * @example 101.00
       */
      Amount: string;
      /**
       * @description The bank reference (UTR); "" unless Success, or Failed after a reversal (the original UTR).
       * @example 412345678901
       */
      Bankriff: string;
      /**
       * @description Our reference for the payout, assigned when it is accepted; also the reference sent to the bank.
       * @example 06F3K9Q2ZC4M7XR1B8TD
       */
      Ack_no: string;
      /**
       * @description The TransactionID you sent, digit for digit.
       * @example 20240601000123
       */
      TransactionID: string;
      /** @enum {string} */
      mode: 'IMPS' | 'UPI';
      /** @description The result code and its text, as in the payout result. */
      message:
        | (
            | 'MP006 - Your transaction is in progress'
            | 'MP006 - Your transaction is queued: insufficient balance in main wallet'
            | 'MP006 - Your transaction is held: the bank for this mode is down; it will be sent when it recovers'
            | 'MP00 - Transaction successful'
            | 'MP007 - Transaction failed: insufficient balance in main wallet'
            | 'MP007 - Transaction failed: invalid beneficiary account'
            | 'MP007 - Transaction failed: invalid UPI address'
            | 'MP007 - Transaction failed: declined by beneficiary bank'
            | 'MP007 - Transaction failed: rail rejected'
            | 'MP007 - Transaction failed: reversed by beneficiary bank'
            | 'MP007 - Transaction failed: bank downtime; retrying is safe'
            | 'MP007 - Transaction failed: cancelled by you'
          )
        | `MP006 - Your transaction is scheduled for ${string}`;
      /**
       * @description The alias of the sponsor bank the payout was sent to (never its account); absent until it is sent.
       * @example primary
       */
      bank?: string;
      /**
       * @description Why a Failed payout failed, machine-readable; absent unless Failed.
       * @example BANK_DOWNTIME
       * @enum {string}
       */
      reason_code?:
        | 'INSUFFICIENT_BALANCE'
        | 'INVALID_BENEFICIARY_ACCOUNT'
        | 'INVALID_UPI_ADDRESS'
        | 'DECLINED_BY_BENEFICIARY_BANK'
        | 'RAIL_REJECTED'
        | 'REVERSED_BY_BENEFICIARY_BANK'
        | 'BANK_DOWNTIME'
        | 'CANCELLED_BY_MERCHANT';
      /** @description With reason_code: true when sending the same payout again, under a new TransactionID, is safe and may go through (nothing was paid; the cause was passing). */
      retryable?: boolean;
    };
    /** @description No transaction of yours has this TransactionID. */
    TransactionNotFound: {
      /** @enum {boolean} */
      error: true;
      /** @enum {number} */
      status_code: 404;
      /** @enum {string} */
      status: 'NOT FOUND';
      /** @enum {string} */
      message: 'Transaction not found, Please Contact the Administrator.';
      /**
       * @description The TransactionID you sent, digit for digit.
       * @example 20240601000123
       */
      TransactionID: string;
    };
    /** @description The payout was sent to a bank already (or settled another way), so it can no longer be cancelled. Nothing changed. */
    PayoutAlreadySent: {
      /** @enum {boolean} */
      error: true;
      /** @enum {number} */
      status_code: 409;
      /** @enum {string} */
      status: 'CONFLICT';
      /** @enum {string} */
      message: 'The payout was already sent to a bank, so it can no longer be cancelled.';
      /**
       * @description The TransactionID you sent, digit for digit.
       * @example 20240601000123
       */
      TransactionID: string;
    };
    /** @description The payout to cancel. Members not listed are ignored. */
    CancelPayoutRequest: {
      /**
       * @description The TransactionID you sent the payout with: 1 to 30 digits, as a JSON number or a string.
       * @example 20240601000123
       * @example 20240601000123
       */
      TransactionID: string | number;
    };
    /** @description A pay-in (collection) found by its TransactionID. */
    CollectionStatus: {
      /** @enum {boolean} */
      error: false;
      /** @enum {number} */
      status_code: 200;
      /**
       * @description Upper case in this lookup.
       * @enum {string}
       */
      status: 'SUCCESS' | 'PENDING' | 'FAILED';
      /** @enum {string} */
      mode: 'INTENT' | 'COLLECT' | 'QR';
      /**
       * @description The payer's UPI address; may be "" for INTENT.
       * @example payer@okicici
       */
      account: string;
      /**
       * @description Rupees, always with two fraction digits.
       * @example 101.00
       */
      Amount: string;
      /**
       * @description The bank reference.
       * @example 412345678901
       */
      Bankriff: string;
      /** @example 06F3K9Q2ZC4M7XR1B8TD */
      Ack_no: string;
      /**
       * @description The TransactionID you sent, digit for digit.
       * @example 20240601000123
       */
      TransactionID: string;
    };
    /** @description The main wallet. */
    MainWallet: {
      /** @enum {boolean} */
      error: false;
      /** @enum {number} */
      status_code: 200;
      /** @enum {string} */
      status: 'Success';
      /**
       * @description The available balance in rupees: credits minus payouts settled and payouts still in progress.
       * @example 4765.00
       */
      mainwallet: string;
      /** @enum {string} */
      message: 'Success.';
    };
    /** @description The MID is not well formed (1 to 64 of A-Z a-z 0-9 _ -), or the merchant is suspended. */
    InvalidMidWallet: {
      /** @enum {boolean} */
      error: true;
      /** @enum {number} */
      status_code: 400;
      /** @enum {string} */
      status: 'BAD REQUEST';
      /** @enum {string} */
      message: 'Please Input Valid MID';
    };
    /** @description PayoutType is missing or not Main_Wallet_Balance. */
    InvalidPayoutType: {
      /** @enum {boolean} */
      error: true;
      /** @enum {number} */
      status_code: 400;
      /** @enum {string} */
      status: 'BAD REQUEST';
      /** @enum {string} */
      message: 'Something went wrong, please input valid payout type';
    };
    /** @description Your main wallet has never been funded. */
    WalletNotFound: {
      /** @enum {boolean} */
      error: true;
      /** @enum {number} */
      status_code: 404;
      /** @enum {string} */
      status: 'NOT FOUND';
      /** @enum {string} */
      message: 'Data not found, please contact administrative !!.';
    };
    /** @description The sponsor banks down or degraded now, per mode. */
    Downtimes: {
      /** @enum {boolean} */
      error: false;
      /** @enum {number} */
      status_code: 200;
      /** @enum {string} */
      status: 'Success';
      /** @description The downtimes open now, oldest first; empty when none. */
      downtimes: components['schemas']['Downtime'][];
    };
    /** @description A sponsor bank down or degraded for one payment mode. */
    Downtime: {
      /** @enum {string} */
      mode: 'IMPS' | 'UPI';
      /**
       * @description The alias of the sponsor bank, as a payout lookup names it (never an account).
       * @example primary
       */
      bank: string;
      /**
       * Format: date-time
       * @description When the downtime began, in UTC (ISO 8601).
       * @example 2026-11-28T09:15:00.000Z
       */
      since: string;
      /**
       * @description DOWN: the bank is out of routing for the mode; DEGRADED: it still serves it, below par.
       * @enum {string}
       */
      status: 'DOWN' | 'DEGRADED';
    };
    /** @description The batch as it now stands, one result per item in order. */
    BulkPayoutAccepted: {
      /** @enum {boolean} */
      error: false;
      /** @enum {number} */
      status_code: 202;
      /** @enum {string} */
      status: 'ACCEPTED';
      /** @description Your BatchID, digit for digit. */
      BatchID: string;
      /** @description Items in the batch. */
      total: number;
      /** @description Items whose payout is in progress or paid (PENDING or SUCCESS). */
      accepted: number;
      /** @description Items whose payout failed (MP007), such as one that did not fit the balance. */
      failed: number;
      /** @description Items refused before a payout existed (422, 409 or 400): nothing was recorded for them. */
      rejected: number;
      message: string;
      results: ((
        | components['schemas']['ImpsPayoutPending']
        | components['schemas']['ImpsPayoutSuccess']
        | components['schemas']['ImpsPayoutFailed']
        | components['schemas']['UpiPayoutPending']
        | components['schemas']['UpiPayoutSuccess']
        | components['schemas']['UpiPayoutFailed']
        | components['schemas']['ValidationError']
        | components['schemas']['TransactionIdConflict']
        | components['schemas']['BadRequestBody']
      ) & {
        /** @description The item's position in Payouts, from 0. */
        index: number;
      })[];
    };
    /** @description The BatchID is already used for a batch with different items. Nothing changed. */
    BatchIdConflict: {
      /** @enum {boolean} */
      error: true;
      /** @enum {number} */
      status_code: 409;
      /** @enum {string} */
      status: 'CONFLICT';
      /** @example BatchID 20240601 is already used for a different batch */
      message: string;
      BatchID: string;
    };
    /** @description Body over 8 MiB. */
    BulkPayloadTooLarge: {
      /** @enum {boolean} */
      error: true;
      /** @enum {number} */
      status_code: 413;
      /** @enum {string} */
      status: 'PAYLOAD TOO LARGE';
      message: string;
    };
    /** @description A batch of payouts. */
    BulkPayoutRequest: {
      /**
       * @description Your own reference for this batch, unique per MID: 1 to 30 digits, as a JSON number or a string, kept digit for digit. Sending the same BatchID again with the same items answers the batch as it now stands; with different items it is refused (409).
       * @example 20240601
       */
      BatchID: string | number;
      /** @description 1 to 5000 payouts, reserved in this order. Each is the body of POST /api/impspayout or POST /api/payout plus `Mode`, and is judged exactly as if it had been sent alone. */
      Payouts: (components['schemas']['BulkImpsItem'] | components['schemas']['BulkUpiItem'])[];
    };
    /** @description An IMPS payout in a batch: the body of POST /api/impspayout plus Mode. */
    BulkImpsItem: {
      /**
       * @description Your own reference for this payout, unique per MID across IMPS and UPI: 1 to 30 digits, as a JSON number or a string, kept digit for digit (a 23-digit number keeps every digit). Sending the same TransactionID again with the same details is safe: it answers the existing payout instead of making a second one.
       * @example 20240601000123
       * @example 20240601000123
       */
      TransactionID: string | number;
      /**
       * @description Rupees, as a JSON number or a numeric string: a plain decimal (no sign, exponent or leading zeros) with at most two fraction digits, from 1.00 to 500000.00 or the merchant's own lower limit. Read from its text, never as a float: 101.5 and "101.50" are the same amount.
       * @example 101.00
       * @example 101.5
       */
      Amount: string | number;
      /**
       * @description The beneficiary's bank account number: 9 to 18 digits, as a JSON number or a string.
       * @example 123456789012
       */
      Account: string | number;
      /**
       * @description The IFSC of the beneficiary's branch: 4 letters, a zero, then 6 letters or digits (upper-cased first).
       * @example HDFC0001234
       */
      Ifsc: string;
      /**
       * @description The beneficiary's name: 1 to 100 characters after trimming, printable, no control characters.
       * @example Asha Kumar
       */
      Name: string;
      /**
       * @description The beneficiary's bank, for your records: 1 to 100 characters. Optional: absent, null and "" all mean not given.
       * @example HDFC Bank
       */
      BankName?: string | null;
      /**
       * @description The beneficiary's mobile number: 10 digits starting with 6 to 9, as a JSON number or a string. Optional: absent, null and "" all mean not given.
       * @example 9876543210
       */
      Mobile?: string | number | null;
      /**
       * @description The beneficiary's e-mail address. Optional: absent, null and "" all mean not given.
       * @example asha@example.com
       */
      Email?: string | null;
      /**
       * @description Free text for your records: at most 255 characters; line breaks allowed, other control characters not. Optional: absent, null and "" all mean not given.
       * @example Salary June
       */
      Description?: string | null;
      /**
       * Format: date-time
       * @description When to send the payout, as an ISO 8601 time with an offset (Z or ±hh:mm): at least one minute and at most 90 days after it is accepted. It is accepted and reserved at once, answered PENDING "MP006 - Your transaction is scheduled for <IST time>", and sent to the bank at that minute, not before; it can be cancelled until then. Optional: absent, null and "" all mean not given.
       * @example 2026-12-24T10:00:00+05:30
       */
      ScheduledAt?: string | null;
      /** @enum {string} */
      Mode: 'IMPS';
    };
    /** @description A UPI payout in a batch: the body of POST /api/payout plus Mode. */
    BulkUpiItem: {
      /**
       * @description Your own reference for this payout, unique per MID across IMPS and UPI: 1 to 30 digits, as a JSON number or a string, kept digit for digit (a 23-digit number keeps every digit). Sending the same TransactionID again with the same details is safe: it answers the existing payout instead of making a second one.
       * @example 20240601000123
       * @example 20240601000123
       */
      TransactionID: string | number;
      /**
       * @description Rupees, as a JSON number or a numeric string: a plain decimal (no sign, exponent or leading zeros) with at most two fraction digits, from 1.00 to 100000.00 or the merchant's own lower limit. Read from its text, never as a float: 101.5 and "101.50" are the same amount.
       * @example 101.00
       * @example 101.5
       */
      Amount: string | number;
      /**
       * @description The UPI address to pay, such as name@bank.
       * @example asha.kumar@okhdfc
       */
      Upi: string;
      /**
       * @description The beneficiary's name: 1 to 100 characters after trimming, printable, no control characters.
       * @example Asha Kumar
       */
      Name: string;
      /**
       * @description The beneficiary's mobile number: 10 digits starting with 6 to 9, as a JSON number or a string. Optional: absent, null and "" all mean not given.
       * @example 9876543210
       */
      Mobile?: string | number | null;
      /**
       * @description The beneficiary's e-mail address. Optional: absent, null and "" all mean not given.
       * @example asha@example.com
       */
      Email?: string | null;
      /**
       * @description Free text for your records: at most 255 characters; line breaks allowed, other control characters not. Optional: absent, null and "" all mean not given.
       * @example Salary June
       */
      Description?: string | null;
      /**
       * Format: date-time
       * @description When to send the payout, as an ISO 8601 time with an offset (Z or ±hh:mm): at least one minute and at most 90 days after it is accepted. It is accepted and reserved at once, answered PENDING "MP006 - Your transaction is scheduled for <IST time>", and sent to the bank at that minute, not before; it can be cancelled until then. Optional: absent, null and "" all mean not given.
       * @example 2026-12-24T10:00:00+05:30
       */
      ScheduledAt?: string | null;
      /** @enum {string} */
      Mode: 'UPI';
    };
    /** @description A batch found by its BatchID, each item as it now stands. */
    BulkPayoutStatus: {
      /** @enum {boolean} */
      error: false;
      /** @enum {number} */
      status_code: 200;
      /** @enum {string} */
      status: 'Success';
      BatchID: string;
      /** @description Items in the batch. */
      total: number;
      /** @description Items whose payout is not final yet. */
      pending: number;
      /** @description Items whose payout succeeded. */
      success: number;
      /** @description Items whose payout failed. */
      failed: number;
      /** @description Items refused before a payout existed. */
      rejected: number;
      message: string;
      results: ((
        | components['schemas']['PayoutStatus']
        | components['schemas']['ValidationError']
        | components['schemas']['TransactionIdConflict']
        | components['schemas']['BadRequestBody']
      ) & {
        /** @description The item's position in Payouts, from 0. */
        index: number;
      })[];
    };
    /** @description No batch of yours has this BatchID. */
    BatchNotFound: {
      /** @enum {boolean} */
      error: true;
      /** @enum {number} */
      status_code: 404;
      /** @enum {string} */
      status: 'NOT FOUND';
      /** @enum {string} */
      message: 'Transaction not found, Please Contact the Administrator.';
      BatchID: string;
    };
    /** @description The bank's verdict on an account. */
    AccountValidation: {
      /** @enum {boolean} */
      error: false;
      /** @enum {number} */
      status_code: 200;
      /**
       * @description Whether the beneficiary exists.
       * @enum {string}
       */
      status: 'VALID' | 'INVALID';
      /** @example 123456789012 */
      account: string;
      /**
       * @description Upper case.
       * @example HDFC0001234
       */
      ifsc: string;
      /**
       * @description The name the bank holds; "" when INVALID.
       * @example ASHA KUMAR
       */
      registered_name: string;
      message: string;
    };
    /** @description The bank did not answer in time (or PostgreSQL is unreachable). Asking again is safe: validation moves no money. */
    RailUnavailable: {
      /** @enum {boolean} */
      error: true;
      /** @enum {number} */
      status_code: 503;
      /** @enum {string} */
      status: 'SERVICE UNAVAILABLE';
      message: string;
    };
    /** @description A bank account to check before paying it. */
    AccountValidationRequest: {
      /**
       * @description The bank account number to check: 9 to 18 digits, as a JSON number or a string.
       * @example 123456789012
       */
      Account: string | number;
      /**
       * @description The IFSC of the account's branch: 4 letters, a zero, then 6 letters or digits (upper-cased first).
       * @example HDFC0001234
       */
      Ifsc: string;
    };
    /** @description The UPI network's verdict on an address. */
    UpiValidation: {
      /** @enum {boolean} */
      error: false;
      /** @enum {number} */
      status_code: 200;
      /**
       * @description Whether the beneficiary exists.
       * @enum {string}
       */
      status: 'VALID' | 'INVALID';
      /** @example asha.kumar@okhdfc */
      upi: string;
      /**
       * @description The name the bank holds; "" when INVALID.
       * @example ASHA KUMAR
       */
      registered_name: string;
      message: string;
    };
    /** @description A UPI address to check before paying it. */
    UpiValidationRequest: {
      /**
       * @description The UPI address to check, such as name@bank.
       * @example asha.kumar@okhdfc
       */
      Upi: string;
    };
    /** @description The new token, once. */
    TokenRotated: {
      /** @enum {boolean} */
      error: false;
      /** @enum {number} */
      status_code: 200;
      /** @enum {string} */
      status: 'Success';
      /**
       * @description Your new token. It is shown this once and stored only as a digest: keep it now. The token you sent keeps working until you revoke it (with itself, once your clients use the new one).
       * @example pgt_Xk3q9Z0bYw8sN1rT5uVv2cD4eF6gH7iJ8kL9mN0pQ1r
       */
      token: string;
      /**
       * @description The token's first 10 characters: how you name it to revoke it.
       * @example pgt_Xk3q9Z
       */
      prefix: string;
      /** @enum {string} */
      message: 'New token issued. Revoke the old one once your clients use the new one.';
    };
    /** @description You already hold two active tokens, named by their prefixes: no token was made. Revoke one first. */
    TokenLimit: {
      /** @enum {boolean} */
      error: true;
      /** @enum {number} */
      status_code: 409;
      /** @enum {string} */
      status: 'CONFLICT';
      /** @example You already hold two active tokens (pgt_Xk3q9Z, pgt_b7QmR2). Revoke the one you no longer use (POST /api/token/revoke), then rotate again. */
      message: string;
    };
    /** @description The first request with this Idempotency-Key was answered a secret, which is shown once and never kept: named by its prefix. Nothing changed. */
    IdempotencyKeySecretShownOnce: {
      /** @enum {boolean} */
      error: true;
      /** @enum {number} */
      status_code: 409;
      /** @enum {string} */
      status: 'CONFLICT';
      /** @example This Idempotency-Key's request issued a new token (pgt_Xk3q9Z), shown only once and not kept, so it cannot be shown again. If you did not receive it, revoke it (POST /api/token/revoke) with the token you hold, then rotate again with a new Idempotency-Key. */
      message: string;
    };
    /** @description No members: the token you send in the headers is the proof. */
    TokenRotationRequest: Record<string, never>;
    /** @description The token no longer works. */
    TokenRevoked: {
      /** @enum {boolean} */
      error: false;
      /** @enum {number} */
      status_code: 200;
      /** @enum {string} */
      status: 'Success';
      /**
       * @description The token's first 10 characters: how you name it to revoke it.
       * @example pgt_Xk3q9Z
       */
      prefix: string;
      /** @enum {string} */
      message: 'Token revoked.';
    };
    /** @description No active token of yours has this prefix. Nothing changed. */
    TokenNotFound: {
      /** @enum {boolean} */
      error: true;
      /** @enum {number} */
      status_code: 404;
      /** @enum {string} */
      status: 'NOT FOUND';
      /** @enum {string} */
      message: 'None of your active tokens has this prefix.';
    };
    /** @description The prefix names a token older than the one this request was sent with. Nothing changed. */
    TokenRevokesOlder: {
      /** @enum {boolean} */
      error: true;
      /** @enum {number} */
      status_code: 409;
      /** @enum {string} */
      status: 'CONFLICT';
      /** @enum {string} */
      message: 'A token cannot revoke an older token. Send this request with the token you are revoking: a token may revoke itself while you hold another.';
    };
    /** @description The prefix names the token this request was sent with, and you hold no other. Nothing changed. */
    LastToken: {
      /** @enum {boolean} */
      error: true;
      /** @enum {number} */
      status_code: 409;
      /** @enum {string} */
      status: 'CONFLICT';
      /** @enum {string} */
      message: 'This is your only active token: revoking it would lock you out. Rotate first (POST /api/token/rotate), then revoke it with itself.';
    };
    /** @description The token to revoke, by its prefix. */
    TokenRevocationRequest: {
      /**
       * @description The prefix of the token to revoke: the token this request is sent with (while you hold another), or a newer one, never an older one.
       * @example pgt_Xk3q9Z
       */
      TokenPrefix: string;
    };
    /** @description The new signing secret, once. */
    WebhookSecretIssued: {
      /** @enum {boolean} */
      error: false;
      /** @enum {number} */
      status_code: 200;
      /** @enum {string} */
      status: 'Success';
      /**
       * @description Your new webhook signing secret. It is shown this once, to you only: nobody at the gateway sees it. Verify every delivery with it (X-Webhook-Signature).
       * @example whsec_Q3vX9a2bYw8sN1rT5uVv2cD4eF6gH7iJ8kL9mN0pQ1r
       */
      secret: string;
      /**
       * @description The secret's first 12 characters: how our staff and logs name it.
       * @example whsec_Q3vX9a
       */
      prefix: string;
      /**
       * Format: date-time
       * @description Until when deliveries also carry a signature with the secret this one replaced (24 hours), so you can deploy the new one without refusing a delivery; null for your first secret.
       * @example 2026-12-07T10:15:00.000Z
       */
      previous_valid_until: string | null;
      /** @enum {string} */
      message: 'New signing secret issued. Deliveries are signed with it from now on.';
    };
    /** @description No webhook URL is registered for you yet. Nothing changed. */
    WebhookNotRegistered: {
      /** @enum {boolean} */
      error: true;
      /** @enum {number} */
      status_code: 404;
      /** @enum {string} */
      status: 'NOT FOUND';
      /** @enum {string} */
      message: 'No webhook URL is registered for you yet. Ask us to register it, then fetch your signing secret.';
    };
    /** @description No members: the token you send in the headers is the proof. */
    WebhookSecretRequest: Record<string, never>;
    /** @description A page of your payouts, newest first. */
    PayoutList: {
      /** @enum {boolean} */
      error: false;
      /** @enum {number} */
      status_code: 200;
      /** @enum {string} */
      status: 'Success';
      /** @description This page's payouts, newest first (by acceptance time, then our own order): each exactly the body GET /api/check_payout_status answers for it. Empty when none matches. */
      payouts: components['schemas']['PayoutStatus'][];
      /**
       * @description Send it as `cursor`, with the same filters, for the next page; null on the last page. Opaque: keep it as it is.
       * @example MToxNzk1ODU3MzAwMDAwOjEyMzQ1OmFiYzIyMzcyMWQ3ZTI1Njc
       */
      next_cursor: string | null;
    };
    /** @description A page of your events feed, oldest first. */
    EventFeed: {
      /** @enum {boolean} */
      error: false;
      /** @enum {number} */
      status_code: 200;
      /** @enum {string} */
      status: 'Success';
      /** @description Your events after `after`, oldest first, at most `limit`. Fewer than `limit`: you have read every event recorded so far. */
      events: components['schemas']['FeedEvent'][];
      /**
       * @description Send it as `after` for the next page: the position of the last event of this page, or, when the page is empty, the `after` you sent.
       * @example 4711
       */
      next_after: string;
    };
    /** @description An event: its `position`, then exactly the members of the webhook that carries it — a payout webhook (the payout result as it is now, `event`, `sequence`) or a downtime webhook (the downtime, `event`, `sequence`). */
    FeedEvent:
      | ({
          /**
           * @description The event's position in your feed: 1, 2, 3, … in the order your events were recorded, as a string of digits. Send the last one you applied as `after` to continue from it.
           * @example 4711
           */
          position: string;
        } & (
          | components['schemas']['ImpsPayoutPending']
          | components['schemas']['ImpsPayoutSuccess']
          | components['schemas']['ImpsPayoutFailed']
          | components['schemas']['UpiPayoutPending']
          | components['schemas']['UpiPayoutSuccess']
          | components['schemas']['UpiPayoutFailed']
        ) & {
            /** @enum {string} */
            event: 'payout.success' | 'payout.failed' | 'payout.reversed' | 'payout.pending';
            sequence: number;
          })
      | ({
          /**
           * @description The event's position in your feed: 1, 2, 3, … in the order your events were recorded, as a string of digits. Send the last one you applied as `after` to continue from it.
           * @example 4711
           */
          position: string;
        } & components['schemas']['DowntimeWebhook']);
    /** @description A page of the statement of your main wallet: the period, its balances and its entries. */
    Statement: {
      /** @enum {boolean} */
      error: false;
      /** @enum {number} */
      status_code: 200;
      /** @enum {string} */
      status: 'Success';
      /**
       * @description The period's start (included), India time.
       * @example 2026-12-01T00:00:00.000+05:30
       */
      from: string;
      /**
       * @description The period's end (not included), India time; null when it runs up to now.
       * @example 2026-12-02T00:00:00.000+05:30
       */
      to: string | null;
      /**
       * @description The available balance at from: before any entry of the period. In rupees with two fraction digits, as mainwallet.
       * @example 4765.00
       */
      opening_balance: string;
      /**
       * @description The available balance at to, or now: after every entry of the period. Without to, it is the wallet lookup's mainwallet. In rupees with two fraction digits, as mainwallet.
       * @example 4765.00
       */
      closing_balance: string;
      /** @description This page's entries, oldest first (by time, then id). The first page's first entry starts from opening_balance; each balance_after is the balance before it plus its amount. Empty when none. */
      entries: components['schemas']['StatementEntry'][];
      /**
       * @description Send it as `cursor` for the next page; null on the last page. Opaque: keep it as it is. It carries its period.
       * @example czE6MTc5NjA2MzQwMDAwMDoxNzk2MTQ5ODAwMDAwOjE3OTYxMDAzMzAxMjM6OTE4MjczOjM4NjJhMmI4ODM1ZQ
       */
      next_cursor: string | null;
    };
    /** @description One movement of the main wallet. */
    StatementEntry: {
      /**
       * @description Our id of the entry: digits, increasing as entries are posted.
       * @example 918273
       */
      id: string;
      /**
       * @description When the movement was posted: India time with its offset, to the millisecond.
       * @example 2026-12-01T10:15:30.123+05:30
       */
      time: string;
      /**
       * @description PAYOUT: a payout accepted, its amount taken. PAYOUT_FAILED: a payout failed (or was cancelled, or expired), its amount back. PAYOUT_REVERSED: a paid payout the beneficiary bank returned, its amount back. PAYOUT_CHARGED: a payout that failed here but the bank paid, charged after all. WALLET_CREDIT: the main wallet funded. PAYIN: a pay-in received.
       * @enum {string}
       */
      type: 'PAYOUT' | 'PAYOUT_FAILED' | 'PAYOUT_REVERSED' | 'PAYOUT_CHARGED' | 'WALLET_CREDIT' | 'PAYIN';
      /**
       * @description The type in words.
       * @example Pay-in received
       */
      description: string;
      /**
       * @description What the entry did to the balance, in rupees: negative when money left the wallet.
       * @example -101.00
       * @example 2500.00
       */
      amount: string;
      /**
       * @description The available balance right after this entry. In rupees with two fraction digits, as mainwallet.
       * @example 4765.00
       */
      balance_after: string;
      /**
       * @description The payout's or pay-in's TransactionID, digit for digit; null for a wallet credit.
       * @example 20240601000123
       */
      TransactionID: string | null;
      /**
       * @description A wallet credit's reference; null for the other types.
       * @example NEFT-20261201-01
       */
      reference: string | null;
    };
  };
  responses: never;
  parameters: never;
  requestBodies: never;
  headers: {
    /** @description The id of this request in our logs: yours if you sent a sane X-Request-Id, else a new one. */
    'X-Request-Id': string;
  };
  pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
  impsPayout: {
    parameters: {
      query?: never;
      header?: {
        /** @description Any 1 to 255 visible ASCII characters, new for each operation you mean (a UUID will do); kept 24 hours per MID. The same key with the same request (method, path and body bytes) is answered the first request's answer again, byte for byte, with `Idempotent-Replayed: true`; with another request, 422; while the first request still runs, 409. A 5xx or 429 answer is not kept: the same key then runs the request again. Without it, nothing changes (a payout is still idempotent by its TransactionID). */
        'Idempotency-Key'?: string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['ImpsPayoutRequest'];
      };
    };
    responses: {
      /** @description SUCCESS: only as the answer to a retry (same TransactionID and details) of a payout that has succeeded; `Bankriff` is the bank reference. */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ImpsPayoutSuccess'];
        };
      };
      /** @description Accepted (PENDING): the amount is reserved and the payout is on its way to the bank. Poll `GET /api/check_payout_status` for the outcome. Also the answer to a retry of a payout still in progress. */
      202: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ImpsPayoutPending'];
        };
      };
      /** @description FAILED (not enough available balance, or the answer to a retry of a failed payout: the TransactionID is used up), or a malformed MID, or a body that is not a JSON object. Or the Idempotency-Key is malformed. */
      400: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/json':
            | components['schemas']['ImpsPayoutFailed']
            | components['schemas']['InvalidMid']
            | components['schemas']['BadRequestBody']
            | components['schemas']['IdempotencyKeyMalformed'];
        };
      };
      /** @description Credentials missing, unknown or wrong. */
      401: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Unauthorized'];
        };
      };
      /** @description The TransactionID is already used for a different payout. Nothing changed. Or the first request with this Idempotency-Key is still running. */
      409: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/json':
            components['schemas']['TransactionIdConflict'] | components['schemas']['IdempotencyKeyInProgress'];
        };
      };
      /** @description Body over 16 KiB. */
      413: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['PayloadTooLarge'];
        };
      };
      /** @description Content-Type is not application/json. */
      415: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['UnsupportedMediaType'];
        };
      };
      /** @description Validation failed: a member of the body breaks its rule or a required member is missing. `errors` lists each failing member. Or this Idempotency-Key was used with another request. */
      422: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ValidationError'] | components['schemas']['IdempotencyKeyReused'];
        };
      };
      /** @description Rate limit for this MID reached. */
      429: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          /** @description Seconds to wait before retrying. */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['TooManyRequests'];
        };
      };
      /** @description Something unexpected; retrying later with the same TransactionID is safe. */
      500: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['InternalServerError'];
        };
      };
      /** @description PostgreSQL is unreachable; retry with the same TransactionID. */
      503: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ServiceUnavailable'];
        };
      };
    };
  };
  upiPayout: {
    parameters: {
      query?: never;
      header?: {
        /** @description Any 1 to 255 visible ASCII characters, new for each operation you mean (a UUID will do); kept 24 hours per MID. The same key with the same request (method, path and body bytes) is answered the first request's answer again, byte for byte, with `Idempotent-Replayed: true`; with another request, 422; while the first request still runs, 409. A 5xx or 429 answer is not kept: the same key then runs the request again. Without it, nothing changes (a payout is still idempotent by its TransactionID). */
        'Idempotency-Key'?: string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['UpiPayoutRequest'];
      };
    };
    responses: {
      /** @description SUCCESS: only as the answer to a retry (same TransactionID and details) of a payout that has succeeded; `Bankriff` is the bank reference. `Amount` and `TransactionID` are JSON numbers. */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['UpiPayoutSuccess'];
        };
      };
      /** @description Accepted (PENDING): the amount is reserved and the payout is on its way to the bank. Poll `GET /api/check_payout_status` for the outcome. Also the answer to a retry of a payout still in progress. `Amount` and `TransactionID` are JSON numbers. */
      202: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['UpiPayoutPending'];
        };
      };
      /** @description FAILED (not enough available balance, or the answer to a retry of a failed payout: the TransactionID is used up), or a malformed MID, or a body that is not a JSON object. Or the Idempotency-Key is malformed. */
      400: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/json':
            | components['schemas']['UpiPayoutFailed']
            | components['schemas']['InvalidMid']
            | components['schemas']['BadRequestBody']
            | components['schemas']['IdempotencyKeyMalformed'];
        };
      };
      /** @description Credentials missing, unknown or wrong. */
      401: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Unauthorized'];
        };
      };
      /** @description The TransactionID is already used for a different payout. Nothing changed. Or the first request with this Idempotency-Key is still running. */
      409: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/json':
            components['schemas']['TransactionIdConflict'] | components['schemas']['IdempotencyKeyInProgress'];
        };
      };
      /** @description Body over 16 KiB. */
      413: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['PayloadTooLarge'];
        };
      };
      /** @description Content-Type is not application/json. */
      415: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['UnsupportedMediaType'];
        };
      };
      /** @description Validation failed: a member of the body breaks its rule or a required member is missing. `errors` lists each failing member. Or this Idempotency-Key was used with another request. */
      422: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ValidationError'] | components['schemas']['IdempotencyKeyReused'];
        };
      };
      /** @description Rate limit for this MID reached. */
      429: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          /** @description Seconds to wait before retrying. */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['TooManyRequests'];
        };
      };
      /** @description Something unexpected; retrying later with the same TransactionID is safe. */
      500: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['InternalServerError'];
        };
      };
      /** @description PostgreSQL is unreachable; retry with the same TransactionID. */
      503: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ServiceUnavailable'];
        };
      };
    };
  };
  cancelPayout: {
    parameters: {
      query?: never;
      header?: {
        /** @description Any 1 to 255 visible ASCII characters, new for each operation you mean (a UUID will do); kept 24 hours per MID. The same key with the same request (method, path and body bytes) is answered the first request's answer again, byte for byte, with `Idempotent-Replayed: true`; with another request, 422; while the first request still runs, 409. A 5xx or 429 answer is not kept: the same key then runs the request again. Without it, nothing changes (a payout is still idempotent by its TransactionID). */
        'Idempotency-Key'?: string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['CancelPayoutRequest'];
      };
    };
    responses: {
      /** @description Cancelled (now, or by an earlier cancel): the payout as its lookup shows it. */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['PayoutStatus'];
        };
      };
      /** @description Malformed MID (or merchant suspended), or the body is not a JSON object. Or the Idempotency-Key is malformed. */
      400: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/json':
            | components['schemas']['InvalidMid']
            | components['schemas']['BadRequestBody']
            | components['schemas']['IdempotencyKeyMalformed'];
        };
      };
      /** @description Credentials missing, unknown or wrong. */
      401: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Unauthorized'];
        };
      };
      /** @description No payout of yours has this TransactionID. */
      404: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['TransactionNotFound'];
        };
      };
      /** @description A bank has the payout already. Nothing changed. Or the first request with this Idempotency-Key is still running. */
      409: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/json':
            components['schemas']['PayoutAlreadySent'] | components['schemas']['IdempotencyKeyInProgress'];
        };
      };
      /** @description Body over 16 KiB. */
      413: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['PayloadTooLarge'];
        };
      };
      /** @description Content-Type is not application/json. */
      415: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['UnsupportedMediaType'];
        };
      };
      /** @description Validation failed: TransactionID missing or not 1 to 30 digits. `errors` lists each failing member. Or this Idempotency-Key was used with another request. */
      422: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ValidationError'] | components['schemas']['IdempotencyKeyReused'];
        };
      };
      /** @description Rate limit for this MID reached. */
      429: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          /** @description Seconds to wait before retrying. */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['TooManyRequests'];
        };
      };
      /** @description Something unexpected; retrying later with the same TransactionID is safe. */
      500: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['InternalServerError'];
        };
      };
      /** @description PostgreSQL is unreachable; retry with the same TransactionID. */
      503: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ServiceUnavailable'];
        };
      };
    };
  };
  checkPayoutStatus: {
    parameters: {
      query: {
        /** @description The TransactionID you sent the transaction with: 1 to 30 digits. */
        TransactionID: string;
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The payout. */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['PayoutStatus'];
        };
      };
      /** @description Malformed MID, or merchant suspended. */
      400: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['InvalidMid'];
        };
      };
      /** @description Credentials missing, unknown or wrong. */
      401: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Unauthorized'];
        };
      };
      /** @description No transaction of yours has this TransactionID. */
      404: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['TransactionNotFound'];
        };
      };
      /** @description Validation failed: TransactionID missing, repeated, or not 1 to 30 digits. `errors` lists each failing member. */
      422: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ValidationError'];
        };
      };
      /** @description Rate limit for this MID reached. */
      429: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          /** @description Seconds to wait before retrying. */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['TooManyRequests'];
        };
      };
      /** @description Something unexpected; retrying later with the same TransactionID is safe. */
      500: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['InternalServerError'];
        };
      };
      /** @description PostgreSQL is unreachable; retry with the same TransactionID. */
      503: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ServiceUnavailable'];
        };
      };
    };
  };
  payinStatus: {
    parameters: {
      query: {
        /** @description The TransactionID you sent the transaction with: 1 to 30 digits. */
        TransactionID: string;
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The pay-in. */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['CollectionStatus'];
        };
      };
      /** @description Malformed MID, or merchant suspended. */
      400: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['InvalidMid'];
        };
      };
      /** @description Credentials missing, unknown or wrong. */
      401: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Unauthorized'];
        };
      };
      /** @description No transaction of yours has this TransactionID. */
      404: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['TransactionNotFound'];
        };
      };
      /** @description Validation failed: TransactionID missing, repeated, or not 1 to 30 digits. `errors` lists each failing member. */
      422: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ValidationError'];
        };
      };
      /** @description Rate limit for this MID reached. */
      429: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          /** @description Seconds to wait before retrying. */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['TooManyRequests'];
        };
      };
      /** @description Something unexpected; retrying later with the same TransactionID is safe. */
      500: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['InternalServerError'];
        };
      };
      /** @description PostgreSQL is unreachable; retry with the same TransactionID. */
      503: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ServiceUnavailable'];
        };
      };
    };
  };
  checkMainWallet: {
    parameters: {
      query: {
        /** @description Always Main_Wallet_Balance. */
        PayoutType: 'Main_Wallet_Balance';
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The balance. */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['MainWallet'];
        };
      };
      /** @description Malformed MID (or merchant suspended), or PayoutType missing or not Main_Wallet_Balance. */
      400: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['InvalidMidWallet'] | components['schemas']['InvalidPayoutType'];
        };
      };
      /** @description Credentials missing, unknown or wrong. */
      401: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Unauthorized'];
        };
      };
      /** @description Your main wallet has never been funded. */
      404: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['WalletNotFound'];
        };
      };
      /** @description Rate limit for this MID reached. */
      429: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          /** @description Seconds to wait before retrying. */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['TooManyRequests'];
        };
      };
      /** @description Something unexpected; retrying later with the same TransactionID is safe. */
      500: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['InternalServerError'];
        };
      };
      /** @description PostgreSQL is unreachable; retry with the same TransactionID. */
      503: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ServiceUnavailable'];
        };
      };
    };
  };
  downtimes: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The downtimes open now. */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Downtimes'];
        };
      };
      /** @description Malformed MID, or merchant suspended. */
      400: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['InvalidMid'];
        };
      };
      /** @description Credentials missing, unknown or wrong. */
      401: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Unauthorized'];
        };
      };
      /** @description Rate limit for this MID reached. */
      429: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          /** @description Seconds to wait before retrying. */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['TooManyRequests'];
        };
      };
      /** @description Something unexpected; retrying later with the same TransactionID is safe. */
      500: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['InternalServerError'];
        };
      };
      /** @description PostgreSQL is unreachable; retry with the same TransactionID. */
      503: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ServiceUnavailable'];
        };
      };
    };
  };
  bulkPayout: {
    parameters: {
      query?: never;
      header?: {
        /** @description Any 1 to 255 visible ASCII characters, new for each operation you mean (a UUID will do); kept 24 hours per MID. The same key with the same request (method, path and body bytes) is answered the first request's answer again, byte for byte, with `Idempotent-Replayed: true`; with another request, 422; while the first request still runs, 409. A 5xx or 429 answer is not kept: the same key then runs the request again. Without it, nothing changes (a payout is still idempotent by its TransactionID). */
        'Idempotency-Key'?: string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['BulkPayoutRequest'];
      };
    };
    responses: {
      /** @description The batch, one result per item. */
      202: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['BulkPayoutAccepted'];
        };
      };
      /** @description Malformed MID (or merchant suspended), or the body is not a JSON object. Or the Idempotency-Key is malformed. */
      400: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/json':
            | components['schemas']['InvalidMid']
            | components['schemas']['BadRequestBody']
            | components['schemas']['IdempotencyKeyMalformed'];
        };
      };
      /** @description Credentials missing, unknown or wrong. */
      401: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Unauthorized'];
        };
      };
      /** @description The BatchID is already used for a batch with different items. Nothing changed. Or the first request with this Idempotency-Key is still running. */
      409: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/json':
            components['schemas']['BatchIdConflict'] | components['schemas']['IdempotencyKeyInProgress'];
        };
      };
      /** @description Body over 8 MiB. */
      413: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['BulkPayloadTooLarge'];
        };
      };
      /** @description Content-Type is not application/json. */
      415: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['UnsupportedMediaType'];
        };
      };
      /** @description Validation failed: BatchID not 1 to 30 digits, or Payouts not an array of 1 to 5000 items. `errors` lists each failing member. Or this Idempotency-Key was used with another request. */
      422: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ValidationError'] | components['schemas']['IdempotencyKeyReused'];
        };
      };
      /** @description Rate limit for this MID reached. */
      429: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          /** @description Seconds to wait before retrying. */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['TooManyRequests'];
        };
      };
      /** @description Something unexpected; retrying later with the same TransactionID is safe. */
      500: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['InternalServerError'];
        };
      };
      /** @description PostgreSQL is unreachable; retry with the same TransactionID. */
      503: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ServiceUnavailable'];
        };
      };
    };
  };
  bulkPayoutStatus: {
    parameters: {
      query: {
        /** @description The BatchID you sent the batch with: 1 to 30 digits. */
        BatchID: string;
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The batch. */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['BulkPayoutStatus'];
        };
      };
      /** @description Malformed MID, or merchant suspended. */
      400: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['InvalidMid'];
        };
      };
      /** @description Credentials missing, unknown or wrong. */
      401: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Unauthorized'];
        };
      };
      /** @description No batch of yours has this BatchID. */
      404: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['BatchNotFound'];
        };
      };
      /** @description Validation failed: BatchID missing, repeated, or not 1 to 30 digits. `errors` lists each failing member. */
      422: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ValidationError'];
        };
      };
      /** @description Rate limit for this MID reached. */
      429: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          /** @description Seconds to wait before retrying. */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['TooManyRequests'];
        };
      };
      /** @description Something unexpected; retrying later with the same TransactionID is safe. */
      500: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['InternalServerError'];
        };
      };
      /** @description PostgreSQL is unreachable; retry with the same TransactionID. */
      503: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ServiceUnavailable'];
        };
      };
    };
  };
  validateAccount: {
    parameters: {
      query?: never;
      header?: {
        /** @description Any 1 to 255 visible ASCII characters, new for each operation you mean (a UUID will do); kept 24 hours per MID. The same key with the same request (method, path and body bytes) is answered the first request's answer again, byte for byte, with `Idempotent-Replayed: true`; with another request, 422; while the first request still runs, 409. A 5xx or 429 answer is not kept: the same key then runs the request again. Without it, nothing changes (a payout is still idempotent by its TransactionID). */
        'Idempotency-Key'?: string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['AccountValidationRequest'];
      };
    };
    responses: {
      /** @description The verdict. */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['AccountValidation'];
        };
      };
      /** @description Malformed MID (or merchant suspended), or the body is not a JSON object. Or the Idempotency-Key is malformed. */
      400: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/json':
            | components['schemas']['InvalidMid']
            | components['schemas']['BadRequestBody']
            | components['schemas']['IdempotencyKeyMalformed'];
        };
      };
      /** @description Credentials missing, unknown or wrong. */
      401: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Unauthorized'];
        };
      };
      /** @description The first request with this Idempotency-Key is still running. */
      409: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['IdempotencyKeyInProgress'];
        };
      };
      /** @description Body over 16 KiB. */
      413: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['PayloadTooLarge'];
        };
      };
      /** @description Content-Type is not application/json. */
      415: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['UnsupportedMediaType'];
        };
      };
      /** @description Validation failed: Account or Ifsc missing or malformed. `errors` lists each failing member. Or this Idempotency-Key was used with another request. */
      422: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ValidationError'] | components['schemas']['IdempotencyKeyReused'];
        };
      };
      /** @description Rate limit for this MID reached. */
      429: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          /** @description Seconds to wait before retrying. */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['TooManyRequests'];
        };
      };
      /** @description Something unexpected; retrying later with the same TransactionID is safe. */
      500: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['InternalServerError'];
        };
      };
      /** @description The bank did not answer in time. */
      503: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['RailUnavailable'];
        };
      };
    };
  };
  validateUpi: {
    parameters: {
      query?: never;
      header?: {
        /** @description Any 1 to 255 visible ASCII characters, new for each operation you mean (a UUID will do); kept 24 hours per MID. The same key with the same request (method, path and body bytes) is answered the first request's answer again, byte for byte, with `Idempotent-Replayed: true`; with another request, 422; while the first request still runs, 409. A 5xx or 429 answer is not kept: the same key then runs the request again. Without it, nothing changes (a payout is still idempotent by its TransactionID). */
        'Idempotency-Key'?: string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['UpiValidationRequest'];
      };
    };
    responses: {
      /** @description The verdict. */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['UpiValidation'];
        };
      };
      /** @description Malformed MID (or merchant suspended), or the body is not a JSON object. Or the Idempotency-Key is malformed. */
      400: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/json':
            | components['schemas']['InvalidMid']
            | components['schemas']['BadRequestBody']
            | components['schemas']['IdempotencyKeyMalformed'];
        };
      };
      /** @description Credentials missing, unknown or wrong. */
      401: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Unauthorized'];
        };
      };
      /** @description The first request with this Idempotency-Key is still running. */
      409: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['IdempotencyKeyInProgress'];
        };
      };
      /** @description Body over 16 KiB. */
      413: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['PayloadTooLarge'];
        };
      };
      /** @description Content-Type is not application/json. */
      415: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['UnsupportedMediaType'];
        };
      };
      /** @description Validation failed: Upi missing or not a UPI address. `errors` lists each failing member. Or this Idempotency-Key was used with another request. */
      422: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ValidationError'] | components['schemas']['IdempotencyKeyReused'];
        };
      };
      /** @description Rate limit for this MID reached. */
      429: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          /** @description Seconds to wait before retrying. */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['TooManyRequests'];
        };
      };
      /** @description Something unexpected; retrying later with the same TransactionID is safe. */
      500: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['InternalServerError'];
        };
      };
      /** @description The UPI network did not answer in time. */
      503: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['RailUnavailable'];
        };
      };
    };
  };
  rotateToken: {
    parameters: {
      query?: never;
      header?: {
        /** @description Any 1 to 255 visible ASCII characters, new for each operation you mean (a UUID will do); kept 24 hours per MID. The same key with the same request (method, path and body bytes) is answered the first request's answer again, byte for byte, with `Idempotent-Replayed: true`; with another request, 422; while the first request still runs, 409. A 5xx or 429 answer is not kept: the same key then runs the request again. Without it, nothing changes (a payout is still idempotent by its TransactionID). */
        'Idempotency-Key'?: string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['TokenRotationRequest'];
      };
    };
    responses: {
      /** @description The new token, shown this once. */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['TokenRotated'];
        };
      };
      /** @description Malformed MID (or merchant suspended), or the body is not a JSON object. Or the Idempotency-Key is malformed. */
      400: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/json':
            | components['schemas']['InvalidMid']
            | components['schemas']['BadRequestBody']
            | components['schemas']['IdempotencyKeyMalformed'];
        };
      };
      /** @description Credentials missing, unknown or wrong. */
      401: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Unauthorized'];
        };
      };
      /** @description You already hold two active tokens. Nothing changed. Or the first request with this Idempotency-Key is still running. Or this Idempotency-Key was answered a secret already, which is shown only once. */
      409: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/json':
            | components['schemas']['TokenLimit']
            | components['schemas']['IdempotencyKeyInProgress']
            | components['schemas']['IdempotencyKeySecretShownOnce'];
        };
      };
      /** @description Body over 16 KiB. */
      413: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['PayloadTooLarge'];
        };
      };
      /** @description Content-Type is not application/json. */
      415: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['UnsupportedMediaType'];
        };
      };
      /** @description This Idempotency-Key was used with another request. */
      422: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['IdempotencyKeyReused'];
        };
      };
      /** @description Rate limit for this MID reached. */
      429: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          /** @description Seconds to wait before retrying. */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['TooManyRequests'];
        };
      };
      /** @description Something unexpected; retrying later with the same TransactionID is safe. */
      500: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['InternalServerError'];
        };
      };
      /** @description PostgreSQL is unreachable; retry with the same TransactionID. */
      503: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ServiceUnavailable'];
        };
      };
    };
  };
  revokeToken: {
    parameters: {
      query?: never;
      header?: {
        /** @description Any 1 to 255 visible ASCII characters, new for each operation you mean (a UUID will do); kept 24 hours per MID. The same key with the same request (method, path and body bytes) is answered the first request's answer again, byte for byte, with `Idempotent-Replayed: true`; with another request, 422; while the first request still runs, 409. A 5xx or 429 answer is not kept: the same key then runs the request again. Without it, nothing changes (a payout is still idempotent by its TransactionID). */
        'Idempotency-Key'?: string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['TokenRevocationRequest'];
      };
    };
    responses: {
      /** @description The token is revoked. */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['TokenRevoked'];
        };
      };
      /** @description Malformed MID (or merchant suspended), or the body is not a JSON object. Or the Idempotency-Key is malformed. */
      400: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/json':
            | components['schemas']['InvalidMid']
            | components['schemas']['BadRequestBody']
            | components['schemas']['IdempotencyKeyMalformed'];
        };
      };
      /** @description Credentials missing, unknown or wrong. */
      401: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Unauthorized'];
        };
      };
      /** @description No active token of yours has this prefix. Nothing changed. */
      404: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['TokenNotFound'];
        };
      };
      /** @description The prefix names a token older than the one this request was sent with, or this very token while you hold no other. Nothing changed. Or the first request with this Idempotency-Key is still running. */
      409: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/json':
            | components['schemas']['TokenRevokesOlder']
            | components['schemas']['LastToken']
            | components['schemas']['IdempotencyKeyInProgress'];
        };
      };
      /** @description Body over 16 KiB. */
      413: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['PayloadTooLarge'];
        };
      };
      /** @description Content-Type is not application/json. */
      415: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['UnsupportedMediaType'];
        };
      };
      /** @description Validation failed: TokenPrefix missing or not a token prefix. `errors` lists each failing member. Or this Idempotency-Key was used with another request. */
      422: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ValidationError'] | components['schemas']['IdempotencyKeyReused'];
        };
      };
      /** @description Rate limit for this MID reached. */
      429: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          /** @description Seconds to wait before retrying. */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['TooManyRequests'];
        };
      };
      /** @description Something unexpected; retrying later with the same TransactionID is safe. */
      500: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['InternalServerError'];
        };
      };
      /** @description PostgreSQL is unreachable; retry with the same TransactionID. */
      503: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ServiceUnavailable'];
        };
      };
    };
  };
  rotateWebhookSecret: {
    parameters: {
      query?: never;
      header?: {
        /** @description Any 1 to 255 visible ASCII characters, new for each operation you mean (a UUID will do); kept 24 hours per MID. The same key with the same request (method, path and body bytes) is answered the first request's answer again, byte for byte, with `Idempotent-Replayed: true`; with another request, 422; while the first request still runs, 409. A 5xx or 429 answer is not kept: the same key then runs the request again. Without it, nothing changes (a payout is still idempotent by its TransactionID). */
        'Idempotency-Key'?: string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['WebhookSecretRequest'];
      };
    };
    responses: {
      /** @description The new signing secret, shown this once. */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['WebhookSecretIssued'];
        };
      };
      /** @description Malformed MID (or merchant suspended), or the body is not a JSON object. Or the Idempotency-Key is malformed. */
      400: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/json':
            | components['schemas']['InvalidMid']
            | components['schemas']['BadRequestBody']
            | components['schemas']['IdempotencyKeyMalformed'];
        };
      };
      /** @description Credentials missing, unknown or wrong. */
      401: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Unauthorized'];
        };
      };
      /** @description No webhook URL is registered for you yet. Nothing changed. */
      404: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['WebhookNotRegistered'];
        };
      };
      /** @description The first request with this Idempotency-Key is still running. Or this Idempotency-Key was answered a secret already, which is shown only once. */
      409: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/json':
            components['schemas']['IdempotencyKeyInProgress'] | components['schemas']['IdempotencyKeySecretShownOnce'];
        };
      };
      /** @description Body over 16 KiB. */
      413: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['PayloadTooLarge'];
        };
      };
      /** @description Content-Type is not application/json. */
      415: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['UnsupportedMediaType'];
        };
      };
      /** @description This Idempotency-Key was used with another request. */
      422: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['IdempotencyKeyReused'];
        };
      };
      /** @description Rate limit for this MID reached. */
      429: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          /** @description Seconds to wait before retrying. */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['TooManyRequests'];
        };
      };
      /** @description Something unexpected; retrying later with the same TransactionID is safe. */
      500: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['InternalServerError'];
        };
      };
      /** @description PostgreSQL is unreachable; retry with the same TransactionID. */
      503: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ServiceUnavailable'];
        };
      };
    };
  };
  listPayouts: {
    parameters: {
      query?: {
        /** @description Only payouts accepted at or after this: a date (YYYY-MM-DD, a day from 00:00 India time) or a timestamp with its offset (2026-11-28T10:00:00+05:30, 2026-11-28T04:30:00Z). */
        from?: string;
        /** @description Only payouts accepted before this (not at it): a date (YYYY-MM-DD, a day from 00:00 India time) or a timestamp with its offset (2026-11-28T10:00:00+05:30, 2026-11-28T04:30:00Z). Later than from. */
        to?: string;
        /** @description Only payouts whose status lookup says this now. */
        status?: 'Pending' | 'Success' | 'Failed';
        /** @description Only payouts of this mode. */
        mode?: 'IMPS' | 'UPI';
        /** @description Only the payouts of your bulk batch with this BatchID (POST /api/bulkpayout): 1 to 30 digits. A BatchID of no batch of yours lists nothing. */
        BatchID?: string;
        /** @description Only payouts sent to the sponsor bank with this alias, as the status lookup names it in `bank` (a payout not sent yet has none). */
        bank?: string;
        /** @description Payouts per page: 1 to 1000, 100 unless given. */
        limit?: number;
        /** @description The next page: the next_cursor of this list's previous page, unchanged, sent with the same filters (from, to, status, mode, BatchID, bank) as that page; limit may change. Without it, the first page. */
        cursor?: string;
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description A page of your payouts. */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['PayoutList'];
        };
      };
      /** @description Malformed MID, or merchant suspended. */
      400: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['InvalidMid'];
        };
      };
      /** @description Credentials missing, unknown or wrong. */
      401: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Unauthorized'];
        };
      };
      /** @description Validation failed: a parameter this list does not have, one given twice or breaking its rule, `to` not later than `from`, or a cursor that is not the next_cursor of this list with these filters. `errors` lists each failing member. */
      422: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ValidationError'];
        };
      };
      /** @description Rate limit for this MID reached. */
      429: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          /** @description Seconds to wait before retrying. */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['TooManyRequests'];
        };
      };
      /** @description Something unexpected; retrying later with the same TransactionID is safe. */
      500: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['InternalServerError'];
        };
      };
      /** @description PostgreSQL is unreachable; retry with the same TransactionID. */
      503: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ServiceUnavailable'];
        };
      };
    };
  };
  events: {
    parameters: {
      query?: {
        /** @description Only events after this position: the `next_after` of your previous page (or the position of the last event you applied). 0 unless given: from your first event. */
        after?: string;
        /** @description Events per page: 1 to 500, 100 unless given. */
        limit?: number;
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description A page of your events. */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['EventFeed'];
        };
      };
      /** @description Malformed MID, or merchant suspended. */
      400: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['InvalidMid'];
        };
      };
      /** @description Credentials missing, unknown or wrong. */
      401: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Unauthorized'];
        };
      };
      /** @description Validation failed: a parameter this feed does not have, or one given twice or breaking its rule. `errors` lists each failing member. */
      422: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ValidationError'];
        };
      };
      /** @description Rate limit for this MID reached. */
      429: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          /** @description Seconds to wait before retrying. */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['TooManyRequests'];
        };
      };
      /** @description Something unexpected; retrying later with the same TransactionID is safe. */
      500: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['InternalServerError'];
        };
      };
      /** @description PostgreSQL is unreachable; retry with the same TransactionID. */
      503: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ServiceUnavailable'];
        };
      };
    };
  };
  statement: {
    parameters: {
      query?: {
        /** @description The period's start, included: a date (YYYY-MM-DD, a day from 00:00 India time) or a timestamp with its offset (2026-12-01T00:00:00+05:30, 2026-11-30T18:30:00Z). 00:00 India time today unless given; required with to. */
        from?: string;
        /** @description The period's end, not included: a date (YYYY-MM-DD, a day from 00:00 India time) or a timestamp with its offset (2026-12-01T00:00:00+05:30, 2026-11-30T18:30:00Z). Later than from, at most 93 days after it. Unless given, the statement runs up to the moment each page is read. */
        to?: string;
        /** @description Entries per page: 1 to 1000, 100 unless given. JSON only. */
        limit?: number;
        /** @description The next page: the next_cursor of a page of this statement, unchanged, sent with the same from and to as that page, or with neither (the cursor carries its period); limit may change. Without it, the first page. JSON only. */
        cursor?: string;
        /** @description json (unless given): a page of entries. csv: the whole period as one file (text/csv, an attachment), its opening and closing balances included; without limit and cursor. */
        format?: 'json' | 'csv';
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description A page of your statement (format json), or the whole period as a CSV file (format csv). */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          /** @description With format csv: attachment; filename="statement-<MID>-<first day>-to-<last day>.csv". */
          'Content-Disposition'?: string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Statement'];
          'text/csv': string;
        };
      };
      /** @description Malformed MID, or merchant suspended. */
      400: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['InvalidMidWallet'];
        };
      };
      /** @description Credentials missing, unknown or wrong. */
      401: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Unauthorized'];
        };
      };
      /** @description Your main wallet has never been funded. */
      404: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['WalletNotFound'];
        };
      };
      /** @description Validation failed: a parameter the statement does not have, one given twice or breaking its rule, to without from, a period that is empty or longer than 93 days, limit or cursor with format csv, or a cursor that is not a next_cursor of this statement. `errors` lists each failing member. */
      422: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ValidationError'];
        };
      };
      /** @description Rate limit for this MID reached. */
      429: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          /** @description Seconds to wait before retrying. */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['TooManyRequests'];
        };
      };
      /** @description Something unexpected; retrying later with the same TransactionID is safe. */
      500: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['InternalServerError'];
        };
      };
      /** @description PostgreSQL is unreachable; retry with the same TransactionID. */
      503: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ServiceUnavailable'];
        };
      };
    };
  };
  payoutWebhook: {
    parameters: {
      query?: never;
      header: {
        /** @description The delivery: the same on every retry of it. */
        'X-Webhook-Id': string;
        /** @description This attempt of the delivery, from 1. */
        'X-Webhook-Attempt': string;
        /** @description The body's sequence, repeated; trust the body's. */
        'X-Webhook-Sequence': string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': (
          | components['schemas']['ImpsPayoutPending']
          | components['schemas']['ImpsPayoutSuccess']
          | components['schemas']['ImpsPayoutFailed']
          | components['schemas']['UpiPayoutPending']
          | components['schemas']['UpiPayoutSuccess']
          | components['schemas']['UpiPayoutFailed']
        ) & {
          /** @enum {string} */
          event: 'payout.success' | 'payout.failed' | 'payout.reversed' | 'payout.pending';
          sequence: number;
        };
      };
    };
    responses: {
      /** @description Any 2xx within 5 s: delivered. Anything else is retried. */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
    };
  };
  downtimeWebhook: {
    parameters: {
      query?: never;
      header: {
        /** @description The delivery: the same on every retry of it. */
        'X-Webhook-Id': string;
        /** @description This attempt of the delivery, from 1. */
        'X-Webhook-Attempt': string;
        /** @description The body's sequence, repeated; trust the body's. */
        'X-Webhook-Sequence': string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['DowntimeWebhook'];
      };
    };
    responses: {
      /** @description Any 2xx within 5 s: delivered. Anything else is retried. */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
    };
  };
}
