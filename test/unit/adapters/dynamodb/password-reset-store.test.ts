import { describe } from 'vitest';
import {
  changePasswordTransaction,
  claimResetMailRequest,
  newestResetTokenRequest,
  releaseResetMailRequest,
} from '../../../../shared/adapters/dynamodb/password-reset-store';
import { resetTokenKey } from '../../../../shared/table/keys';
import { itBuildsRequestsDynamoDbTakes } from '../../../support/store-requests';

describe("the password reset store's requests", () => {
  itBuildsRequestsDynamoDbTakes([
    ['a reset mail claimed', claimResetMailRequest({ PK: 'R', SK: 'H' }, { now: 5, cutoff: 1, expiresAt: 9 })],
    ['a reset mail released', releaseResetMailRequest({ PK: 'R', SK: 'H' }, 5)],
    ['the newest reset token named', newestResetTokenRequest(1, 'd')],
    [
      'a password changed',
      changePasswordTransaction('t', {
        tokenKey: resetTokenKey('d'),
        digest: 'd',
        userId: 1,
        passwordHash: 'h',
        verifier: 'v',
        now: 5,
      }),
    ],
  ]);
});
