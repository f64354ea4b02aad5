import { describe, expect, it } from 'vitest';
import { deliveryKindChangeNote } from './delivery-kind-change.ts';

describe('changing what a service delivers says what happens to its stock (decision 197)', () => {
  it('names the available items of the old kind, which are never drawn again', () => {
    expect(deliveryKindChangeNote('server', 'lines', [{ kind: 'server' }, { kind: 'server' }], 'other')).toBe(
      '2 available stock items deliver a server login. Once this service delivers a list of lines, they stay on the shelf and are never delivered: withdraw them in Stock, or keep delivering a server login.',
    );
    expect(deliveryKindChangeNote('server', 'account', [{ kind: 'server' }], 'other')).toMatch(
      /^1 available stock item delivers a server login\. .* it stays on the shelf and is never delivered: withdraw it in Stock/,
    );
  });

  it('says a Wise account service stops drawing on the Wise stock, and says nothing when nothing changes', () => {
    expect(deliveryKindChangeNote('account', 'file', [], 'wise')).toBe(
      'This service draws accounts from the Wise stock. Once it delivers a file, its orders no longer draw on the Wise stock.',
    );
    expect(deliveryKindChangeNote('server', 'server', [{ kind: 'server' }], 'other')).toBeNull();
    expect(deliveryKindChangeNote('lines', 'server', [], 'other')).toBeNull();
  });
});
