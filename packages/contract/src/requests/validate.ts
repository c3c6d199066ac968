import type { z } from 'zod';
import { AppError } from '@payout/domain';
import { fieldErrors } from './request-fields.js';

/** Parses a request with its schema, or throws the contract's 422 listing every failing member. */
export function validate<S extends z.ZodType>(schema: S, input: unknown): z.infer<S> {
  const result = schema.safeParse(input);
  if (!result.success) throw AppError.validation(fieldErrors(result.error));
  return result.data;
}

/** A query string parsed like a body; a repeated parameter arrives as an array and fails its schema. */
export function parseQuery<S extends z.ZodType>(schema: S, query: unknown): z.infer<S> {
  return validate(schema, query ?? {});
}
