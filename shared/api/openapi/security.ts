import { SESSION_COOKIE } from '../session-cookie';

export const SECURITY = [{ apiKey: [] }, { hashUsername: [], hashTimestamp: [], hash: [] }, { session: [] }];

/**
 * The hash parameters may also come in a form body, where OpenAPI can place no credential: the gateway lets such
 * a request through and the service authenticates it from the body. `{}` is that alternative, and says so.
 */
export const BODY_SIGNED =
  '\n\n**Credentials**: `X-Api-Key`, the hash parameters in the query string, or the session cookie; or the hash parameters (`username`, `timestamp`, `hash`) in the form body, which the service checks itself: that is the empty alternative `{}` of `security`, since OpenAPI has no scheme for a credential in a body. A request with no credential anywhere answers 401.';

export const SECURITY_SCHEMES = {
  apiKey: { type: 'apiKey', in: 'header', name: 'X-Api-Key', description: 'An API key issued by the operator' },
  hashUsername: {
    type: 'apiKey',
    in: 'query',
    name: 'username',
    description: 'Epom hash authentication: the user name',
  },
  hashTimestamp: {
    type: 'apiKey',
    in: 'query',
    name: 'timestamp',
    description: 'Unix milliseconds, within 5 minutes of the server clock, once per user',
  },
  hash: {
    type: 'apiKey',
    in: 'query',
    name: 'hash',
    description:
      'md5hex(md5hex(password) + timestamp), for example 86b6b8442e7d092d3b0f8c03754125f7 for demo / demo-password at 1781092800000; the three may also come in a form body',
  },
  session: {
    type: 'apiKey',
    in: 'cookie',
    name: SESSION_COOKIE,
    description: 'The session cookie set by login.do after token.do; 8 hours',
  },
};
