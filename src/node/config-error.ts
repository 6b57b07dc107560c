/** A configuration the node refuses to start with; the command line prints its message and exits 1. */
export class ConfigError extends Error {
  override name = 'ConfigError';
}
