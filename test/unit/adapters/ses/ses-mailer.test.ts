import { SESv2Client, SendEmailCommand } from '@aws-sdk/client-sesv2';
import { mockClient } from 'aws-sdk-client-mock';
import { afterEach, describe, expect, it } from 'vitest';
import { SesMailer } from '../../../../shared/adapters/ses/ses-mailer';

const ses = mockClient(SESv2Client);
afterEach(() => ses.reset());

describe('SES mailer', () => {
  it('sends a plain-text mail from the configured sender', async () => {
    ses.on(SendEmailCommand).resolves({});
    await new SesMailer(new SESv2Client({}), 'no-reply@limits.example').send({
      to: 'a@example.com',
      subject: 'S',
      text: 'T',
    });
    expect(ses.commandCalls(SendEmailCommand)[0]!.args[0].input).toEqual({
      FromEmailAddress: 'no-reply@limits.example',
      Destination: { ToAddresses: ['a@example.com'] },
      Content: { Simple: { Subject: { Data: 'S' }, Body: { Text: { Data: 'T' } } } },
    });
  });
});
