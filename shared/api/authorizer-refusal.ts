/**
 * How a refused credential reaches the client through API Gateway. A REQUEST authorizer can only throw
 * "Unauthorized" (API Gateway answers its UNAUTHORIZED gateway response, which sees nothing of the authorizer) or
 * return a Deny policy with a context (its ACCESS_DENIED gateway response, whose template can read that context).
 * So the authorizer throws only when it sees no credential at all, and denies every other refusal with the
 * refusal's code and message in its context; the stack answers both as 401 with these templates, and the local
 * server renders the same templates.
 */

/** The context keys of a Deny: `code` and `message` of the refusal. */
export interface RefusalContext {
  code: string;
  message: string;
}

/** `serverTime` is API Gateway's time of the request (ms), so a client can see its clock's skew. */
const refusalTail = ',"serverTime":$context.requestTimeEpoch,"requestId":"$context.requestId"}';

/** The body of API Gateway's UNAUTHORIZED answer: the authorizer saw no credential. */
export const MISSING_CREDENTIAL_TEMPLATE =
  '{"success":false,"code":"CREDENTIALS_MISSING","message":"No credential: send X-Api-Key, the username, timestamp ' +
  'and hash parameters, or the session cookie"' +
  refusalTail;

/** The body of API Gateway's ACCESS_DENIED answer: the refusal the authorizer named in its Deny's context. */
export const DENIED_CREDENTIAL_TEMPLATE =
  '{"success":false,"code":"$context.authorizer.code","message":"$context.authorizer.message"' + refusalTail;

/** A context value is pasted into the template as it is: it must hold nothing JSON would have to escape. */
export const isTemplateSafe = (text: string): boolean =>
  ![...text].some((char) => char === '"' || char === '\\' || char.charCodeAt(0) < 0x20);

/** What API Gateway does with a template: every `$context.<name>` replaced by its value. */
export const renderGatewayTemplate = (template: string, context: Readonly<Record<string, string | number>>): string =>
  template.replace(/\$context\.([A-Za-z]+(?:\.[A-Za-z]+)?)/g, (_, name: string) => String(context[name] ?? ''));
