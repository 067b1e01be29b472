import { invalidETag, versionConflict } from '#shared/errors.ts';

type Headers = Readonly<Record<string, string | undefined>>;

/** `*` or the versions named by a list of strong tags `"<version>"`; anything else is InvalidETagFormat (docs/conventions.md §5). */
function parseTags(header: string): '*' | number[] {
  if (header.trim() === '*') return '*';
  return header.split(',').map((part) => {
    const match = /^\s*"(\d{1,15})"\s*$/.exec(part);
    if (!match?.[1]) throw invalidETag(header);
    return Number(match[1]);
  });
}

/** The preconditions a write carries. Parsed before anything is read, so a malformed tag changes nothing. */
export interface Preconditions {
  ifMatch: '*' | number[] | undefined;
  ifNoneMatch: '*' | number[] | undefined;
}

export function preconditions(headers: Headers): Preconditions {
  const ifMatch = headers['if-match'];
  const ifNoneMatch = headers['if-none-match'];
  return {
    ifMatch: ifMatch === undefined ? undefined : parseTags(ifMatch),
    ifNoneMatch: ifNoneMatch === undefined ? undefined : parseTags(ifNoneMatch),
  };
}

/** Refuses a write whose preconditions the current version (undefined: no entity) does not meet: 409 VersionConflict. */
export function checkPreconditions(conditions: Preconditions, current: number | undefined): void {
  const { ifMatch, ifNoneMatch } = conditions;
  if (ifMatch !== undefined && (current === undefined || (ifMatch !== '*' && !ifMatch.includes(current)))) {
    throw versionConflict(
      current === undefined ? 'The entity does not exist' : `The entity is at version ${current}, not the one given in If-Match`,
    );
  }
  if (ifNoneMatch !== undefined && current !== undefined && (ifNoneMatch === '*' || ifNoneMatch.includes(current))) {
    throw versionConflict(`The entity exists at version ${current}`);
  }
}

/** Whether a read's If-None-Match names the current version, so the answer is 304. */
export function unchangedSince(headers: Headers, version: number): boolean {
  const header = headers['if-none-match'];
  if (header === undefined) return false;
  const tags = parseTags(header);
  return tags === '*' || tags.includes(version);
}
