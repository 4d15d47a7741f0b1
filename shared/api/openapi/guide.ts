import { codesOfStatus } from '../error-codes';
import { SESSION_COOKIE } from '../session-cookie';

/** The document's introduction, in Markdown: what a partner needs before the first call. */
export const API_GUIDE = `Caps on impressions, clicks, conversions, opportunities, requests and budget, per day, ISO week, month and in
total, for advertisers, campaigns, banners, sites and placements; per-action (goal) conversion caps; the
authentication in front of them. Counters are fresh within seconds.

# Authentication

Every endpoint outside \`/rest-api/auth/\` needs one of three credentials, checked in this order:

1. **API key**: the header \`X-Api-Key: <key>\`. Keys are issued by the operator.
2. **Epom hash**: the parameters \`username\`, \`timestamp\` (Unix milliseconds, within 5 minutes of the server
   clock) and \`hash = md5hex(md5hex(password) + timestamp)\`, in the query string or the form body.
   Worked example: user \`demo\`, password \`demo-password\`, timestamp \`1781092800000\`:
   \`md5hex("demo-password")\` = \`4b4d9529148d8d9440d7e20c78287f69\`, so the hash is
   \`md5hex("4b4d9529148d8d9440d7e20c78287f691781092800000")\` = \`86b6b8442e7d092d3b0f8c03754125f7\`.
   One hash may serve several requests (a write and the read after it); the same \`POST\` or \`DELETE\` sent again
   with it is refused (401 \`REQUEST_REPLAYED\`), so a captured write cannot be applied twice: to repeat a write on
   purpose, sign it with a new timestamp (a client that signs whole seconds, as the Epom gem does, waits for the
   next second).
3. **Session**: \`POST /rest-api/auth/token.do\` with \`username\` and \`password\` answers an \`authToken\` (valid
   60 seconds, once); \`GET /rest-api/auth/{authToken}/login.do\` opens an 8-hour session in the cookie
   \`${SESSION_COOKIE}\` (\`HttpOnly; Secure; SameSite=Lax\`). A password reset ends every older session.

A refused credential is a **401** whose \`code\` says what to fix: ${codesOfStatus('401', ['UNAUTHENTICATED'])}
(the ErrorEnvelope schema explains each; \`serverTime\` is the server's time in milliseconds). A credential that is
revoked stops working within 60 seconds.

**Usage plans.** Each partner is metered under its own API Gateway usage plan (rate, burst and daily quota): an
API-key caller by its key, a hash or session caller by the metering key on its profile; a partner signing in the
form body by the service, after its hash is verified, with a keyed partner's numbers. Over the rate or the quota the
answer is **429** \`RATE_LIMITED\`; retry after a pause, with backoff. A **503** carries \`Retry-After\` (seconds):
nothing was changed, and the same request may be sent again.

# Requests

- Parameters come in the query string or an \`application/x-www-form-urlencoded\` body (the body wins). JSON
  bodies are not read.
- Arrays (\`limitCounters\`, \`ids\`, \`campaignIds\`, \`bannerIds\`) may be comma-separated (\`a,b\`), repeated
  (\`name=a&name=b\`), or bracketed (\`name[]=a\`, \`name[0]=a\`).
- Booleans accept \`true/false\`, \`1/0\`, \`yes/no\` and \`on/off\`, in any case.
- Dates are \`yyyy-MM-dd-HH-mm\` (or \`yyyy-MM-dd HH:mm\`), UTC unless \`useLocalTime\` with \`timezoneOffset\`.
- A cap of \`0\` means uncapped. Writes merge: a cap left out keeps its stored value.

# Errors

Every error is \`{"success": false, "code": "…", "message": "…", "errors": {"<parameter>": "<why>"}}\`: 400 bad
input (nothing was changed), 401 credentials, 403 not allowed (\`permission\` names the permission when one is
missing), 404 unknown entity or no record, 405 wrong method, 413 body over 1 MiB, 429 over the usage plan, 503
retry after \`Retry-After\`. \`code\` is stable and meant for programs (the ErrorEnvelope schema lists every
code); \`message\` is for people. Every answer carries \`X-Request-Id\`, and every error body the same
\`requestId\`: quote it when asking the operator.

# Beyond the basics

- **Dry runs**: \`dryRun=true\` on every write (set, update, reset, delete, and per-action add, update, delete, enable
  and disable) runs every check and answers what the write would, plus \`"dryRun": true\`; nothing changes (no
  history, no queued reset).
- **Pacing and forecast**: \`status.do\` answers \`pacing\`: per cap, what even pacing expects by now, the pace, the
  rate, the projection to the period end and when the cap will be reached.
- **Change history**: \`history.do\` answers who changed the limits, when and how, newest first, in pages.
`;
