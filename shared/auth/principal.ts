import type { Feature } from './features.ts';

/** Roles of the canonical model; each API version names them its own way (see `roles.ts`). */
export type Role = 'HYPER_ADMIN' | 'SOFTWARE_VENDOR' | 'REGULAR_USER';

/** Who is calling: a user (Basic credentials) or a register's activation (X-Api-Key). */
export type Principal =
  | {
      kind: 'user';
      username: string;
      role: Role;
      softwareVendor: number | null;
      /** Sellers a regular user is connected to. */
      sellers: readonly string[];
    }
  | {
      kind: 'activation';
      activationId: number;
      /** The register: its seller and its name (the `{cash}` of its paths). */
      sellerId: string;
      cashRegisterName: string;
      /** Canonical feature names (`features.ts`). */
      features: readonly Feature[];
    };
