import type { Merchant, WebhookEndpointView } from '@payout/db';
import { formatRupees } from '@payout/domain';

/** A merchant as the admin JSON API answers it and the CLI prints it. */
export function merchantJson(m: Merchant): Record<string, string> {
  return {
    mid: m.mid,
    name: m.name,
    status: m.status,
    impsLimit: formatRupees(m.impsMaxPaise),
    upiLimit: formatRupees(m.upiMaxPaise),
    queueIfLowBalance: m.queueIfLowBalance ? 'on' : 'off',
    queueWindow: `${m.queueWindowSeconds / 3_600}h`,
    pinnedBank: m.pinnedBank ?? 'none',
    downtimeHold: `${m.downtimeHoldSeconds}s`,
    createdAt: m.createdAt.toISOString(),
  };
}

/** A merchant's webhook endpoint as the admin JSON API answers it and the CLI prints it: never its secret. */
export function webhookEndpointJson(mid: string, endpoint: WebhookEndpointView): Record<string, string | null> {
  return {
    mid,
    url: endpoint.url,
    secretPrefix: endpoint.secretPrefix,
    previousSecretValidUntil: endpoint.previousSecretValidUntil?.toISOString() ?? null,
    disabledAt: endpoint.disabledAt?.toISOString() ?? null,
  };
}
