/**
 * TLS material for `mode = "https"`: a PKCS#12 keystore (key + certificate chain) and a password file whose
 * first line is the password. Node's TLS reads PKCS#12 natively (`pfx`).
 */
import { readFileSync } from 'node:fs';
import { createSecureContext, type SecureContextOptions } from 'node:tls';
import type { CertificateConfig } from '../node/config.js';
import { ConfigError } from '../node/config.js';

export function loadTlsOptions(certificate: CertificateConfig): SecureContextOptions {
  let pfx: Buffer;
  try {
    pfx = readFileSync(certificate.keystorePath);
  } catch (err) {
    throw new ConfigError(`cannot read keystore ${certificate.keystorePath}: ${(err as Error).message}`);
  }
  let passphrase: string | undefined;
  if (certificate.passwordFile) {
    try {
      passphrase = readFileSync(certificate.passwordFile, 'utf8').split(/\r?\n/, 1)[0];
    } catch (err) {
      throw new ConfigError(
        `cannot read keystore password file ${certificate.passwordFile}: ${(err as Error).message}`,
      );
    }
  }
  const options: SecureContextOptions = { pfx, passphrase };
  try {
    // Fail at start-up with a clear message, not at the first TLS handshake.
    createSecureContext(options);
  } catch (err) {
    throw new ConfigError(`cannot use keystore ${certificate.keystorePath}: ${(err as Error).message}`);
  }
  return options;
}
