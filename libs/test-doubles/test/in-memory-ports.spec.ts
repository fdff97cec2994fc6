import { isId } from '@pfs/contracts';
import { InMemoryEventOutbox, InMemoryUnitOfWork, ManualClock, newestFirstPage, SeededRandomSource, SequentialIdGenerator } from '../src';

describe('the shared in-memory ports', () => {
  it('stand still in time until moved, and record appended events in order', async () => {
    const clock = new ManualClock('2026-11-23T08:00:00.000Z');
    const outbox = new InMemoryEventOutbox(clock);
    await new InMemoryUnitOfWork().run(() =>
      outbox.append('funding-methods.provisioned', { organizationId: 'org_1', accountId: 'acct_1', asset: 'EUR', fundingMethodIds: [], provisionedAt: clock.now().toISOString() }),
    );
    clock.advance(1000);
    expect(clock.now().toISOString()).toBe('2026-11-23T08:00:01.000Z');
    expect(outbox.events.map((event) => [event.type, event.occurredAt])).toEqual([['funding-methods.provisioned', '2026-11-23T08:00:00.000Z']]);
    expect(outbox.dataOf('funding-methods.provisioned')[0]?.asset).toBe('EUR');
  });

  it('roll back what participants hold when the outermost unit throws, then run afterRollback; nested units join it', async () => {
    let value = 'before';
    const order: string[] = [];
    const unitOfWork = new InMemoryUnitOfWork([{ snapshot: () => { const saved = value; return () => (value = saved); } }]);
    const refused = unitOfWork.run(async () => {
      value = 'written';
      await unitOfWork.run(async () => unitOfWork.afterRollback(async () => void order.push(`after rollback, value ${value}`)));
      throw new Error('refused');
    });
    await expect(refused).rejects.toThrow('refused');
    expect(order).toEqual(['after rollback, value before']);
    await unitOfWork.run(async () => {
      value = 'committed';
      unitOfWork.afterRollback(async () => void order.push('never'));
    });
    expect([value, order]).toEqual(['committed', ['after rollback, value before']]);
  });

  it('make well-formed ids in order and the same bytes for the same seed', () => {
    const ids = new SequentialIdGenerator();
    const [first, second] = [ids.next('organization'), ids.next('account')];
    expect(first).toBe('org_00000000000000000000000000000001');
    expect(isId('account', second)).toBe(true);
    expect(new SeededRandomSource('a').bytes(40)).toEqual(new SeededRandomSource('a').bytes(40));
    expect(new SeededRandomSource('a').bytes(8)).not.toEqual(new SeededRandomSource('b').bytes(8));
  });

  it('page newest first, strictly after the cursor', () => {
    const at = (iso: string) => new Date(iso);
    const items = [
      { id: 'b', createdAt: at('2026-01-01T00:00:00Z') },
      { id: 'a', createdAt: at('2026-01-02T00:00:00Z') },
      { id: 'c', createdAt: at('2026-01-01T00:00:00Z') },
    ];
    expect(newestFirstPage(items, null, 2).map((item) => item.id)).toEqual(['a', 'c']);
    expect(newestFirstPage(items, { createdAt: '2026-01-01T00:00:00.000Z', id: 'c' }, 2).map((item) => item.id)).toEqual(['b']);
  });
});
