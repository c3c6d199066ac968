import { DEVELOPMENT_SECRET } from '@payout/config';

/** The placeholder secret the apps use outside production (admin token, callback secret). */
export const DEVELOPMENT_SECRET_FOR_TESTS = DEVELOPMENT_SECRET;
