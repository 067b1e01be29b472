/**
 * The map of the single table: every item's key is built here, so the whole layout is on one page.
 *
 * | item                      | pk                  | sk                 | vsk (LSI byVersion)   |
 * |---------------------------|---------------------|--------------------|-----------------------|
 * | seller's version counter  | S#<sellerId>        | #VERSION           |                       |
 * | seller profile            | S#<sellerId>        | #PROFILE           | SELLER#<version>      |
 * | catalog entity (tax, ...) | S#<sellerId>        | <KIND>#<id>        | <KIND>#<version>      |
 * | seller directory entry    | SELLERS             | <sellerId>         |                       |
 * | user                      | U#<username>        | #USER              |                       |
 * | API key (by its hash)     | K#<sha256 hex>      | #KEY               |                       |
 *
 * A seller's catalog shares one partition so a diff is one strongly consistent Query on the
 * LSI; global records have partitions of their own.
 */
export interface Key {
  pk: string;
  sk: string;
}

/** Versions are zero-padded so that string order in `vsk` is numeric order. */
const pad = (version: number) => String(version).padStart(15, '0');

export const sellerPk = (sellerId: string) => `S#${sellerId}`;

export const keys = {
  sellerCounter: (sellerId: string): Key => ({ pk: sellerPk(sellerId), sk: '#VERSION' }),
  sellerProfile: (sellerId: string): Key => ({ pk: sellerPk(sellerId), sk: '#PROFILE' }),
  sellerDirectory: (sellerId: string): Key => ({ pk: 'SELLERS', sk: sellerId }),
  catalog: (sellerId: string, kind: string, identifier: string): Key => ({
    pk: sellerPk(sellerId),
    sk: `${kind}#${identifier}`,
  }),
  user: (username: string): Key => ({ pk: `U#${username}`, sk: '#USER' }),
  apiKey: (hash: string): Key => ({ pk: `K#${hash}`, sk: '#KEY' }),
} as const;

/** Sort key of the version index for an entity kind at a version. */
export const versionSortKey = (kind: string, version: number) => `${kind}#${pad(version)}`;

/** The version-index range holding a kind's versions v with from < v <= to. */
export const versionRange = (kind: string, from: number, to: number) =>
  [versionSortKey(kind, from + 1), versionSortKey(kind, to)] as const;

export const VERSION_INDEX = 'byVersion';
