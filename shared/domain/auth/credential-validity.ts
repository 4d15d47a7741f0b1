/** What decides whether a session or a login token still stands: the account's state now. */
export interface AccountState {
  active?: boolean;
  /** Credentials issued before this instant (ms), the last password reset, no longer stand. */
  sessionsValidAfter?: number;
}

/**
 * A session or one-time login token stands only while its user is active and only if it was issued at or after the
 * user's last password reset. One rule for both, so that a reset or a deactivation ends every credential at once.
 */
export const credentialStands = (account: AccountState | undefined, issuedAt: number): boolean =>
  account?.active === true && issuedAt >= (account.sessionsValidAfter ?? 0);
