import fc from 'fast-check';

// Generators of hostile requests, as plain data ("recipes"): what to do to a valid request. The sweep
// turns a recipe into bytes with the merchant's credentials and a fresh TransactionID, so a recipe
// drawn from a seed always means the same request.

export type PayoutMode = 'IMPS' | 'UPI';

/** One member written as a raw JSON literal, so the exact bytes on the wire are the test's choice. */
export type Member = [key: string, literal: string];

export type MemberEdit =
  | { kind: 'set'; field: string; literal: string }
  | { kind: 'remove'; field: string }
  /** The member again: with the same literal (null) or another one. */
  | { kind: 'duplicate'; field: string; literal: string | null }
  | { kind: 'extra'; key: string; literal: string };

export type BodyWrap =
  | { kind: 'none' }
  | { kind: 'array' }
  /** Cut the text at this fraction of its length. */
  | { kind: 'truncate'; at: number }
  /** Put these bytes at this fraction of the text (invalid UTF-8, NUL, …). */
  | { kind: 'bytes'; at: number; bytes: number[] }
  | { kind: 'bom' }
  | { kind: 'blanks'; around: string }
  /** Grow the Description until the body is exactly this many bytes. */
  | { kind: 'pad'; size: number }
  /** Throw the body away and send this instead. */
  | { kind: 'replace'; bytes: number[] };

export interface BodyRecipe {
  mode: PayoutMode;
  edits: MemberEdit[];
  wrap: BodyWrap;
}

export const IMPS_FIELDS = [
  'BankName',
  'Account',
  'Ifsc',
  'Name',
  'Mobile',
  'Email',
  'Amount',
  'Description',
  'TransactionID',
];
export const UPI_FIELDS = ['Name', 'Mobile', 'Email', 'Amount', 'Description', 'TransactionID', 'Upi'];

/** A valid body's members; TransactionID is filled in when the recipe is sent. */
export function validMembers(mode: PayoutMode, transactionId: string): Member[] {
  const common: Member[] = [
    ['Name', '"Asha Kumar"'],
    ['Mobile', '"9876543210"'],
    ['Email', '"asha@example.com"'],
    ['Amount', '"101.00"'],
    ['Description', '"Salary"'],
    ['TransactionID', JSON.stringify(transactionId)],
  ];
  return mode === 'IMPS'
    ? [['BankName', '"HDFC Bank"'], ['Account', '"123456789012"'], ['Ifsc', '"HDFC0001234"'], ...common]
    : [...common, ['Upi', '"asha.kumar@okhdfc"']];
}

const digits = (minLength: number, maxLength: number) =>
  fc.array(fc.constantFrom(...Array.from('0123456789')), { minLength, maxLength }).map((d) => d.join(''));

const str = (s: string) => JSON.stringify(s);

/** Text a careless or hostile client might send in a string member. */
const hostileText = fc.oneof(
  fc.constantFrom(
    '',
    ' ',
    '\u0000',
    'Asha\u0000Kumar',
    '\ud800',
    'Asha\udfff',
    '\u202eAsha Kumar',
    'अशा कुमार',
    'أشا كومار',
    '😀😀😀',
    '👩🏽‍💻',
    'e\u0301',
    '\u200b',
    '\ufeff',
    '\t\r\n',
    'Robert"); DROP TABLE payouts;--',
    '${7*7}{{7*7}}',
    '<script>alert(1)</script>',
    '../../etc/passwd',
    '%00',
    '\\u0000',
  ),
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.string({ unit: 'grapheme', maxLength: 40 }),
  // Long strings: past every member's limit, and near the body limit.
  fc
    .tuple(
      fc.constantFrom('x', 'é', '😀', '\u0000', 'आ'),
      fc.constantFrom(99, 100, 101, 254, 255, 256, 1_000, 5_000, 16_000),
    )
    .map(([unit, n]) => unit.repeat(n)),
);

/** Number literals at and around every boundary, and far beyond. */
const hostileNumber = fc.oneof(
  fc.constantFrom(
    '0',
    '-0',
    '-1',
    '0.99',
    '1',
    '1.0',
    '1.00',
    '1.000',
    '1.001',
    '1.005',
    '101.5',
    '100000.00',
    '100000.01',
    '500000.00',
    '500000.01',
    '1e2',
    '1E+2',
    '1e-2',
    '1e400',
    '-1e400',
    '0.1e1',
    '9007199254740993',
    '123456789012345678901234567890',
    '1234567890123456789012345678901',
  ),
  digits(1, 60).map((d) => d.replace(/^0+(?=.)/, '')),
  fc
    .tuple(fc.constantFrom('', '-'), digits(1, 20), digits(1, 5))
    .map(([s, a, b]) => `${s}${a.replace(/^0+(?=.)/, '')}.${b}`),
);

/** Strings that look like numbers, or nearly. */
const numericText = fc.oneof(
  hostileNumber,
  fc.constantFrom(
    ' 101.00',
    '101.00 ',
    '₹101.00',
    '1,000.00',
    '101,00',
    '١٠١',
    '१०१.००',
    '0x65',
    'NaN',
    'Infinity',
    '+101.00',
    '00101.00',
    '.5',
    '101.',
    '9876543210\u0000',
    '09876543210',
    '987654321',
  ),
);

const deepNesting = fc
  .tuple(fc.integer({ min: 1, max: 60 }), fc.constantFrom('[', '{"a":'))
  .map(([depth, open]) => open.repeat(depth) + '1' + (open === '[' ? ']' : '}').repeat(depth));

/** A raw JSON literal for a member: wrong types, hostile text, boundaries, huge and negative numbers. */
export const hostileLiteral: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom('true', 'false', 'null', '[]', '{}', '[1]', '{"a":1}', '[null]', '["101.00"]', '{"value":"101.00"}'),
  hostileNumber,
  numericText.map(str),
  hostileText.map(str),
  deepNesting,
);

const anyField = fc.constantFrom(...new Set([...IMPS_FIELDS, ...UPI_FIELDS]));
const memberEdit: fc.Arbitrary<MemberEdit> = fc.oneof(
  { weight: 6, arbitrary: fc.record({ kind: fc.constant('set' as const), field: anyField, literal: hostileLiteral }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('remove' as const), field: anyField }) },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('duplicate' as const),
      field: anyField,
      literal: fc.option(hostileLiteral, { nil: null }),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('extra' as const),
      key: fc.oneof(
        fc.constantFrom(
          '__proto__',
          'constructor',
          'prototype',
          'amount',
          'transactionid',
          'Amount ',
          'MID',
          'Token',
          '',
        ),
        fc.string({ unit: 'binary', maxLength: 20 }),
      ),
      literal: hostileLiteral,
    }),
  },
);

// Bytes that break a JSON text wherever they land: a control character (not allowed raw, in a string or
// out of one) or a byte that never occurs in UTF-8, followed by any high bytes.
const neverValid = fc.constantFrom(0x00, 0x01, 0x08, 0x0b, 0x0c, 0x0e, 0x1b, 0x1f, 0xc0, 0xc1, 0xf5, 0xf8, 0xfe, 0xff);
const byteSoup = fc
  .tuple(neverValid, fc.array(fc.integer({ min: 0x80, max: 0xff }), { maxLength: 11 }))
  .map(([first, rest]) => [first, ...rest]);
const bodyWrap: fc.Arbitrary<BodyWrap> = fc.oneof(
  { weight: 10, arbitrary: fc.constant({ kind: 'none' as const }) },
  { weight: 1, arbitrary: fc.constant({ kind: 'array' as const }) },
  { weight: 1, arbitrary: fc.double({ min: 0, max: 1, noNaN: true }).map((at) => ({ kind: 'truncate' as const, at })) },
  {
    weight: 2,
    arbitrary: fc
      .tuple(
        fc.double({ min: 0, max: 1, noNaN: true }),
        fc.oneof(
          byteSoup,
          fc.constantFrom<number[]>(
            [0xff],
            [0xfe, 0xff],
            [0xc0, 0xaf],
            [0xed, 0xa0, 0x80],
            [0xe2, 0x82],
            [0x00],
            [0xf4, 0x90, 0x80, 0x80],
          ),
        ),
      )
      .map(([at, bytes]) => ({ kind: 'bytes' as const, at, bytes })),
  },
  { weight: 1, arbitrary: fc.constant({ kind: 'bom' as const }) },
  {
    weight: 1,
    arbitrary: fc
      .constantFrom(' ', '\n\n', '\t', '\u00a0', '\u0000')
      .map((around) => ({ kind: 'blanks' as const, around })),
  },
  {
    weight: 2,
    arbitrary: fc
      .constantFrom(16_383, 16_384, 16_385, 16_500, 20_000, 65_536)
      .map((size) => ({ kind: 'pad' as const, size })),
  },
  {
    weight: 1,
    arbitrary: fc
      .oneof(
        byteSoup,
        fc
          .constantFrom(
            '',
            'null',
            '1',
            '"x"',
            '[]',
            'true',
            'TransactionID=1&Amount=1',
            "{'a':1}",
            '{"a":1,}',
            '{"a":NaN}',
          )
          .map((t) => [...Buffer.from(t)]),
      )
      .map((bytes) => ({ kind: 'replace' as const, bytes })),
  },
);

export const bodyRecipe: fc.Arbitrary<BodyRecipe> = fc.record({
  mode: fc.constantFrom<PayoutMode>('IMPS', 'UPI'),
  edits: fc.array(memberEdit, { minLength: 1, maxLength: 3 }),
  wrap: bodyWrap,
});

/** Applies a recipe's member edits. */
export function editMembers(members: Member[], edits: readonly MemberEdit[]): Member[] {
  let out = [...members];
  for (const edit of edits) {
    switch (edit.kind) {
      case 'set':
        out = out.some(([k]) => k === edit.field)
          ? out.map(([k, v]) => [k, k === edit.field ? edit.literal : v])
          : [...out, [edit.field, edit.literal]];
        break;
      case 'remove':
        out = out.filter(([k]) => k !== edit.field);
        break;
      case 'duplicate': {
        const existing = out.find(([k]) => k === edit.field);
        out.push([edit.field, edit.literal ?? existing?.[1] ?? 'null']);
        break;
      }
      case 'extra':
        out.unshift([edit.key, edit.literal]);
        break;
    }
  }
  return out;
}

export const membersText = (members: readonly Member[]) => `{${members.map(([k, v]) => `${str(k)}:${v}`).join(',')}}`;

/** The members with the Description grown until the body is `size` bytes (or left empty if it is already larger). */
export function padMembers(members: Member[], size: number): Member[] {
  const without = members.filter(([k]) => k !== 'Description');
  const emptyDescription = Buffer.byteLength(membersText(without)) + Buffer.byteLength(',"Description":""');
  return [...without, ['Description', str('d'.repeat(Math.max(0, size - emptyDescription)))]];
}

/** The body bytes of a recipe. */
export function bodyBytes(members: Member[], wrap: BodyWrap): Buffer {
  const text = membersText(members);
  switch (wrap.kind) {
    case 'none':
      return Buffer.from(text);
    case 'array':
      return Buffer.from(`[${text}]`);
    case 'truncate':
      return Buffer.from(text).subarray(0, Math.floor(Buffer.byteLength(text) * wrap.at));
    case 'bytes': {
      const bytes = Buffer.from(text);
      const at = Math.floor(bytes.length * wrap.at);
      return Buffer.concat([bytes.subarray(0, at), Buffer.from(wrap.bytes), bytes.subarray(at)]);
    }
    case 'bom':
      return Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(text)]);
    case 'blanks':
      return Buffer.from(`${wrap.around}${text}${wrap.around}`);
    case 'pad':
      return Buffer.from(membersText(padMembers(members, wrap.size)));
    case 'replace':
      return Buffer.from(wrap.bytes);
  }
}

// --- Valid requests written every way the contract allows: each must be accepted with exact echoes.

export interface ValidRecipe {
  mode: PayoutMode;
  /** Amount in paise, inside the mode's ceiling. */
  paise: bigint;
  amountAs: 'string' | 'number';
  amountForm: 'two' | 'short' | 'whole';
  transactionIdAs: 'string' | 'number' | 'leading-zeros';
  optionalAs: 'present' | 'null' | 'empty' | 'absent';
  ifscLowerCase: boolean;
  extra: Member | null;
  blanks: boolean;
}

export const validRecipe: fc.Arbitrary<ValidRecipe> = fc.constantFrom<PayoutMode>('IMPS', 'UPI').chain((mode) =>
  fc.record({
    mode: fc.constant(mode),
    paise: fc.oneof(
      fc.constantFrom(100n, 101n, mode === 'IMPS' ? 50_000_000n : 10_000_000n),
      fc.bigInt({ min: 100n, max: mode === 'IMPS' ? 50_000_000n : 10_000_000n }),
    ),
    amountAs: fc.constantFrom('string' as const, 'number' as const),
    amountForm: fc.constantFrom('two' as const, 'short' as const, 'whole' as const),
    transactionIdAs: fc.constantFrom('string' as const, 'number' as const, 'leading-zeros' as const),
    optionalAs: fc.constantFrom('present' as const, 'null' as const, 'empty' as const, 'absent' as const),
    ifscLowerCase: fc.boolean(),
    extra: fc.option(
      fc.tuple(
        fc.constantFrom('Note', 'amount', 'Currency', 'Extra'),
        fc.oneof(fc.constantFrom('"x"', '1', 'null', '[]', '{"a":[1,2]}'), hostileNumber),
      ),
      { nil: null },
    ),
    blanks: fc.boolean(),
  }),
);

/** The Amount literal of a valid recipe: "101.50" / 101.5 / 101, as the recipe says. */
export function amountLiteral(r: ValidRecipe): string {
  const rupees = r.paise / 100n;
  const fraction = (r.paise % 100n).toString().padStart(2, '0');
  let text = `${rupees}.${fraction}`;
  if (r.amountForm === 'short') text = fraction.endsWith('0') ? `${rupees}.${fraction[0]}` : text;
  if (r.amountForm === 'whole' && fraction === '00') text = `${rupees}`;
  return r.amountAs === 'string' ? str(text) : text;
}

// --- Credentials and other headers, for every endpoint.

export type CredentialHeader =
  'valid' | 'missing' | 'empty' | 'doubled' | 'doubled-other' | 'other-merchant' | 'garbage';

export interface HeaderRecipe {
  mid: CredentialHeader;
  token: CredentialHeader;
  /** Header names as a client might spell them: HTTP says they are case-insensitive. */
  nameCase: 'canonical' | 'lower' | 'upper';
  garbage: string;
  contentType: readonly string[];
  extra: readonly (readonly [string, string])[];
}

// Valid most of the time, so what comes after authentication (content types, encodings) is swept as well.
const credentialHeader = fc.oneof(
  { weight: 7, arbitrary: fc.constant<CredentialHeader>('valid') },
  {
    weight: 5,
    arbitrary: fc.constantFrom<CredentialHeader>(
      'missing',
      'empty',
      'doubled',
      'doubled-other',
      'other-merchant',
      'garbage',
    ),
  },
);

export const headerRecipe: fc.Arbitrary<HeaderRecipe> = fc.record({
  mid: credentialHeader,
  token: credentialHeader,
  nameCase: fc.constantFrom('canonical' as const, 'lower' as const, 'upper' as const),
  garbage: fc.oneof(
    fc.constantFrom(
      'x'.repeat(65),
      'M 1',
      'M\t1',
      'é',
      '😀',
      '../x',
      'null',
      '*',
      '%00',
      'pgt_',
      'a'.repeat(1_000),
      'A'.repeat(8_000),
    ),
    fc.string({ unit: 'grapheme-ascii', minLength: 1, maxLength: 80 }).filter((s) => s.trim() === s && s.length > 0),
  ),
  contentType: fc.oneof(
    fc.constantFrom(
      ['application/json'],
      ['application/json; charset=utf-8'],
      ['APPLICATION/JSON'],
      [],
      ['text/plain'],
      ['application/x-www-form-urlencoded'],
      ['multipart/form-data; boundary=x'],
      ['application/json; charset=latin1'],
      ['application/json; charset=utf-16'],
      ['application/vnd.api+json'],
      ['application/json-patch+json'],
      ['*/*'],
      [';;;'],
      ['application/json', 'text/plain'],
      ['application/json', 'application/json'],
    ),
    fc.string({ unit: 'grapheme-ascii', maxLength: 40 }).map((s) => [s.trim()]),
  ),
  extra: fc.array(
    fc.constantFrom<[string, string]>(
      ['Content-Encoding', 'gzip'],
      ['Content-Encoding', 'br'],
      ['Content-Encoding', 'deflate'],
      ['Content-Encoding', 'identity'],
      ['Content-Encoding', 'compress'],
      ['Accept', 'text/html'],
      ['Accept', 'application/xml'],
      ['X-Request-Id', '../../etc/passwd'],
      ['X-Request-Id', 'x'.repeat(500)],
      ['X-Forwarded-For', '1.2.3.4, 5.6.7.8'],
      ['Authorization', 'Bearer pgt_not_a_real_token'],
      ['Expect', '100-continue'],
      ['Cookie', 'session=1'],
    ),
    { maxLength: 2 },
  ),
});

// --- Queries of the lookups, paths and methods.

export type QueryValue = { kind: 'known' } | { kind: 'fresh' } | { kind: 'text'; text: string; encode: boolean };

export interface QueryRecipe {
  endpoint: 'PAYOUT_STATUS' | 'PAYIN_STATUS' | 'WALLET';
  params: [name: string, value: QueryValue][];
}

const queryText: fc.Arbitrary<QueryValue> = fc.oneof(
  fc.constant({ kind: 'known' as const }),
  fc.constant({ kind: 'fresh' as const }),
  numericText.map((text) => ({ kind: 'text' as const, text, encode: true })),
  hostileText.filter((t) => t.length < 2_000).map((text) => ({ kind: 'text' as const, text, encode: true })),
  fc
    .constantFrom(
      '%ZZ',
      '%',
      '%0',
      '%00',
      '%FF%FE',
      '%C0%AF',
      '%ED%A0%80',
      '1%2C2',
      '+1',
      '1+2',
      '%2B1',
      '1;2',
      '1%23',
      '%E0%A5%A7',
    )
    .map((text) => ({ kind: 'text' as const, text, encode: false })),
  fc
    .constantFrom(
      'Main_Wallet_Balance',
      'main_wallet_balance',
      'Main_Wallet_Balance%20',
      'Main_Wallet_Balance+',
      'Main%5FWallet%5FBalance',
    )
    .map((text) => ({
      kind: 'text' as const,
      text,
      encode: false,
    })),
);

export const queryRecipe: fc.Arbitrary<QueryRecipe> = fc.record({
  endpoint: fc.constantFrom('PAYOUT_STATUS' as const, 'PAYIN_STATUS' as const, 'WALLET' as const),
  params: fc.array(
    fc.tuple(
      fc.constantFrom(
        'TransactionID',
        'TransactionID',
        'PayoutType',
        'PayoutType',
        'TransactionID[]',
        'transactionid',
        'TransactionID[a]',
        'Token',
        '',
      ),
      queryText,
    ),
    { maxLength: 3 },
  ),
});

export interface RouteRecipe {
  method: string;
  path: string;
}

export const MERCHANT_PATHS = [
  '/api/impspayout',
  '/api/payout',
  '/api/check_payout_status',
  '/api/payin/status',
  '/api/checkMainWallet',
];

export const routeRecipe: fc.Arbitrary<RouteRecipe> = fc.record({
  method: fc.constantFrom('GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'HEAD', 'TRACE'),
  path: fc.oneof(
    fc.constantFrom(...MERCHANT_PATHS, '/api/callbacks/payin', '/admin/payouts'),
    fc
      .constantFrom(...MERCHANT_PATHS)
      .chain((p) =>
        fc.constantFrom(
          `${p}/`,
          p.toUpperCase(),
          `/${p}`,
          `${p}%00`,
          `${p}%2F`,
          `${p};jsessionid=1`,
          `${p}/..`,
          `/api/../${p.slice(5)}`,
          `${p}.json`,
          `${p}?`,
          `${p}#x`,
        ),
      ),
    fc.constantFrom(
      '/',
      '/api',
      '/api/',
      '/favicon.ico',
      '/.env',
      '/api/%',
      '/%E0%A4',
      '/admin',
      '/admin/queues/../payouts',
    ),
  ),
});

// --- Fixed edge cases, swept on every run before the generated ones, so the known sharp edges are never
// left to chance.

const EDGE_LITERALS = [
  'null',
  'true',
  '[]',
  '{}',
  '""',
  str('\u0000'),
  '"\\ud800"',
  '1e400',
  '-1',
  '"1.001"',
  str('x'.repeat(300)),
  '123456789012345678901234567890123',
];

export function edgeBodyRecipes(): BodyRecipe[] {
  const recipes: BodyRecipe[] = [];
  for (const mode of ['IMPS', 'UPI'] as const) {
    for (const field of mode === 'IMPS' ? IMPS_FIELDS : UPI_FIELDS) {
      for (const literal of EDGE_LITERALS)
        recipes.push({ mode, edits: [{ kind: 'set', field, literal }], wrap: { kind: 'none' } });
    }
    const none = [{ kind: 'extra' as const, key: 'Note', literal: '"x"' }];
    const wraps: BodyWrap[] = [
      { kind: 'pad', size: 16_383 },
      { kind: 'pad', size: 16_384 },
      { kind: 'pad', size: 16_385 },
      { kind: 'truncate', at: 0.5 },
      { kind: 'array' },
      { kind: 'bom' },
      { kind: 'blanks', around: '\u00a0' },
      { kind: 'bytes', at: 0.5, bytes: [0xff] },
      { kind: 'replace', bytes: [] },
    ];
    for (const wrap of wraps) recipes.push({ mode, edits: none, wrap });
    const edits: MemberEdit[][] = [
      [{ kind: 'duplicate', field: 'Amount', literal: '"499999.00"' }],
      [{ kind: 'duplicate', field: 'Amount', literal: null }],
      [{ kind: 'duplicate', field: 'TransactionID', literal: '"1"' }],
      [{ kind: 'extra', key: '__proto__', literal: '{"polluted":true}' }],
      [{ kind: 'extra', key: 'Deep', literal: `${'['.repeat(31)}${']'.repeat(31)}` }],
      [{ kind: 'extra', key: 'Deep', literal: `${'['.repeat(32)}${']'.repeat(32)}` }],
    ];
    for (const e of edits) recipes.push({ mode, edits: e, wrap: { kind: 'none' } });
  }
  return recipes;
}

const VALID_HEADERS: HeaderRecipe = {
  mid: 'valid',
  token: 'valid',
  nameCase: 'canonical',
  garbage: '',
  contentType: ['application/json'],
  extra: [],
};

/** Edge header recipes with the index of the endpoint (in MERCHANT_PATHS) each is sent to. */
export function edgeHeaderRecipes(): [HeaderRecipe, number][] {
  const recipes: [HeaderRecipe, number][] = [];
  for (const endpoint of [0, 1]) {
    for (const encoding of ['gzip', 'br', 'deflate', 'compress', 'identity']) {
      recipes.push([{ ...VALID_HEADERS, extra: [['Content-Encoding', encoding]] }, endpoint]);
    }
    for (const contentType of [
      [],
      ['text/plain'],
      ['application/vnd.api+json'],
      ['APPLICATION/JSON'],
      ['application/json', 'text/plain'],
    ]) {
      recipes.push([{ ...VALID_HEADERS, contentType }, endpoint]);
    }
  }
  const others: CredentialHeader[] = ['missing', 'empty', 'doubled', 'doubled-other', 'other-merchant', 'garbage'];
  for (const endpoint of [0, 1, 2, 3, 4]) {
    for (const bad of others) {
      recipes.push([{ ...VALID_HEADERS, mid: bad, garbage: 'M'.repeat(65) }, endpoint]);
      recipes.push([{ ...VALID_HEADERS, token: bad, garbage: 'pgt_guess' }, endpoint]);
    }
    recipes.push([{ ...VALID_HEADERS, nameCase: 'lower' }, endpoint]);
    recipes.push([{ ...VALID_HEADERS, nameCase: 'upper' }, endpoint]);
  }
  return recipes;
}

/** Every method on every merchant path, and the methods a browser or scanner tries on the others. */
export function edgeRouteRecipes(): RouteRecipe[] {
  const methods = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'HEAD', 'TRACE'];
  return [
    ...MERCHANT_PATHS.flatMap((path) => methods.map((method) => ({ method, path }))),
    ...['GET', 'POST', 'OPTIONS'].flatMap((method) => [
      { method, path: '/admin/payouts' },
      { method, path: '/api/callbacks/payin' },
    ]),
  ];
}
