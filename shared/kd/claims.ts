/**
 * The decisions on a register's kd claim (docs/conventions.md §25), pure: what a kd does given the claim as
 * read, and whether a print carries the control code the claim holds (fail closed).
 */
import { canonicalJson } from '#shared/fiscal/journal.ts';
import type { PrintType } from '#shared/fiscal/model.ts';
import type { KdRequest } from './codec.ts';
import type { KdClaim } from './records.ts';

/**
 * What a kd does about its claim:
 * - `send`: publish a new request (no claim yet, the last request failed, or one past its deadline had no reply);
 * - `replay`: the unit signed this content already: answer its control code, send nothing;
 * - `wait`: the same content is in flight: wait for that request's reply;
 * - `late`: a request past its deadline: look for its reply first (it may have come late), then decide again;
 * - `conflict`: the receipt is signed, or in flight, with other content.
 */
export type ClaimDecision =
  | { kind: 'send' }
  | { kind: 'replay'; claim: KdClaim }
  | { kind: 'wait'; claim: KdClaim }
  | { kind: 'late'; claim: KdClaim }
  | { kind: 'conflict'; claim: KdClaim };

/**
 * The print type a kd claim is kept under: a training receipt's own (`Training`), as its numbers are a series of their
 * own (docs/conventions.md §16) and its kd type is `ovning`; else the print's.
 */
export type ClaimType = PrintType | 'Training';
export const claimTypeOf = (printType: PrintType, training: boolean | null | undefined): ClaimType =>
  training === true && printType === 'Normal' ? 'Training' : printType;

export const sameCommand = (a: KdRequest, b: KdRequest) => canonicalJson(a) === canonicalJson(b);

/**
 * `lateChecked`: the correlation id whose reply the caller looked for and did not find; a claim still on that
 * request is sent again (with a new correlation id, so a reply of the old one never answers the new one).
 */
export function decideClaim(
  claim: KdClaim | undefined,
  command: KdRequest,
  now: number,
  lateChecked: string | undefined,
): ClaimDecision {
  if (!claim || claim.state === 'FAILED') return { kind: 'send' };
  if (claim.state === 'SIGNED')
    return sameCommand(claim.command, command) ? { kind: 'replay', claim } : { kind: 'conflict', claim };
  if (now <= claim.deadline) return sameCommand(claim.command, command) ? { kind: 'wait', claim } : { kind: 'conflict', claim };
  return claim.correlationId === lateChecked ? { kind: 'send' } : { kind: 'late', claim };
}

/** Why a print's control code is not one the service holds for it, or undefined when it is. */
export function controlCodeProblem(
  claim: KdClaim | undefined,
  print: { printType: PrintType; controlNumber?: string | null },
  sale: { brutto: number; refund: boolean },
): string | undefined {
  if (!print.controlNumber) return `The ${print.printType} print carries no control code`;
  if (!claim || claim.state !== 'SIGNED') return `No control unit has signed this ${print.printType} print's receipt number`;
  if (claim.controlCode !== print.controlNumber) return `The control code is not the one the control unit gave this receipt`;
  const amount = sale.refund ? claim.command.returnAmount : claim.command.salesAmount;
  const other = sale.refund ? claim.command.salesAmount : claim.command.returnAmount;
  if (amount !== sale.brutto || other !== 0) return 'The control unit signed another amount for this receipt number';
  return undefined;
}
