/**
 * Typed failures of the account layer. Messages are the reference node's wording (the RPC layer
 * forwards them as -32000 texts) and never carry a passphrase, a key or key-derived material.
 */
export type AccountErrorKind =
  | 'passphrase-too-short'
  | 'wrong-passphrase'
  | 'no-key'
  | 'account-exists'
  | 'account-locked'
  | 'invalid-key'
  | 'invalid-signature'
  | 'invalid-duration'
  | 'bad-keystore-file';

export class AccountError extends Error {
  constructor(
    readonly kind: AccountErrorKind,
    message: string,
  ) {
    super(message);
    this.name = 'AccountError';
  }
}

export const passphraseTooShort = (minLength: number) =>
  new AccountError('passphrase-too-short', `Provided passphrase must have at least ${minLength} characters`);

export const wrongPassphrase = () =>
  new AccountError('wrong-passphrase', 'Could not decrypt key with given passphrase');

export const noKeyFound = () => new AccountError('no-key', 'No key found for the given address');

export const accountExists = () => new AccountError('account-exists', 'account already exists');

export const accountLocked = () => new AccountError('account-locked', 'account is locked or unknown');

export const invalidPrivateKey = () =>
  new AccountError('invalid-key', 'Invalid key provided, expected 32 bytes (64 hex digits)');

export const invalidSignature = (why: string) => new AccountError('invalid-signature', why);

export const invalidDuration = () =>
  new AccountError('invalid-duration', 'Unlock duration must be a non-negative number of seconds');

/** `why` must describe the file's structure only (never its contents beyond field names). */
export const badKeystoreFile = (why: string) =>
  new AccountError('bad-keystore-file', `Unsupported keystore file: ${why}`);
