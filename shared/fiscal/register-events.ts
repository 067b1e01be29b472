/**
 * The register events of the e-journal (docs/conventions.md §19), as their entries hold them: an entry whose
 * `type` is a `RegisterEventType` has `data` `{created, treasurer, data}`, the body the register sent
 * without its type. The types come from the upload schema (schemas/fiscal.ts `journalUpload`), so a reader
 * (the SKVFS 2021:16 export) and the schema cannot drift apart.
 */
import type { JournalUploadBody } from '#schemas/types.ts';
import { REGISTER_EVENT_TYPES, type JournalEntry, type RegisterEventType } from './journal.ts';

export { REGISTER_EVENT_TYPES, type RegisterEventType } from './journal.ts';

/** A register event may be dated at most this far past the server's clock (docs/conventions.md §19). */
export const MAX_EVENT_CLOCK_SKEW_MS = 5 * 60_000;

/** Each register event type's `data`, as the schema admits it: `RegisterEventData['ARTICLE_CHANGED']`. */
export type RegisterEventData = { [T in RegisterEventType]: Extract<JournalUploadBody, { type: T }>['data'] };

/** The fields every article event carries (SKVFS 2021:16 RegistreraArtikel). */
export type ArticleFields = RegisterEventData['ARTICLE_REGISTERED'];

/** A register event entry's `data`: when it happened (epoch milliseconds), who did it, and what it says. */
export interface RegisterEventRecord<T extends RegisterEventType = RegisterEventType> {
  created: number;
  treasurer: string | null;
  data: RegisterEventData[T];
}

/** A journal entry of a register event, its `data` typed by its `type`. */
export type RegisterEventEntry<T extends RegisterEventType = RegisterEventType> = {
  [K in T]: Omit<JournalEntry, 'type' | 'data'> & { type: K; data: RegisterEventRecord<K> };
}[T];

const registerEventTypes: ReadonlySet<string> = new Set(REGISTER_EVENT_TYPES);

/** Whether `type` names a register event. */
export const isRegisterEventType = (type: string): type is RegisterEventType => registerEventTypes.has(type);

/** Whether `entry` records a register event: its `data` is then a `RegisterEventRecord` of its type. */
export const isRegisterEventEntry = (entry: JournalEntry): entry is JournalEntry & RegisterEventEntry =>
  isRegisterEventType(entry.type);
