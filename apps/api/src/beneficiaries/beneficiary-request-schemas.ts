import { z } from 'zod';
import { accountNumberField, ifscField, upiField } from '@payout/contract';

// The two validation requests (docs/api.md, "Beneficiary validation"), with the payout requests' own
// field rules. Members not listed are ignored.

export const accountValidationRequestSchema = z
  .object({
    Account: accountNumberField.meta({
      description: 'The bank account number to check: 9 to 18 digits, as a JSON number or a string.',
      examples: ['123456789012'],
    }),
    Ifsc: ifscField.meta({
      description: "The IFSC of the account's branch: 4 letters, a zero, then 6 letters or digits (upper-cased first).",
      examples: ['HDFC0001234'],
    }),
  })
  .meta({ id: 'AccountValidationRequest', description: 'A bank account to check before paying it.' });

export const upiValidationRequestSchema = z
  .object({
    Upi: upiField.meta({
      description: 'The UPI address to check, such as name@bank.',
      examples: ['asha.kumar@okhdfc'],
    }),
  })
  .meta({ id: 'UpiValidationRequest', description: 'A UPI address to check before paying it.' });
