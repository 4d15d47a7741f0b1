import type { APIGatewayProxyEvent, APIGatewayProxyResult } from 'aws-lambda';
import { referenceAnswers, servingUrlOf, type BuiltReference } from '../../shared/api/openapi/published-reference';

/** Servers a container answers for: the stage URL and a custom domain or two; more is no reason to grow. */
const MAX_SERVERS = 8;

/**
 * The reference for whichever server a partner reads it on: the built page and document, their placeholder
 * replaced by that server's URL, kept per server by the container.
 */
export const createReferenceHandler = (built: BuiltReference) => {
  const answers = new Map<string, Record<string, APIGatewayProxyResult>>();
  return async (event: APIGatewayProxyEvent): Promise<APIGatewayProxyResult> => {
    const serverUrl = servingUrlOf(event);
    let forServer = answers.get(serverUrl);
    if (!forServer) {
      forServer = referenceAnswers(built, serverUrl);
      if (answers.size < MAX_SERVERS) answers.set(serverUrl, forServer);
    }
    const answer = forServer[event.resource]!;
    return event.httpMethod === 'HEAD' ? { ...answer, body: '' } : answer;
  };
};
