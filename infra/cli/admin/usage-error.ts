// An operator's mistake (a bad argument, an unknown user, a key that may not be retired yet): the admin
// CLI prints its one-line message and exits 2, having changed nothing.
export class UsageError extends Error {
  override name = 'UsageError';
}
