/**
 * Soft limit of one snap/1 answer's payload, as other clients use (2 MiB); a peer may ask for less, never for
 * more. In a module of its own so that the node's settings read it without loading the trie library.
 */
export const SNAP_SOFT_RESPONSE_BYTES = 2 * 1024 * 1024;
