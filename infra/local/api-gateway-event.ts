import type { APIGatewayProxyEvent, APIGatewayRequestAuthorizerEvent, Context } from 'aws-lambda';
import { randomUUID } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import { gatewayResourcePath, matchPath } from '../../shared/api/path-template';
import type { Route } from '../../shared/api/route-table';
import { dictionary } from '../../shared/domain/dictionary';

export const LOCAL_STAGE = 'local';
const ACCOUNT_ID = '000000000000';
const API_ID = 'local';

export interface IncomingRequest {
  method: string;
  url: URL;
  headers: IncomingHttpHeaders;
  body: string;
  sourceIp: string;
  receivedAt: Date;
  /** The id API Gateway gives the request; the local server makes one per request. */
  requestId: string;
}

const headerMaps = (headers: IncomingHttpHeaders) => {
  const single = dictionary<string>();
  const multi = dictionary<string[]>();
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined) continue;
    const list = Array.isArray(value) ? value : [value];
    multi[name] = list;
    single[name] = list[list.length - 1] ?? '';
  }
  return { single, multi };
};

const queryMaps = (url: URL) => {
  if (url.search === '' || url.search === '?') return { single: null, multi: null };
  const single = dictionary<string>();
  const multi = dictionary<string[]>();
  for (const [name, value] of url.searchParams) {
    multi[name] = [...(multi[name] ?? []), value];
    single[name] = value;
  }
  return { single, multi };
};

/** A REST API (v1) Lambda proxy event, as API Gateway builds it for `route`. */
export const buildProxyEvent = (request: IncomingRequest, route: Route): APIGatewayProxyEvent => {
  const resource = gatewayResourcePath(route.path);
  const path = request.url.pathname;
  const headers = headerMaps(request.headers);
  const query = queryMaps(request.url);
  const pathParameters = matchPath(resource, path) ?? {};
  return {
    resource,
    path,
    httpMethod: request.method,
    headers: headers.single,
    multiValueHeaders: headers.multi,
    queryStringParameters: query.single,
    multiValueQueryStringParameters: query.multi,
    pathParameters: Object.keys(pathParameters).length > 0 ? pathParameters : null,
    stageVariables: null,
    body: request.body === '' ? null : request.body,
    isBase64Encoded: false,
    requestContext: {
      accountId: ACCOUNT_ID,
      apiId: API_ID,
      authorizer: null,
      httpMethod: request.method,
      identity: {
        accessKey: null,
        accountId: null,
        apiKey: null,
        apiKeyId: null,
        caller: null,
        clientCert: null,
        cognitoAuthenticationProvider: null,
        cognitoAuthenticationType: null,
        cognitoIdentityId: null,
        cognitoIdentityPoolId: null,
        principalOrgId: null,
        sourceIp: request.sourceIp,
        user: null,
        userAgent: headers.single['user-agent'] ?? null,
        userArn: null,
      },
      path: `/${LOCAL_STAGE}${path}`,
      protocol: 'HTTP/1.1',
      requestId: request.requestId,
      requestTimeEpoch: request.receivedAt.getTime(),
      resourceId: API_ID,
      resourcePath: resource,
      stage: LOCAL_STAGE,
    },
  };
};

/** The REQUEST authorizer event API Gateway sends for the same request: no body, ever. */
export const buildAuthorizerEvent = (event: APIGatewayProxyEvent): APIGatewayRequestAuthorizerEvent => ({
  type: 'REQUEST',
  methodArn: `arn:aws:execute-api:local:${ACCOUNT_ID}:${API_ID}/${LOCAL_STAGE}/${event.httpMethod}${event.resource}`,
  resource: event.resource,
  path: event.path,
  httpMethod: event.httpMethod,
  headers: event.headers,
  multiValueHeaders: event.multiValueHeaders,
  pathParameters: event.pathParameters,
  queryStringParameters: event.queryStringParameters,
  multiValueQueryStringParameters: event.multiValueQueryStringParameters,
  stageVariables: event.stageVariables,
  requestContext: { ...event.requestContext, authorizer: undefined },
});

export const lambdaContext = (functionName: string, timeoutMs: number): Context => {
  const deadline = Date.now() + timeoutMs;
  return {
    callbackWaitsForEmptyEventLoop: false,
    functionName,
    functionVersion: '$LATEST',
    invokedFunctionArn: `arn:aws:lambda:local:${ACCOUNT_ID}:function:${functionName}`,
    memoryLimitInMB: '512',
    awsRequestId: randomUUID(),
    logGroupName: `/aws/lambda/${functionName}`,
    logStreamName: 'local',
    getRemainingTimeInMillis: () => Math.max(0, deadline - Date.now()),
    done: () => undefined,
    fail: () => undefined,
    succeed: () => undefined,
  };
};
