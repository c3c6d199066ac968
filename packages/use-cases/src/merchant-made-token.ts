// What a merchant gives the gateway's staff of a token it made itself (docs/client.md, "Making a token"):
// the token's display prefix and its SHA-256 digest. Neither works as a credential; the token stays with
// the merchant, and staff register only its digest (docs/operations.md, "A merchant's token and webhook
// secret").

/** A merchant-made token as staff know it. */
export interface MerchantMadeToken {
  /** Hex SHA-256 of the token: what is stored and compared. */
  digest: string;
  /** The token's first 10 characters (`pgt_` and six more): how people tell tokens apart. */
  prefix: string;
}

/** The hex SHA-256 of a token, as `payout-token` prints it (upper case is read as lower case). */
export const MERCHANT_TOKEN_DIGEST = /^[0-9a-fA-F]{64}$/;
/** A token's display prefix, as `payout-token` prints it. */
export const MERCHANT_TOKEN_PREFIX = /^pgt_[A-Za-z0-9_-]{6}$/;

export type ReadMerchantMadeToken =
  { kind: 'read'; token: MerchantMadeToken } | { kind: 'invalid-token'; problems: string[] };

/** The digest and prefix as typed or sent, checked and normalised, or what is wrong with them. */
export function readMerchantMadeToken(input: { digest: string; prefix: string }): ReadMerchantMadeToken {
  const digest = input.digest.trim();
  const prefix = input.prefix.trim();
  const problems = [
    ...(MERCHANT_TOKEN_DIGEST.test(digest) ? [] : ["the token's digest must be 64 hex digits (its SHA-256)"]),
    ...(MERCHANT_TOKEN_PREFIX.test(prefix) ? [] : ["the token's prefix must be pgt_ and six more characters"]),
  ];
  if (problems.length > 0) return { kind: 'invalid-token', problems };
  return { kind: 'read', token: { digest: digest.toLowerCase(), prefix } };
}
