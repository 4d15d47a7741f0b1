import { describe, expect, it } from 'vitest';
import { postForm } from '../support/http';
import { scanTable, startTestService } from '../support/local-service';

const passwordHashes = async (service: Awaited<ReturnType<typeof startTestService>>) =>
  new Map(
    (await scanTable(service))
      .filter((item) => item.SK === 'PROFILE')
      .map((item) => [String(item.username), String(item.passwordHash)]),
  );

describe('the demo catalog loaded by two services of one process', () => {
  it('gives each user the hash it got in the first, no two users the same, and both sign in', async () => {
    const first = await startTestService();
    const second = await startTestService();
    try {
      const [one, two] = await Promise.all([passwordHashes(first), passwordHashes(second)]);
      expect(one.size).toBeGreaterThan(1);
      expect(two).toEqual(one);
      expect(new Set(one.values()).size).toBe(one.size);
      for (const hash of one.values()) expect(hash).toMatch(/^scrypt\$16384\$8\$1\$/);
      for (const service of [first, second]) {
        const response = await postForm(`${service.url}/rest-api/auth/token.do`, {
          username: 'demo',
          password: 'demo-password',
        });
        expect(response.status).toBe(200);
      }
    } finally {
      await Promise.all([first.stop(), second.stop()]);
    }
  });
});
