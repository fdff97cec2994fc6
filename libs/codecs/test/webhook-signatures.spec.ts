import { Webhook } from 'standardwebhooks';
import { webhookSignature, webhookSignatureHeaders } from '../src';

describe('webhook signatures (spec 6.3, api-decisions §8)', () => {
  it('reproduces the published vector', () => {
    expect(webhookSignature('whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw', 'msg_p5jXN8AQM9LWM0D4loKWxJek', 1614265330, '{"test": 2432232314}')).toBe(
      'v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=',
    );
  });

  it('is verified unchanged by the standardwebhooks package, with either secret during a rotation', () => {
    const current = `whsec_${Buffer.alloc(32, 7).toString('base64')}`;
    const retiring = `whsec_${Buffer.alloc(32, 9).toString('base64')}`;
    const body = JSON.stringify({ type: 'transaction.status.updated', timestamp: '2026-11-23T12:00:00.000Z', data: { object: 'transaction' } });
    const timestamp = Math.floor(Date.now() / 1000);
    const headers = webhookSignatureHeaders([current, retiring], 'msg_1', timestamp, body);
    expect(headers['hook-signature']!.split(' ')).toHaveLength(2);
    expect(headers['hook-signature']).toBe(headers['webhook-signature']);
    for (const secret of [current, retiring]) expect(new Webhook(secret).verify(body, headers)).toEqual(JSON.parse(body));
    const stranger = `whsec_${Buffer.alloc(32, 1).toString('base64')}`;
    expect(() => new Webhook(stranger).verify(body, headers)).toThrow();
    expect(() => new Webhook(current).verify(`${body} `, headers)).toThrow();
  });
});
