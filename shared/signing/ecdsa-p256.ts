/**
 * The signature scheme of the service's key (docs/conventions.md §11, §19): ECDSA P-256 over SHA-256, the
 * signature DER-encoded and sent as base64. Needs only `node:crypto`, so the offline verifiers that use it
 * (activation codes, e-journals) can be copied with this file alone.
 */
import { createPublicKey, type KeyObject, verify } from 'node:crypto';

const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/** Why `signature` is not the key's signature of `text` (`signed` names what it signs), or undefined when it is. */
export function verifyEcdsaP256(text: string, signature: string, publicKeyPem: string, signed: string): string | undefined {
  if (signature === '' || !BASE64.test(signature)) return 'signature is not base64';
  let key: KeyObject;
  try {
    key = createPublicKey(publicKeyPem);
  } catch {
    return 'public key is not a PEM public key';
  }
  if (key.asymmetricKeyType !== 'ec' || key.asymmetricKeyDetails?.namedCurve !== 'prime256v1') {
    return 'public key is not an EC P-256 key';
  }
  let matches = false;
  try {
    matches = verify('sha256', Buffer.from(text, 'utf8'), { key, dsaEncoding: 'der' }, Buffer.from(signature, 'base64'));
  } catch {
    // A signature that is not well-formed DER is as wrong as one that does not match.
  }
  return matches ? undefined : `signature does not match ${signed}`;
}
