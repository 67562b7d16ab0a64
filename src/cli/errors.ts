/** A command used the wrong way (missing --yes, no target): exit code 2, like commander's own usage errors. */
export class UsageError extends Error {
  override name = 'UsageError';
}
