/**
 * The way to the stage's cloud control-unit system (docs/conventions.md §27): an XML document POSTed to its signing
 * server (`TCS_URL` + `/tcsserver`) or its enrollment service (`IDM_URL` + `/api/EnrollCCU.php`), as Infrasec's public
 * .NET client posts them (MewsSystems/fiscalizations, src/Sweden). In AWS the connection is TLS with the client
 * certificate the stage keeps in SSM Parameter Store (`CLOUD_CERTIFICATE_PARAMETER`, a SecureString of
 * `{"pfx": <base64 PKCS#12>, "passphrase": ...}`), read once per process, never logged; locally the stand-in speaks
 * plain HTTP (infra/local/cloud-unit.ts).
 */
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { config } from '#shared/config.ts';

/** The system's two services, where each is and how its client labels the body. */
const SERVICES = {
  tcs: { base: () => config().tcsUrl, path: '/tcsserver', contentType: 'application/xml; charset=utf-8' },
  idm: { base: () => config().idmUrl, path: '/api/EnrollCCU.php', contentType: 'application/xml' },
} as const;
export type CloudService = keyof typeof SERVICES;

/** An answer as it came: the HTTP status and the body's text. */
export interface CloudAnswer {
  status: number;
  body: string;
}

/** Whether the stage names a cloud system: both its URLs. */
export const cloudSystemNamed = (): boolean => config().tcsUrl !== undefined && config().idmUrl !== undefined;

/** The most of an answer read; the system's documents are a few hundred bytes. */
const MAX_ANSWER_BYTES = 65_536;

interface ClientCertificate {
  pfx: Buffer;
  passphrase: string | undefined;
}

let certificate: Promise<ClientCertificate | undefined> | undefined;

/**
 * The client certificate, read from SSM on first call and kept for the process. A handler calls it at Init, so a kd's
 * first request finds it read; unset, there is none (the local stand-in).
 */
export function cloudCertificate(): Promise<ClientCertificate | undefined> {
  certificate ??= readCertificate();
  // A failed read is tried again by the next request rather than kept.
  certificate.catch(() => (certificate = undefined));
  return certificate;
}

/** Starts reading the certificate at Init when the stage signs over TLS, so no kd waits for SSM; a failure waits for a request. */
export function preloadCloudCertificate(): void {
  if (process.env.TCS_URL?.startsWith('https:') && process.env.CLOUD_CERTIFICATE_PARAMETER) {
    cloudCertificate().catch(() => undefined);
  }
}

async function readCertificate(): Promise<ClientCertificate | undefined> {
  const name = config().cloudCertificateParameter;
  if (name === undefined) return undefined;
  const sdk = await import('./ssm-sdk.ts');
  const client = new sdk.SSMClient({ region: config().region });
  const answer = await client.send(new sdk.GetParameterCommand({ Name: name, WithDecryption: true }));
  const parsed: unknown = JSON.parse(answer.Parameter?.Value ?? '{}');
  const { pfx, passphrase } = (typeof parsed === 'object' && parsed !== null ? parsed : {}) as Record<string, unknown>;
  if (typeof pfx !== 'string') throw new Error(`The SSM parameter ${name} holds no "pfx"`);
  return { pfx: Buffer.from(pfx, 'base64'), passphrase: typeof passphrase === 'string' ? passphrase : undefined };
}

/**
 * POSTs `document` to one of the system's services; rejects when the connection fails, the answer is larger than
 * any document of the system, or `signal` aborts (the kd's deadline).
 */
export async function postToCloud(service: CloudService, document: string, signal: AbortSignal): Promise<CloudAnswer> {
  const { base, path, contentType } = SERVICES[service];
  const root = base();
  if (root === undefined) throw new Error(`The stage names no cloud control-unit system (${service.toUpperCase()}_URL)`);
  const url = new URL(`${root.replace(/\/$/, '')}${path}`);
  const tls = url.protocol === 'https:';
  const client = tls ? await cloudCertificate() : undefined;
  const body = Buffer.from(document, 'utf8');
  return new Promise<CloudAnswer>((resolve, reject) => {
    const options = {
      method: 'POST',
      signal,
      headers: { 'content-type': contentType, 'content-length': body.length, 'user-agent': 'cash-register-backend' },
      ...(client ? { pfx: client.pfx, passphrase: client.passphrase } : {}),
    };
    const sent = (tls ? httpsRequest : httpRequest)(url, options, (response) => {
      const chunks: Buffer[] = [];
      let size = 0;
      response.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size > MAX_ANSWER_BYTES) response.destroy(new Error(`The ${service} answer is above ${MAX_ANSWER_BYTES} bytes`));
        else chunks.push(chunk);
      });
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
      response.on('error', reject);
    });
    sent.on('error', reject);
    sent.end(body);
  });
}
