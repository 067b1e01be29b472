/** Where the stack serves docs/conventions.md, beside the version pages (functions/fallback/docs.ts). */
export const CONVENTIONS_PAGE = '/docs/conventions';

/**
 * The server the committed documents name: `npm start`'s default port. The pages the stack serves name the stack's
 * own base URL instead (scripts/docs.ts `withServer`, infra/local/stack.ts).
 */
export const DEFAULT_SERVER_URL = 'http://localhost:3000';
export const SERVER_DESCRIPTION = 'The local stack (`npm start`; PORT sets its port).';

/**
 * What each group of operations is for, in one sentence: the tags of the OpenAPI documents, one per folder of
 * `functions/` that has routes. A group without a sentence here fails `npm run openapi` (scripts/openapi/build.ts).
 */
export const TAG_DESCRIPTIONS: Readonly<Record<string, string>> = {
  activations:
    "Activating a register: an activation binds a register app's installation to a seller for a period with the features it paid for, and gives the register its API key.",
  catalog:
    "The seller's catalog that registers sync offline: taxes, categories, products, commodities, keyboards, precepts, bookings, treasurers and orders, each versioned, with diffs between versions.",
  'control-units':
    'The fiscal control units that sign receipts, the registers they serve and the bridges that connect them to the service.',
  devices:
    'The devices register apps are installed on: which application runs on each, for which seller, and when it was installed.',
  email: "A register's message to its software vendor's support.",
  fiscal:
    "A register's fiscal records: its sales and receipts, copies, cash balance, trading days and their reports, and its electronic journal.",
  gateway: 'Card payments a register charges through the payment gateway.',
  images: "Pictures of the seller, its categories and its products: uploaded, read and versioned with the seller's data.",
  kd: "A register's receipt signed by its control unit through the unit's bridge (the kd line and its control code), and the log of those signings.",
  registrations: "The registers of a seller: each register's name and the installation it runs on.",
  restaurants:
    'Restaurants and hairdressers: what a seller of either kind shows its customers, readable without credentials where the seller is public.',
  sellers: 'Sellers: the businesses that own registers, their profiles, and the version of their data.',
  stats:
    "The seller's statistics, folded from its registers' closed days: takings by period, per product, per VAT rate, and as CSV.",
  users: 'Users and their sessions: who may sign in, with which role, and to which sellers.',
  vendors: 'Software vendors and the register applications they publish.',
};
