/**
 * What a kd comes to (docs/conventions.md §25), pure: the bridge's state before anything is sent, the reply (or its
 * absence) after, and the answer each gives the register.
 */
import { controlUnitCommunication, controlUnitReceipt, controlUnitUnavailable, requiresSetup } from '#shared/errors.ts';
import type { Reply } from '#shared/http/types.ts';
import type { BridgeRecord, BridgeStatusMessage, KdReplyMessage } from '#shared/kd/protocol.ts';
import type { KdLogOutcome } from '#shared/fiscal/model.ts';

/** An outcome as the Kd log, the e-journal and the answer use it. */
export interface KdResult {
  outcome: KdLogOutcome;
  /** The unit's return code when it answered. */
  returnCode: number | null;
  /** The control code when SIGNED. */
  controlCode: string | null;
  /** What went wrong, for a person; null when SIGNED. */
  message: string | null;
}

export const signed = (controlCode: string): KdResult => ({ outcome: 'SIGNED', returnCode: 0, controlCode, message: null });

/**
 * Why nothing may be sent to the unit now: its bridge was never provisioned or has never connected (REQUIRES_SETUP),
 * or its last status says it went offline (OFFLINE). Undefined when the bridge is up as far as the service knows.
 */
export function bridgeRefusal(bridge: BridgeRecord | undefined, seen: BridgeStatusMessage | undefined): KdResult | undefined {
  if (!bridge || !seen) {
    const message = bridge
      ? "The control unit's edge bridge has never connected"
      : "The control unit's edge bridge is not provisioned";
    return { outcome: 'REQUIRES_SETUP', returnCode: null, controlCode: null, message };
  }
  if (!seen.online) {
    return { outcome: 'OFFLINE', returnCode: null, controlCode: null, message: "The control unit's edge bridge is offline" };
  }
  return undefined;
}

/** The outcome of a request: its reply, or none by the deadline (undefined). */
export function replyResult(reply: KdReplyMessage | undefined): KdResult {
  if (!reply) {
    return { outcome: 'TIMEOUT', returnCode: null, controlCode: null, message: 'No reply from the control unit by the deadline' };
  }
  const detail = reply.detail === null ? '' : `: ${reply.detail}`;
  if (reply.outcome === 'UNAVAILABLE') {
    return { outcome: 'UNAVAILABLE', returnCode: null, controlCode: null, message: `The control unit did not answer${detail}` };
  }
  if (reply.outcome === 'COMMUNICATION') {
    return {
      outcome: 'COMMUNICATION',
      returnCode: null,
      controlCode: null,
      message: `The line to the control unit garbled the exchange${detail}`,
    };
  }
  if (reply.returnCode === 0 && reply.controlCode !== null) return signed(reply.controlCode);
  return {
    outcome: 'REFUSED',
    returnCode: reply.returnCode,
    controlCode: null,
    message: `The control unit refused the receipt with return code ${String(reply.returnCode)}${detail}`,
  };
}

/** A request the bridge never got: the broker did not take it before the deadline. */
export const unpublished: KdResult = {
  outcome: 'UNAVAILABLE',
  returnCode: null,
  controlCode: null,
  message: "The request could not be handed to the control unit's edge bridge",
};

/** The register's answer: `201 {response, controlUnitSerial}` when signed, otherwise the outcome's exception (thrown). */
export function answer(result: KdResult, controlUnitSerial: string): Reply {
  const message = result.message ?? '';
  switch (result.outcome) {
    case 'SIGNED':
      return { status: 201, body: { response: result.controlCode, controlUnitSerial } };
    case 'REFUSED':
      throw controlUnitReceipt(message, { returnCode: result.returnCode, controlUnitSerial });
    case 'COMMUNICATION':
      throw controlUnitCommunication(message, { controlUnitSerial });
    case 'REQUIRES_SETUP':
      throw requiresSetup(message);
    case 'UNAVAILABLE':
    case 'TIMEOUT':
    case 'OFFLINE':
      throw controlUnitUnavailable(message, { controlUnitSerial });
  }
}
