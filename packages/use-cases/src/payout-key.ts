/** How an operator names a payout: by our Ack_no (the console), or by MID and TransactionID (the CLI). */
export type PayoutKey = { ackNo: string } | { mid: string; transactionId: string };
