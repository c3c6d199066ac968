// Making your own API token (docs/client.md, "Making a token"; README, "Your token"): you make it on your
// own machine and keep it; the gateway is given only its prefix and SHA-256 digest, which do not work as a
// credential. Web Crypto only, so it runs wherever the client does.

/** A token you made: keep `token` secret; give the gateway `prefix` and `sha256` only. */
export interface MerchantToken {
  /** Your API token (the Token header): `pgt_` and 43 characters. Shown nowhere else: keep it now. */
  token: string;
  /** Its first 10 characters: how you and the gateway's staff tell your tokens apart. */
  prefix: string;
  /** The hex SHA-256 of the token: what the gateway stores and checks, and all it ever learns of it. */
  sha256: string;
}

/** A new token in the gateway's format: `pgt_` and 32 random bytes in base64url, with its prefix and digest. */
export async function newMerchantToken(): Promise<MerchantToken> {
  const bytes = crypto.getRandomValues(new Uint8Array(32));
  const token = `pgt_${base64Url(bytes)}`;
  return { token, prefix: token.slice(0, 10), sha256: await sha256Hex(token) };
}

/** The hex SHA-256 of a token you hold, to check what the gateway registered. */
export async function tokenDigest(token: string): Promise<string> {
  return sha256Hex(token);
}

async function sha256Hex(text: string): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text)));
  return Array.from(digest, (b) => b.toString(16).padStart(2, '0')).join('');
}

function base64Url(bytes: Uint8Array): string {
  return btoa(String.fromCharCode(...bytes))
    .replace(/\+/g, '-')
    .replace(/\//g, '_')
    .replace(/=+$/, '');
}
