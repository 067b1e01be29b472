/**
 * The table of a stage, as serverless.yml names it (`custom.tableName`): the service, the stage, and the table's layout
 * generation. Generation 2 has no local secondary index (docs/decisions.md, "The table keeps no LSI"); an LSI can only be
 * removed with its table, so the layout moved to a table of its own, named apart from the first
 * (`cash-register-<stage>`), which `npm run migrate -- --copy-from` reads (docs/operations.md, Migrations).
 */
export const TABLE_GENERATION = 2;

/** The table the stage's functions use. */
export const stageTable = (stage: string): string => `cash-register-${stage}-${TABLE_GENERATION}`;

/** The first generation's table of a stage, kept after the copy until it is checked. */
export const firstGenerationTable = (stage: string): string => `cash-register-${stage}`;
