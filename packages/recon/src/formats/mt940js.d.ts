/**
 * The parts of mt940js 1.3.5 (a CommonJS package without typings) that `mt940.ts` uses, as its source
 * (lib/parser.js, lib/tags.js) defines them. Amounts are read from the raw tags, not from the library's
 * float fields, so those are left out on purpose.
 */
declare module 'mt940js' {
  /** One tag of the file: `id` is the number (20, 25, 28, 60, 61, 62, 86…) or 'NS'/'MB'; `data` its raw text. */
  export interface Tag {
    readonly id: number | string;
    readonly data: string;
  }

  /** A `:61:` line with the `:86:` text that follows it. */
  export interface Transaction {
    /** The value date (UTC midnight). */
    date: Date;
    isReversal: boolean;
    /** The 4-character type code, e.g. NTRF, NCHG. */
    transactionType: string;
    /** The account owner's reference (up to 16 characters). */
    reference: string;
    /** The bank's reference, after `//`; '' when absent. */
    bankReference: string;
    /** Supplementary details, the line under `:61:`; '' when absent. */
    extraDetails: string;
    /** The `:86:` lines, joined with '\n'; '' when absent. */
    details: string;
  }

  export interface Statement {
    /** `:20:` */
    transactionReference: string;
    /** `:25:` */
    accountIdentification: string;
    /** `:28C:` statement number / sequence number (page). */
    number: { statement: string; sequence: string; section: string };
    currency: string;
    transactions: Transaction[];
    /** Present when `parse` is called with `withTags`: the statement's tags in file order. */
    tags?: Tag[];
  }

  export class Parser {
    constructor(options?: { no86Structure?: boolean });
    /** Throws an Error naming what is wrong when the text is not MT940 it can read. */
    parse(data: string, withTags?: boolean): Statement[];
    /** Checks mandatory tags, one currency, and that opening + lines = closing (last; throws "Sum of lines …"). */
    protected _validateGroup(group: Tag[], index: number): void;
  }
}

/** The tag classes of mt940js 1.3.5 (lib/tags.js): the streaming reader builds each tag as `parse` does. */
declare module 'mt940js/lib/tags.js' {
  export interface ParsedTag {
    readonly id: number | string;
    readonly data: string;
    readonly fields: Record<string, unknown>;
    /** A message block that starts a message (`{1:`). */
    readonly isStarting?: boolean;
  }
  export class TagFactory {
    /** Throws "Unknown tag …" or "Cannot parse tag …" as `Parser.parse` does. */
    createTag(id: string, subId: string, data: string): ParsedTag;
  }
  const tags: { TagFactory: typeof TagFactory };
  export default tags;
}
