/**
 * The shape of an EIP-1459 tree URL, `enrtree://<base32 public key>@<domain>`, apart from the walker so the
 * configuration can check it at start without loading the walker's crypto.
 */
export const TREE_URL = /^enrtree:\/\/([A-Z2-7]+)@([a-zA-Z0-9.-]+)$/;
