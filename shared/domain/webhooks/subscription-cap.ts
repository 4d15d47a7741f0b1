/** How many subscriptions one user may hold; one more is refused with a 400. */
export const MAX_SUBSCRIPTIONS_PER_USER = 10;

/** Why a user holding `count` subscriptions may not create another, or undefined when it may. */
export const subscriptionCapProblem = (count: number): string | undefined =>
  count >= MAX_SUBSCRIPTIONS_PER_USER
    ? `at most ${MAX_SUBSCRIPTIONS_PER_USER} subscriptions per user: delete one first`
    : undefined;
