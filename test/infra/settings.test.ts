import { readFileSync } from 'node:fs';
import { App } from 'aws-cdk-lib';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SettingError, stackProps } from '../../infra/cdk/app';
import { PRODUCTION_CONTEXT, PRODUCTION_DOMAIN } from './template';

const SEED = Number(process.env.FC_SEED ?? Date.now() % 2 ** 31);

/** Every numeric setting of the operations guide's table, with the whole numbers it takes. */
const NUMBER_SETTINGS: Record<
  string,
  { least: number; most?: number; optional?: true; besides?: Record<string, string> }
> = {
  rateLimit: { least: 1 },
  burstLimit: { least: 1 },
  quotaPerDay: { least: 1 },
  formBodyPartners: { least: 1 },
  anonymousRateLimit: { least: 1 },
  anonymousBurstLimit: { least: 1 },
  anonymousQuotaPerDay: { least: 1, optional: true },
  // AWS WAF takes a rate-based rule's limit from 10 to 2,000,000,000
  wafRateLimitPerIp: { least: 10, most: 2_000_000_000 },
  wafRequestsPerIp: { least: 10, most: 2_000_000_000 },
  deliveryEventsPerSecond: { least: 1 },
  eventsPerMessage: { least: 1 },
  writeUnitsPerBatch: { least: 1 },
  apiRequestsPerSecond: { least: 1 },
  stageRateLimit: { least: 1 },
  stageBurstLimit: { least: 1 },
  maxWriteRequestUnits: { least: 1, optional: true },
  maxReadRequestUnits: { least: 1, optional: true },
  // Lambda takes an SQS event source's maximum concurrency from 2 to 1,000
  deliveryMaxConcurrency: { least: 2, most: 1000 },
  futureToleranceSeconds: { least: 0 },
  // given empty, the account's quota is asked for by a message of its own
  accountConcurrencyLimit: { least: 1, optional: true, besides: { reservedConcurrency: 'true' } },
  recorderReservedConcurrency: {
    least: 1,
    optional: true,
    besides: { reservedConcurrency: 'true', accountConcurrencyLimit: '5000' },
  },
};

const BOOLEAN_SETTINGS = ['production', 'reservedConcurrency', 'tracing', 'sourceMaps', 'apiGatewayAccountRole'];

/** What synth says of the settings: the props, or the reason it stops. */
const propsOf = (context: Record<string, string>) => {
  try {
    return { props: stackProps(new App({ context })) };
  } catch (error) {
    if (!(error instanceof SettingError)) throw error;
    return { refusal: error.message };
  }
};

const isWholeNumberWithin = (value: string, { least, most }: { least: number; most?: number }) =>
  /^(0|[1-9]\d*)$/.test(value) &&
  Number.isSafeInteger(Number(value)) &&
  Number(value) >= least &&
  (most === undefined || Number(value) <= most);

describe('the context settings', () => {
  it(`stop synth on a numeric setting that is not a whole number within its bounds, naming it (seed ${SEED})`, () => {
    const value = fc.oneof(
      fc.constantFrom('lots', '', ' 5', '5 ', '1.5', '-2', '0', '1', '2', '9', '10', '1e3', '0x10', '007', 'NaN'),
      fc.constantFrom('1000', '1001', '2000000000', '2000000001', '9007199254740993', 'Infinity', '+5'),
      fc.integer({ min: -5, max: 3000 }).map(String),
      fc.string({ maxLength: 6 }),
    );
    fc.assert(
      fc.property(fc.constantFrom(...Object.keys(NUMBER_SETTINGS)), value, (key, given) => {
        const setting = NUMBER_SETTINGS[key]!;
        const { refusal } = propsOf({ ...setting.besides, [key]: given });
        const namedRefusal = refusal?.startsWith(`-c ${key}=${given} must be a`) ?? false;
        // a value within its bounds may still contradict another setting, which synth names instead
        const notGiven = given === '' && setting.optional === true;
        expect(namedRefusal).toBe(!notGiven && !isWholeNumberWithin(given, setting));
      }),
      { seed: SEED, numRuns: 1500 },
    );
  });

  it("stop synth on a setting the stack does not read, naming it, and let the CDK's own keys through", () => {
    expect(propsOf({ bogusKey: '1' }).refusal).toBe(
      '-c bogusKey=1: the stack reads no such setting with these settings; check the name against docs/operations.md, "Context settings"',
    );
    expect(propsOf({ ratelimit: '60', stageName: 'prod' }).refusal).toMatch(
      /^-c ratelimit=60, -c stageName=prod: the stack reads no such settings/,
    );
    // the recorder's reservation is read only when reserving
    expect(propsOf({ recorderReservedConcurrency: '20' }).refusal).toMatch(/^-c recorderReservedConcurrency=20: /);
    expect(
      propsOf({ '@aws-cdk/core:newStyleStackSynthesis': 'true', 'aws:cdk:enable-path-metadata': 'true' }).props,
    ).toBeDefined();
  });

  it('reach the stack as the numbers given', () => {
    const { props } = propsOf({
      rateLimit: '60',
      formBodyPartners: '3',
      anonymousQuotaPerDay: '7000',
      futureToleranceSeconds: '0',
      wafRateLimitPerIp: '10',
      deliveryMaxConcurrency: '1000',
      reservedConcurrency: 'true',
      accountConcurrencyLimit: '5000',
    });
    expect(props).toMatchObject({
      defaultThrottle: { rateLimit: 60 },
      anonymousThrottle: { rateLimit: 300 * 3 },
      anonymousQuotaPerDay: 7000,
      futureToleranceSeconds: 0,
      credentialLessPerIpLimit: 10,
      requestsPerIpLimit: 20,
      deliveryMaxConcurrency: 1000,
    });
    expect(props!.reservedConcurrency!['delivery-recorder']).toBe(1000);
  });

  it('stop synth on a switch that is neither true nor false, rather than taking it as false', () => {
    for (const key of BOOLEAN_SETTINGS) {
      for (const given of ['yes', 'True', '1', ' true'])
        expect(propsOf({ [key]: given }).refusal, `${key}=${given}`).toBe(`-c ${key}=${given} must be true or false`);
      expect(propsOf({ [key]: 'false' }).refusal, key).toBeUndefined();
    }
    expect(propsOf({ tracing: 'true', sourceMaps: 'true' }).props).toMatchObject({ tracing: true, sourceMaps: true });
  });

  it('take browser origins exactly as a browser sends them, and refuse anything the functions could never match', () => {
    expect(
      propsOf({ corsOrigins: 'https://ui.limits.test, https://admin.limits.test:8443,' }).props!.corsOrigins,
    ).toEqual(['https://ui.limits.test', 'https://admin.limits.test:8443']);
    expect(propsOf({ corsOrigins: 'http://localhost:5173,http://127.0.0.1:3000' }).props!.corsOrigins).toHaveLength(2);
    expect(propsOf({}).props!.corsOrigins).toEqual([]);
    for (const origin of [
      '*',
      'https://ui.limits.test/',
      'https://ui.limits.test/app',
      'https://UI.limits.test',
      'https://ui.limits.test:443',
      'http://ui.limits.test',
      'ui.limits.test',
      'null',
    ])
      expect(propsOf({ corsOrigins: `https://admin.limits.test,${origin}` }).refusal, origin).toContain(
        `"${origin}" is not an origin as a browser sends it`,
      );
  });

  it("refuse a reset mail's sender outside the SES identity, and addresses of the wrong shape, naming the setting", () => {
    const accepted: Record<string, string>[] = [
      { mailFrom: 'no-reply@limits.test', sesIdentity: 'limits.test' },
      { mailFrom: 'no-reply@mail.limits.test', sesIdentity: 'limits.test' },
      { mailFrom: 'Ops@Limits.test', sesIdentity: 'ops@limits.test' },
      { appBaseUrl: 'http://localhost:5173/app' },
      { alarmEmail: 'oncall@limits.test', alarmTopicArn: 'arn:aws:sns:eu-west-1:123456789012:oncall' },
    ];
    for (const context of accepted) expect(propsOf(context).refusal, JSON.stringify(context)).toBeUndefined();
    const refused: [Record<string, string>, string][] = [
      [{ mailFrom: 'no-reply@limits.test', sesIdentity: 'other.test' }, '-c mailFrom=no-reply@limits.test: not within'],
      [
        { mailFrom: 'no-reply@limits.test', sesIdentity: 'ops@limits.test' },
        '-c mailFrom=no-reply@limits.test: not within',
      ],
      [
        { mailFrom: 'no-reply@notlimits.test', sesIdentity: 'limits.test' },
        '-c mailFrom=no-reply@notlimits.test: not within',
      ],
      [{ mailFrom: 'nobody' }, '-c mailFrom=nobody: not an email address'],
      [{ mailFrom: 'no-reply@limits', sesIdentity: 'limits' }, '-c mailFrom=no-reply@limits: not an email address'],
      [{ mailFrom: 'a@limits.test', sesIdentity: 'limits test' }, '-c sesIdentity=limits test: neither a domain'],
      [{ appBaseUrl: 'ui.limits.test' }, '-c appBaseUrl=ui.limits.test: not an absolute'],
      [{ appBaseUrl: 'https://ui.limits.test/?from=mail' }, '-c appBaseUrl=https://ui.limits.test/?from=mail: not an'],
      [{ appBaseUrl: 'ftp://ui.limits.test' }, '-c appBaseUrl=ftp://ui.limits.test: not an absolute'],
      [{ alarmEmail: 'oncall' }, '-c alarmEmail=oncall: not an email address'],
      [{ alarmTopicArn: 'oncall' }, '-c alarmTopicArn=oncall: not an SNS topic ARN'],
      [{ alarmTopicArn: 'arn:aws:sqs:eu-west-1:123456789012:oncall' }, '-c alarmTopicArn=arn:aws:sqs'],
    ];
    for (const [context, refusal] of refused)
      expect(propsOf(context).refusal, JSON.stringify(context)).toContain(refusal);
    expect(propsOf({ ...PRODUCTION_CONTEXT, appBaseUrl: `http://ui.${PRODUCTION_DOMAIN}` }).refusal).toBe(
      `production=true needs -c appBaseUrl=https://…: reset mails link it, and "http://ui.${PRODUCTION_DOMAIN}" is not https`,
    );
    expect(propsOf(PRODUCTION_CONTEXT).refusal).toBeUndefined();
  });

  it("refuse in production every address of a name reserved for examples, the operations guide's samples among them", () => {
    const guide = readFileSync('docs/operations.md', 'utf8');
    const sample = /npx cdk deploy --all -c stage=prod -c production=true[^`]*/.exec(guide)![0];
    const documented = Object.fromEntries(
      [...sample.matchAll(/-c (\w+)=(\S+)/g)].map(([, key, value]) => [key!, value!] as const),
    );
    expect(Object.keys(documented)).toEqual(expect.arrayContaining(['mailFrom', 'alarmEmail', 'runbookUrl']));
    expect(propsOf(documented).refusal).toMatch(/is a placeholder, a name reserved for examples/);
    const reserved = [
      'example.com',
      'limits.example.net',
      'ui.example.org',
      'limits.test',
      'a.invalid',
      'host.example',
    ];
    const asSetting: Record<string, (host: string) => string> = {
      mailFrom: (host) => `no-reply@${host}`,
      alarmEmail: (host) => `oncall@${host}`,
      appBaseUrl: (host) => `https://${host}`,
      corsOrigins: (host) => `https://${host}`,
      runbookUrl: (host) => `https://${host}/docs/operations.md`,
    };
    for (const host of reserved)
      for (const [setting, value] of Object.entries(asSetting)) {
        // the sender must lie within the SES identity, so both name the host
        const context = {
          ...PRODUCTION_CONTEXT,
          [setting]: value(host),
          ...(setting === 'mailFrom' ? { sesIdentity: host } : {}),
        };
        expect(propsOf(context).refusal, `${setting} ${host}`).toBe(
          `production=true needs -c ${setting}=…: "${value(host)}" is a placeholder, a name reserved for examples`,
        );
      }
    // in development the samples and tests keep their reserved names
    expect(propsOf({ mailFrom: 'no-reply@limits.test', sesIdentity: 'limits.test' }).refusal).toBeUndefined();
  });

  it('refuse production without a stage given, which would deploy the stacks of stage dev', () => {
    const withoutStage: Record<string, string> = { ...PRODUCTION_CONTEXT };
    delete withoutStage.stage;
    expect(propsOf(withoutStage).refusal).toBe(
      'production=true needs -c stage=<name>: without one it would deploy the stacks of stage dev',
    );
    expect(propsOf({ ...withoutStage, stage: 'dev' }).props!.stageName).toBe('dev');
  });

  it('take a stage name that can name the stack, and refuse any other by name', () => {
    expect(propsOf({}).props!.stageName).toBe('dev');
    expect(propsOf({ stage: 'live-2' }).props!.stageName).toBe('live-2');
    for (const stage of ['', 'prod stage', 'prod_1', 'live/eu', 'x'.repeat(65)])
      expect(propsOf({ stage }).refusal, stage).toBe(
        `-c stage=${stage} must be 1 to 64 letters, digits or hyphens: it names the stack`,
      );
  });
});
